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
// exactly the whole document's. Footnotes link chunks across windows (footnoteLinker): a
// chunk whose links are not final when its window ends is held, and the chunks after it with
// it, until they are (the footnote it references is chunked, the reference to the footnote it
// holds comes) or the document ends; what the document does not have, it does not wait for
// (footnoteLinker.scan: from the blocks in ChunkSeq, from Document.Footnotes in ChunkParts).
// A held chunk keeps neither the window's token ends and
// drafts nor its text, but the pieces of the blocks' texts its Content is made of (heldText),
// which an adapter that parses in place (markdown.Options.InPlace) cuts from the input itself.

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
		defer w.stop()
		w.links.scan = scanBlocks(doc.Blocks)
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
// parts yields, window by window as in ChunkSeq, reading the parts only one window beyond the
// window it is chunking (see sectionWindows). Until a heading shallow enough to start a section at SplitLevel comes, the
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
		defer w.stop()
		w.links.scan = doc.Footnotes
		if s.SplitLevel < 0 {
			w.cut.known = true // no heading starts a section
		}
		if readParts(doc.ID, parts, &w.source, &w.drop, w.add, failedAfter(w.chunkPending, yield)) {
			w.end()
		}
	}
}

// sectionWindows hands a document's blocks to Sections a window at a time and yields the
// chunks: add takes the blocks in order, end chunks the last window. It reads one window
// ahead, as HeadingAware's windows do: a window's blocks are measured on a goroutine of their
// own while the window before is chunked, and then while the next window's blocks are read.
type sectionWindows struct {
	s                  *Sections
	ctx                context.Context
	req                sdk.Request
	doc                *sdk.Document // the document's identity; its blocks come through add
	maxTokens, overlap int
	yield              func(sdk.Chunk, error) bool
	cut                sectionCutter
	measure            measurer
	blocks             []sdk.Block // the blocks read since the last window ended
	pending            *sectionPending
	at                 part // the pending window's
	links              footnoteLinker
	kept               map[string]string // the strings of held chunks copied, one copy each (keep)
	source             func() *sdk.SourceMap
	drop               func(next int)
}

func (s *Sections) windows(ctx context.Context, req sdk.Request, doc *sdk.Document, maxTokens, overlap int, yield func(sdk.Chunk, error) bool) *sectionWindows {
	split := s.SplitLevel
	if split == 0 {
		split = DefaultSplitLevel
	}
	return &sectionWindows{s: s, ctx: ctx, req: req, doc: doc, maxTokens: maxTokens, overlap: overlap, yield: yield,
		cut:     sectionCutter{size: windowSize(s.WindowBytes), split: split, stopped: s.PackSections},
		measure: measurer{ctx: ctx, name: sectionsName, counter: s.Counter, doc: doc}}
}

// sectionPending is a window of Sections that has ended and is not yet chunked: its blocks,
// the level its sections start at, the canonical offset the next window starts at, and its
// blocks' measurement, under way once it has begun.
type sectionPending struct {
	blocks   []sdk.Block
	level    int
	next     int
	measured *measuring
}

// add takes the next block of the document, chunking the window before it when one ends
// there. It reports false when the chunks are no longer wanted or chunking failed.
func (w *sectionWindows) add(b sdk.Block) bool {
	if off, ok := w.cut.next(b); ok && !w.endWindow(off, false) {
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
	if !w.endWindow(w.cut.off, true) || !w.chunkPending() {
		return
	}
	w.links.finish()
	w.release()
}

// endWindow ends the window being read before the block at canonical offset next, the last
// when last: it starts measuring the window's blocks, unless it is the document's only
// window, and chunks the window before.
func (w *sectionWindows) endWindow(next int, last bool) bool {
	p := &sectionPending{blocks: w.blocks, level: w.cut.level, next: next}
	w.blocks = nil
	p.measured = w.measure.ahead(p.blocks, last, w.pending != nil)
	ok := w.chunkPending()
	w.pending = p
	return ok
}

// stop abandons a measurement under way once the chunks are no longer wanted.
func (w *sectionWindows) stop() {
	if p := w.pending; p != nil {
		p.measured.abandon()
	}
	w.pending = nil
}

// chunkPending chunks the pending window, if there is one, and yields the chunks whose links
// are final.
func (w *sectionWindows) chunkPending() bool {
	p := w.pending
	if p == nil {
		return true
	}
	w.pending = nil
	m, err := w.measure.result(p.measured, p.blocks)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	doc := *w.doc
	doc.Blocks, doc.Source = p.blocks, nil
	w.at.source = w.source()
	chunks, notes, err := w.s.chunkLayout(w.ctx, w.req, newWindowLayout(&doc, nil, nil, m), p.level, w.at, w.maxTokens, w.overlap)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	if notes == nil && len(w.links.queue) == 0 { // no footnotes, none held: the chunks are final
		for _, c := range chunks {
			if !w.yield(c, nil) {
				return false
			}
		}
	} else {
		for k := range chunks {
			c := new(sdk.Chunk) // one at a time: a chunk held does not keep the window's others
			*c = chunks[k]
			var n chunkNotes
			if notes != nil {
				n = notes[k]
			}
			w.links.add(c, n)
		}
		w.links.endWindow()
		if !w.release() {
			return false
		}
		var starts []int
		for _, lc := range w.links.queue {
			if !lc.held { // held past its window
				if starts == nil {
					starts = blockStarts(p.blocks)
				}
				w.hold(lc, p.blocks, starts)
			}
		}
	}
	if w.drop != nil {
		w.drop(p.next)
	}
	w.at = part{base: p.next, first: w.at.first + len(chunks)}
	return true
}

// release yields the chunks whose links are final, giving a held one its Content again. It
// reports false when the chunks are no longer wanted.
func (w *sectionWindows) release() bool {
	ok := w.links.take(func(lc *linkedChunk) bool {
		c := *lc.c
		if lc.held {
			c.Content = strings.Join(lc.texts, "")
			c.EmbedText = sdk.JoinContext(c.Context, c.Content)
		}
		return w.yield(c, nil)
	})
	if len(w.links.queue) == 0 {
		w.kept = nil // no chunk is held: let the copies go
	}
	return ok
}

// hold keeps the chunk of lc, one of the window's whose blocks, blocks, start at starts
// (blockStarts), past its window: without its Content and EmbedText, which release makes again from the
// pieces of the blocks' texts they are made of, and with copies of the strings it took from
// the window's text.
func (w *sectionWindows) hold(lc *linkedChunk, blocks []sdk.Block, starts []int) {
	c := lc.c
	prefix, _ := c.Metadata[sdk.MetaPrefix].(string)
	lc.held, lc.texts = true, heldText(blocks, starts, c.Start-w.at.base, c.End-w.at.base, w.keep(prefix), c.Content)
	c.Content, c.EmbedText = "", ""
	c.SectionPath = slices.Clone(c.SectionPath)
	for k, s := range c.SectionPath {
		c.SectionPath[k] = w.keep(s)
	}
	c.SectionTitle, c.Context = w.keep(c.SectionTitle), w.keep(c.Context)
	if p, ok := c.Metadata[sdk.MetaPrefix].(string); ok {
		c.Metadata[sdk.MetaPrefix] = w.keep(p)
	}
}

// sectionCutter says, block by block, where Sections' windows end: before a non-blank heading
// of level at most level (one that starts a section) that closes every open section, once the
// window holds size bytes of canonical text, when neither it nor the nearest non-blank block
// before it is a block of comments and anchors alone (which join a neighbour's chunk) and that
// block is not a heading (which shares the next section's chunk). It ends none while the
// level is not known, and none when stopped (PackSections).
type sectionCutter struct {
	size    int
	split   int   // SplitLevel, or its default
	level   int   // the level sections start at (effectiveLevel), once known
	known   bool  // level is known
	stopped bool  // no window ends
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
