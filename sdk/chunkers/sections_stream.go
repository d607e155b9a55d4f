package chunkers

import (
	"context"
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// Sections chunks a document a window at a time, as HeadingAware does, but only where a window
// ends clean: before a section heading that no open section encloses, where its chunks
// cannot reach back (a section starts a chunk and its overlap stays in it), and never with
// PackSections, which packs a section into the chunk before it. The windows' chunks are
// exactly the whole document's. Footnotes link chunks across the document (a footnote's
// chunk takes the path of the first chunk that references it, which lists it), so from the
// first footnote block or footnote reference ("[^label]", see eachReference) on, the windows'
// chunks are held, with what linking needs of them (chunkNotes and their references), and
// linked and yielded at the end: the chunks, not the windows' token ends and drafts, and not
// their text either, but the pieces of the blocks' texts it is made of (heldText), which an
// adapter that parses in place (markdown.Options.InPlace) cuts from the input itself.

// ChunkSeq implements sdk.StreamChunker: it yields the document's chunks window by window
// (see WindowBytes), each window measured, packed and verified on its own.
func (s *Sections) ChunkSeq(ctx context.Context, req sdk.Request, doc *sdk.Document) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		maxTokens, overlap, err := s.check(sectionsName)
		if err == nil {
			err = checkInput(sectionsName, s.Counter, doc)
		}
		if err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		split := s.effectiveLevel(doc)
		if size := windowSize(s.WindowBytes); size <= 0 || textBytes(doc.Blocks) <= size { // most documents: one window, no copy of the blocks
			chunks, notes, err := s.chunkWindow(ctx, req, doc, split, part{source: doc.Source}, maxTokens, overlap)
			if err != nil {
				yield(sdk.Chunk{}, err)
				return
			}
			linkWhole(chunks, notes)
			for _, c := range chunks {
				if !yield(c, nil) {
					return
				}
			}
			return
		}
		w := s.windows(ctx, req, doc, maxTokens, overlap, yield)
		w.cut.level, w.cut.known = split, true
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
// parts yields, window by window as in ChunkSeq, reading the parts only as far as the window
// it is chunking. Until a heading shallow enough to start a section at SplitLevel comes, the
// level sections start at is not known (see effectiveLevel), and the blocks so far are held.
func (s *Sections) ChunkParts(ctx context.Context, req sdk.Request, doc *sdk.Document, parts iter.Seq2[sdk.DocumentPart, error]) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		maxTokens, overlap, err := s.check(sectionsName)
		if err == nil {
			err = checkInput(sectionsName, s.Counter, &sdk.Document{ID: doc.ID})
		}
		if err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		w := s.windows(ctx, req, doc, maxTokens, overlap, yield)
		if s.SplitLevel < 0 {
			w.cut.known = true // no heading starts a section
		}
		if readParts(doc.ID, parts, &w.source, &w.drop, w.add, yield) {
			w.end()
		}
	}
}

// sectionWindows hands a document's blocks to Sections.chunkWindow a window at a time and
// yields the chunks: add takes the blocks in order, end chunks the last window.
type sectionWindows struct {
	s                  *Sections
	ctx                context.Context
	req                sdk.Request
	doc                *sdk.Document // the document's identity; its blocks come through add
	maxTokens, overlap int
	yield              func(sdk.Chunk, error) bool
	cut                sectionCutter
	blocks             []sdk.Block // the window's so far
	at                 part
	// held are the chunks from the first footnote block or reference on, without their
	// Content, with their notes (nil while no window had a labelled footnote block), the
	// labels they reference and the pieces of text their Content is made of: linked, given
	// their Content again and yielded at the end.
	held   []*sdk.Chunk
	notes  []chunkNotes
	refs   [][]string
	texts  [][]string
	kept   map[string]string // the strings of held chunks copied, one copy each (keep)
	source func() *sdk.SourceMap
	drop   func(next int)
}

func (s *Sections) windows(ctx context.Context, req sdk.Request, doc *sdk.Document, maxTokens, overlap int, yield func(sdk.Chunk, error) bool) *sectionWindows {
	split := s.SplitLevel
	if split == 0 {
		split = DefaultSplitLevel
	}
	return &sectionWindows{s: s, ctx: ctx, req: req, doc: doc, maxTokens: maxTokens, overlap: overlap, yield: yield,
		cut: sectionCutter{size: windowSize(s.WindowBytes), split: split, stopped: s.PackSections}}
}

// add takes the next block of the document, chunking the window before it when one ends
// there. It reports false when the chunks are no longer wanted or chunking failed.
func (w *sectionWindows) add(b sdk.Block) bool {
	if off, ok := w.cut.next(b); ok && !w.flush(off) {
		return false
	}
	w.blocks = append(w.blocks, b)
	return true
}

// end chunks the last window, and links and yields the chunks held.
func (w *sectionWindows) end() {
	if !w.cut.known { // no heading at SplitLevel or above: the blocks held say which level
		w.cut.level, w.cut.known = w.s.effectiveLevel(&sdk.Document{Blocks: w.blocks}), true
	}
	if !w.flush(w.cut.off) {
		return
	}
	linkFootnotes(w.held, w.notes, func(k int, f func(string)) {
		for _, label := range w.refs[k] {
			f(label)
		}
	})
	for k, held := range w.held {
		c := *held
		c.Content = strings.Join(w.texts[k], "")
		w.held[k], w.texts[k] = nil, nil // yielded: let them go
		c.EmbedText = sdk.JoinContext(c.Context, c.Content)
		if !w.yield(c, nil) {
			return
		}
	}
}

// flush chunks the window, and starts the next at canonical offset next.
func (w *sectionWindows) flush(next int) bool {
	doc := *w.doc
	doc.Blocks, doc.Source = w.blocks, nil
	w.at.source = w.source()
	chunks, notes, err := w.s.chunkWindow(w.ctx, w.req, &doc, w.cut.level, w.at, w.maxTokens, w.overlap)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	made := len(chunks)
	if w.cut.notes {
		if notes != nil && w.notes == nil {
			w.notes = make([]chunkNotes, len(w.held), len(w.held)+len(chunks))
		}
		if w.notes != nil {
			if notes == nil {
				notes = make([]chunkNotes, len(chunks))
			}
			w.notes = append(w.notes, notes...)
		}
		starts := blockStarts(w.blocks)
		for _, c := range chunks {
			var refs []string
			eachReference(c.Content, func(label string) { refs = append(refs, w.keep(label)) })
			w.refs = append(w.refs, refs)
			prefix, _ := c.Metadata[sdk.MetaPrefix].(string)
			w.texts = append(w.texts, heldText(w.blocks, starts, c.Start-w.at.base, c.End-w.at.base, w.keep(prefix), c.Content))
			// Content and EmbedText are made again when yielded: the text is held only as the
			// blocks hold it.
			c.Content, c.EmbedText = "", ""
			// The section path, context and prefix are cut from the window's canonical
			// text: copies of them let it go.
			c.SectionPath = slices.Clone(c.SectionPath)
			for k, s := range c.SectionPath {
				c.SectionPath[k] = w.keep(s)
			}
			c.SectionTitle, c.Context = w.keep(c.SectionTitle), w.keep(c.Context)
			if p, ok := c.Metadata[sdk.MetaPrefix].(string); ok {
				c.Metadata[sdk.MetaPrefix] = w.keep(p)
			}
			w.held = append(w.held, &c) // one at a time: the slice grows by pointers, not chunks
		}
		chunks = nil
	}
	for _, c := range chunks {
		if !w.yield(c, nil) {
			return false
		}
	}
	if w.drop != nil {
		w.drop(next)
	}
	w.blocks = nil
	w.at = part{base: next, first: w.at.first + made}
	return true
}

// sectionCutter says, block by block, where Sections' windows end: before a non-blank heading
// of level at most level (one that starts a section) that closes every open section, once the
// window holds size bytes of canonical text, when neither it nor the nearest non-blank block
// before it is a block of comments and anchors alone (which join a neighbour's chunk) and that
// block is not a heading (which shares the next section's chunk). It ends none while the
// level is not known, and none when stopped (PackSections). notes says that a footnote block
// or reference has come: the chunks from the window it is in on are held.
type sectionCutter struct {
	size    int
	split   int   // SplitLevel, or its default
	level   int   // the level sections start at (effectiveLevel), once known
	known   bool  // level is known
	stopped bool  // no window ends
	notes   bool  // a footnote block or reference has come
	open    []int // the levels of the open sections, outermost first
	off     int   // the canonical offset of the next block
	base    int   // the canonical offset of the window's first block
	blocks  int   // the blocks seen
	prev    sdk.Block
	hasPrev bool // prev is the nearest non-blank block so far
}

// next takes the next block and reports its canonical offset and whether the window ends
// before it.
func (c *sectionCutter) next(b sdk.Block) (off int, cut bool) {
	if c.blocks > 0 {
		c.off += len(sdk.Separator)
	}
	c.blocks++
	off = c.off
	c.off += len(b.Text)
	if sdk.IsBlank(b.Text) {
		return off, false
	}
	if !c.notes && (b.Kind == sdk.KindFootnote || hasReference(b.Text)) {
		c.notes = true
	}
	if !c.known && b.Kind == sdk.KindHeading && b.Level <= c.split {
		c.level, c.known = c.split, true // effectiveLevel: a heading at SplitLevel or above settles it
	}
	if b.Kind == sdk.KindHeading && c.known && b.Level <= c.level {
		for len(c.open) > 0 && c.open[len(c.open)-1] >= b.Level {
			c.open = c.open[:len(c.open)-1]
		}
		cut = !c.stopped && c.size > 0 && len(c.open) == 0 && c.hasPrev && off-c.base >= c.size && cutBefore(c.prev, b)
		c.open = append(c.open, b.Level)
	}
	if cut {
		c.base = off
	}
	c.prev, c.hasPrev = b, true
	return off, cut
}

// hasReference reports whether text holds a footnote reference, "[^label]" not followed by
// ":" (see eachReference), which is what linkFootnotes looks for in a chunk's text: a
// reference never crosses a block, whose label holds no white space.
func hasReference(text string) bool {
	found := false
	eachReference(text, func(string) { found = true })
	return found
}

// keep returns a copy of s that does not share the memory of the text it was cut from, the
// same copy for the same text.
func (w *sectionWindows) keep(s string) string {
	if s == "" {
		return ""
	}
	if k, ok := w.kept[s]; ok {
		return k
	}
	if w.kept == nil {
		w.kept = map[string]string{}
	}
	k := strings.Clone(s)
	w.kept[k] = k
	return k
}

// blockStarts returns the offset of every block's text in the canonical text of blocks
// (sdk.Document.Canonical's Starts), without making that text.
func blockStarts(blocks []sdk.Block) []int {
	starts := make([]int, len(blocks))
	n := 0
	for i, b := range blocks {
		if i > 0 {
			n += len(sdk.Separator)
		}
		starts[i] = n
		n += len(b.Text)
	}
	return starts
}

// heldText returns the pieces that make content, a chunk's Content: prefix (the chunk's
// MetaPrefix, "" for none) and the pieces of blocks' texts and separators that make
// [start, end) of their canonical text, in which the blocks start at starts (the separator
// before block i takes the bytes just before starts[i]). When content is not made so, it is
// content itself, as one piece.
func heldText(blocks []sdk.Block, starts []int, start, end int, prefix, content string) []string {
	rest, ok := strings.CutPrefix(content, prefix)
	if !ok || start < 0 || end-start != len(rest) || len(blocks) == 0 {
		return []string{content}
	}
	var pieces []string
	if prefix != "" {
		pieces = append(pieces, prefix)
	}
	take := func(from string, a, b, at int) bool { // from[a-at:b-at], the part of [a, b) in range
		a, b = max(a, start), min(b, end)
		if a >= b {
			return true
		}
		s := from[a-at : b-at]
		if !strings.HasPrefix(rest, s) {
			return false
		}
		pieces, rest = append(pieces, s), rest[len(s):]
		return true
	}
	first := sort.SearchInts(starts, start+1) - 1 // the last block that starts at or before start
	for i := max(first, 0); i < len(blocks) && starts[i] < end+len(sdk.Separator); i++ {
		s, text := starts[i], blocks[i].Text
		if i > first && !take(sdk.Separator, s-len(sdk.Separator), s, s-len(sdk.Separator)) {
			return []string{content}
		}
		if !take(text, s, s+len(text), s) {
			return []string{content}
		}
	}
	if rest != "" {
		return []string{content}
	}
	return pieces
}
