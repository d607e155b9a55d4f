package chunkers

import (
	"context"
	"fmt"
	"iter"

	"github.com/chunkkit/chunkkit/sdk"
)

// HeadingAware chunks a document along its heading tree within an exact token budget.
//
// By default a heading travels with its text: it is the first line of its section's first
// body chunk, and a heading followed directly by another heading shares that one's chunk, so
// no chunk is a bare heading and a search for a section's name finds the section's text. The
// chunk that holds a heading is the parent of the section's later chunks and of the first
// chunks of its subsections (a skipped level parents to the heading above it), so the
// heading tree stays in ParentID. With HeadingChunks, every heading is instead a heading chunk
// of its own (Kind sdk.ChunkHeading, outside the budget), the parent of its section's body
// chunks and of its subheadings.
//
// Body blocks accumulate within their section until the next would exceed the budget; the
// next body chunk of the same section starts with up to OverlapTokens tokens of the previous
// one (see the overlap convention in overlap.go and docs/reference/chunkers.md); there is no
// overlap across a heading. A block over budget is cut where words stay whole: at the lines
// that begin items (list items, link definitions, badges), then at sentences, then at words,
// and at token boundaries only inside a word over the budget. A table or code block that fits
// is never split; one that does not is split at line boundaries, and each later part starts
// with the table's header rows (or the code block's opening fence), recorded in
// Metadata[sdk.MetaPrefix]. A block of nothing but HTML comments and anchors joins the chunk
// of the block after it, or else before it. Every chunk's Content is that prefix followed by
// canonical[Start:End], trimmed of white space at both ends; its Context is the document's
// title and its heading path as Config.Context selects (default ContextTitlePath), and its
// EmbedText is sdk.JoinContext(Context, Content), which the budget applies to.
//
// Counter is required. The zero values of the other fields mean the documented defaults.
// HeadingAware makes one Boundaries call and one Count call per window of the document (a
// document of up to WindowBytes of text is one window; see ChunkSeq), plus a further Count for
// the rare chunk whose verified count exceeds its estimate; such a chunk is re-split, never
// emitted over budget. A document of several windows has the next window's Boundaries call
// under way while it packs and verifies a window (see windows in stream.go), so its Counter
// is called from a goroutine of the chunker's own too. It is safe for concurrent use if its
// Counter and Sentences are.
type HeadingAware struct {
	Config
	// HeadingChunks emits every heading as a heading chunk of its own, the parent of its
	// section's chunks, instead of folding it into its section's first body chunk.
	HeadingChunks bool
	// WindowBytes is the canonical text a window holds at least before ChunkSeq ends it at
	// the next block where a window may end: before an outermost heading, or between two body
	// blocks with the packer's state carried on (see stream.go and DefaultWindowBytes); 0
	// means DefaultWindowBytes and a negative value one window for the whole document. The
	// chunks are the same whatever it is — it trades memory for calls to the counter — but
	// for a block of more than four windows, which is cut into parts of about a window (at
	// least 64 KiB; a table or code block at line ends, its header repeated), and whose chunks
	// near where two parts meet may then differ, as a token estimate may there; every chunk
	// still fits the budget.
	WindowBytes int
}

// Chunk implements sdk.Chunker: it returns the chunks ChunkSeq yields.
func (h *HeadingAware) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	return collect(h.ChunkSeq(ctx, req, doc))
}

// ChunkSeq implements sdk.StreamChunker: it yields the document's chunks window by window
// (see WindowBytes), each window measured, packed and verified on its own, so that it holds one
// window's token ends and chunks at a time.
func (h *HeadingAware) ChunkSeq(ctx context.Context, req sdk.Request, doc *sdk.Document) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		maxTokens, overlap, err := h.check(headingAwareName)
		if err == nil {
			err = checkInput(headingAwareName, h.Counter, doc)
		}
		if err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		if countWindows(doc, windowSize(h.WindowBytes), h.KeepTablesWhole) == 1 { // most documents: no copy of the blocks
			chunks, _, err := h.chunkWindow(ctx, req, doc, nil, nil, part{source: doc.Source}, nil, -1, maxTokens, overlap)
			if err != nil {
				yield(sdk.Chunk{}, err)
				return
			}
			for _, c := range chunks {
				if !yield(c, nil) {
					return
				}
			}
			return
		}
		w := h.windows(ctx, req, doc, maxTokens, overlap, yield)
		defer w.stop()
		w.source = func() *sdk.SourceMap { return doc.Source }
		for _, b := range doc.Blocks {
			if !w.add(b) {
				return
			}
		}
		w.end()
	}
}

// ChunkParts implements sdk.PartChunker: it yields the chunks of the document whose blocks
// parts yields, window by window as in ChunkSeq, reading the parts only one window beyond the
// window it is chunking, so that it holds two windows' blocks and source segments, and one
// window's token ends and chunks, at a time.
func (h *HeadingAware) ChunkParts(ctx context.Context, req sdk.Request, doc *sdk.Document, parts iter.Seq2[sdk.DocumentPart, error]) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		maxTokens, overlap, err := h.check(headingAwareName)
		if err == nil {
			err = checkInput(headingAwareName, h.Counter, &sdk.Document{ID: doc.ID})
		}
		if err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		w := h.windows(ctx, req, doc, maxTokens, overlap, yield)
		defer w.stop()
		if readParts(doc.ID, parts, &w.source, &w.drop, w.add, failedAfter(w.packPending, yield)) {
			w.end()
		}
	}
}

const headingAwareName = "heading-aware chunker"

// chunkWindow returns the chunks of doc, the window at of a document, whose block i continues
// block i-1 without a separator where joined[i] (see splitLarge) and is a part of a table or
// code block with header heads[i] where that is not nil (heads may be nil). in is what the window before
// handed on when it ended carried, else nil; carried is the canonical offset, in the whole
// document, of the block before which this window ends carried, or -1, and when it does
// chunkWindow returns what the next window goes on with.
func (h *HeadingAware) chunkWindow(ctx context.Context, req sdk.Request, doc *sdk.Document, joined []bool, heads []*partHead, at part, in *carry, carried int, maxTokens, overlap int) ([]sdk.Chunk, *carry, error) {
	l, err := measureWindow(ctx, headingAwareName, h.Counter, doc, joined, all)
	if err != nil {
		return nil, nil, err
	}
	return h.packLayout(ctx, req, l, heads, at, in, carried, maxTokens, overlap)
}

// packLayout is chunkWindow once the window is measured: l is its layout.
func (h *HeadingAware) packLayout(ctx context.Context, req sdk.Request, l *layout, heads []*partHead, at part, in *carry, carried int, maxTokens, overlap int) ([]sdk.Chunk, *carry, error) {
	const name = headingAwareName
	doc := l.doc
	l.heads = heads
	l.base = at.base
	from := 0 // the first block to pack: those before are held again for in's chunks
	var seed []openSection
	if in != nil {
		from, seed = in.blocks, in.open
		for k, n := range in.textTok {
			if _, ok := l.textTok[k]; !ok {
				l.textTok[k] = n
			}
		}
	}
	cx := newContexter(l, h.contextMode(ContextTitlePath), maxTokens)
	secs := seededSections(l, func(sdk.Block) bool { return true }, seed, from)
	secs.reserve(l, cx)
	p := packer{l: l, maxTokens: maxTokens, overlap: overlap}
	holders := make([]*draft, len(secs.list)) // per section, the draft that holds its heading
	if in != nil {
		in.resume(&p, l)
		for k, o := range seed {
			holders[k] = o.holder
		}
	}
	s := splitter{l: l, maxTokens: maxTokens, keepTables: h.KeepTablesWhole, sentences: h.Sentences, headings: !h.HeadingChunks, overlap: overlap > 0, from: from}
	units, err := s.units(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: document %q: %w", name, doc.ID, err)
	}
	for i := from; i < len(doc.Blocks); i++ {
		b := doc.Blocks[i]
		k := secs.of[i]
		if b.Kind != sdk.KindHeading || k < 0 || secs.list[k].block != i {
			for _, u := range units[i] {
				p.add(u)
			}
			continue
		}
		sec := secs.list[k]
		var parent *draft
		if sec.parent >= 0 {
			parent = holders[sec.parent]
		}
		if h.HeadingChunks {
			hd := &draft{kind: sdk.ChunkHeading, level: b.Level, start: l.canon.Starts[i], end: l.blockEnd(i),
				parent: parent, path: sec.path, context: cx.render(sec.path[:len(sec.path)-1]).text}
			hd.trimmed(l.canon.Text)
			holders[k] = hd
			p.section(hd, cx.render(sec.path))
			continue
		}
		p.openFolded(parent, sec.path, cx)
		for _, u := range units[i] {
			p.add(u)
		}
		if p.cur != nil {
			p.cur.holder = true
			holders[k] = p.cur
			p.parent = p.cur
		}
	}
	var out *carry
	if carried >= 0 {
		out = p.carryOut(l, at, carried, secs, holders)
	} else {
		p.flush()
	}
	drafts, err := verify(ctx, name, h.Counter, l, p.out, maxTokens)
	if err != nil {
		return nil, nil, err
	}
	return finishPart(l, drafts, req, at), out, nil
}

// section is one heading and the blocks up to the next heading that starts a section.
type section struct {
	block  int      // the heading's block
	level  int      // the heading's level
	parent int      // the enclosing section, or -1
	path   []string // the trimmed titles of the enclosing sections' headings, then its own
}

// sections is a document's sections: list in document order, and for each block the section
// it belongs to (-1 before the first).
type sections struct {
	list []section
	of   []int
}

// path returns the section path of block i, nil before the first section.
func (s sections) path(i int) []string {
	if k := s.of[i]; k >= 0 {
		return s.list[k].path
	}
	return nil
}

// reserve sets l.reserve, per block, to what its section's context costs at most.
func (s sections) reserve(l *layout, cx *contexter) {
	costs := make([]int, len(s.list))
	for k, sec := range s.list {
		costs[k] = cx.reserve(sec.path)
	}
	none := cx.reserve(nil)
	for i, k := range s.of {
		l.reserve[i] = none
		if k >= 0 {
			l.reserve[i] = costs[k]
		}
	}
}

// headingSections returns the sections that the non-blank headings starts selects begin. A
// section nests under the nearest section before it of a lower level.
func headingSections(l *layout, starts func(sdk.Block) bool) sections {
	return seededSections(l, starts, nil, 0)
}

// seededSections is headingSections for a window whose first blocks, before from, are held
// again only for the chunks a carried window end left open (see carry), and which opens inside
// the sections seed, outermost first: they come first in the list, and the blocks before from
// belong to none.
func seededSections(l *layout, starts func(sdk.Block) bool, seed []openSection, from int) sections {
	s := sections{of: make([]int, len(l.doc.Blocks))}
	var stack []int
	for k, o := range seed {
		s.list = append(s.list, section{block: -1, level: o.level, parent: k - 1, path: o.path})
		stack = append(stack, k)
	}
	cur := len(seed) - 1
	for i := range from {
		s.of[i] = -1
	}
	for i := from; i < len(l.doc.Blocks); i++ {
		b := l.doc.Blocks[i]
		if b.Kind == sdk.KindHeading && !sdk.IsBlank(b.Text) && starts(b) {
			for len(stack) > 0 && s.list[stack[len(stack)-1]].level >= b.Level {
				stack = stack[:len(stack)-1]
			}
			parent := -1
			var path []string
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
				path = append(path, s.list[parent].path...)
			}
			a, e := trim(l.canon.Text, l.canon.Starts[i], l.blockEnd(i))
			path = append(path, l.canon.Text[a:e])
			s.list = append(s.list, section{block: i, level: b.Level, parent: parent, path: path})
			cur = len(s.list) - 1
			stack = append(stack, cur)
		}
		s.of[i] = cur
	}
	return s
}
