package chunkers

import (
	"context"
	"errors"
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultWindowBytes is the canonical text a window of a document holds at least (unless the
// document ends first) before HeadingAware ends it at the next block where it may: a document
// of up to this size is one window, measured with one Boundaries call and verified with one
// Count call, and a larger one costs those two calls per window.
const DefaultWindowBytes = 256 << 10

// A window is a run of a document's blocks that a chunker measures, packs and verifies on its
// own, so that it holds the token ends, sentence ends, units and drafts of one window at a
// time instead of the whole document's (HeadingAware has the token ends of the next window
// measured meanwhile, see windows), and yields the window's chunks before reading further. A window ends in one of two ways, both of which leave the chunks exactly those of the
// whole document at once:
//
//   - clean, before a heading that starts a section of its own at the outermost level, where
//     no chunk crosses and nothing refers back (see windowCutter);
//   - carried, between two body blocks anywhere else (a document without headings, or inside
//     a section): the packer's state at that block — the chunk being packed, the chunk its
//     overlap would come from, the open sections with the chunks that hold their headings —
//     goes on into the next window (see carry), which holds again the few blocks those two
//     chunks reach back into, so that the next window packs on as the whole document would.
//
// A block of more than four windows (prose, a table or code block not kept whole) is first
// cut into parts that the windows hold as blocks joined without a separator (see splitLarge):
// only there do the chunks differ from the whole document's, near where two parts meet.

// cutKind is how a window ends before a block: not at all, clean or carried.
type cutKind int

const (
	noCut cutKind = iota
	cleanCut
	carriedCut
)

// windowCutter says, block by block, where HeadingAware's windows end. A window holds at
// least size bytes of canonical text before it ends; size <= 0 means no window ends.
//
// It ends clean before a heading that starts a section of its own at the outermost level
// (every section open before it is of its level or deeper, so no heading path, parent link or
// overlap reaches back past it), when that heading is not a block of nothing but comments and
// anchors and the nearest non-blank block before it is prose, a list, a table or code that is
// not either (so the chunk before is not one of headings alone, which the heading would join,
// and no such block glues across the cut; see packer.openFolded and splitter.glueNoise).
//
// It ends carried before any other non-blank block that is neither a heading nor comments and
// anchors alone when the nearest non-blank block before it is neither either: the units of
// the blocks on both sides are then those of the whole document (no block of comments glues
// across the cut), and the packer's state before the block is carried over (see carry).
type windowCutter struct {
	size    int
	open    []int // the levels of the open sections, outermost first
	off     int   // the canonical offset of the next block
	base    int   // the canonical offset of the window's first block
	blocks  int   // the blocks seen
	prev    sdk.Block
	hasPrev bool // prev is the nearest non-blank block of the window so far
}

// next takes the next block, b, which continues the one before without a separator when
// joined (see splitLarge), and reports its canonical offset and whether and how the window
// ends before it.
func (c *windowCutter) next(b sdk.Block, joined bool) (off int, cut cutKind) {
	if c.blocks > 0 && !joined {
		c.off += len(sdk.Separator)
	}
	c.blocks++
	off = c.off
	c.off += len(b.Text)
	blank := sdk.IsBlank(b.Text)
	due := c.size > 0 && off-c.base >= c.size && c.hasPrev
	switch {
	case blank:
	case b.Kind == sdk.KindHeading:
		for len(c.open) > 0 && c.open[len(c.open)-1] >= b.Level {
			c.open = c.open[:len(c.open)-1]
		}
		if due && len(c.open) == 0 && cutBefore(c.prev, b) {
			cut = cleanCut
		}
		c.open = append(c.open, b.Level)
	case due && carriesAcross(c.prev) && carriesAcross(b):
		cut = carriedCut
	}
	if cut != noCut {
		c.base = off
	}
	if !blank {
		c.prev, c.hasPrev = b, true
	}
	return off, cut
}

// cutBefore reports whether a window may end clean between before, the nearest non-blank
// block before heading h, and h.
func cutBefore(before, h sdk.Block) bool {
	return before.Kind != sdk.KindHeading && !noise.MatchString(before.Text) && !noise.MatchString(h.Text)
}

// carriesAcross reports whether a carried window end may lie next to non-blank block b.
func carriesAcross(b sdk.Block) bool {
	return b.Kind != sdk.KindHeading && !noise.MatchString(b.Text)
}

// carry is what a window that ends carried hands the next: the packer's state before the
// block the window ends at, with the chunks' offsets made the next window's, and what the next
// window needs to go on with it.
type carry struct {
	// blocks is how many of the window's last blocks the next window holds again: those that
	// the chunk being packed and the chunk before it start in. base is the canonical offset,
	// in the whole document, of the first of them.
	blocks, base int
	// reserve is l.reserve of those blocks, which the next window cannot work out: their
	// sections may have begun before it.
	reserve []int
	// open is the sections open at the window's end, outermost first; textTok the tokens of
	// their headings' texts, which their contexts are made of.
	open    []openSection
	textTok map[string]int
	// The packer's state (see packer).
	cur, prev    *draft
	curTok       int
	curCtx       rendered
	parent       *draft
	path         []string
	ctx, headCtx rendered
}

// openSection is a section open at a carried window end: what a later section or chunk needs
// of it.
type openSection struct {
	level  int
	path   []string
	holder *draft // the draft that holds its heading, nil for none
}

// carryOut ends the window of l carried before the block at canonical offset next of the
// whole document: it returns the packer's state and what the next window needs, the chunk
// being packed left open. secs and holders are the window's.
func (p *packer) carryOut(l *layout, at part, next int, secs sections, holders []*draft) *carry {
	n := len(l.doc.Blocks)
	// The first block the next window must hold: where the chunk the next overlap may come
	// from starts (the chunk being packed starts no earlier).
	lb := n
	switch {
	case p.prev != nil:
		lb = l.blockAt(p.prev.start)
	case p.cur != nil:
		lb = l.blockAt(p.cur.start)
	}
	shift, base := 0, next
	if lb < n {
		shift = l.canon.Starts[lb]
		base = at.base + shift
	}
	c := &carry{blocks: n - lb, base: base, reserve: slices.Clone(l.reserve[lb:]),
		curTok: p.curTok, curCtx: p.curCtx, parent: p.parent, path: p.path, ctx: p.ctx, headCtx: p.headCtx,
		textTok: map[string]int{}}
	if p.cur != nil {
		p.cur.move(-shift) // not emitted yet: the next window's from now on
		c.cur = p.cur
	}
	if p.prev != nil {
		prev := *p.prev // emitted with this window: the next needs its range only
		prev.move(-shift)
		c.prev = &prev
	}
	var chain []int
	for k := secs.of[n-1]; k >= 0; k = secs.list[k].parent {
		chain = append(chain, k)
	}
	for _, k := range slices.Backward(chain) {
		sec := secs.list[k]
		c.open = append(c.open, openSection{level: sec.level, path: sec.path, holder: holders[k]})
	}
	if len(c.open) > 0 {
		for _, t := range c.open[len(c.open)-1].path {
			if n, ok := l.textTok[oneLine(t)]; ok {
				c.textTok[oneLine(t)] = n
			}
		}
	}
	return c
}

// resume sets p to the state c carries and l, the next window's layout, to what c knows of
// its first blocks.
func (c *carry) resume(p *packer, l *layout) {
	p.cur, p.prev, p.curTok, p.curCtx = c.cur, c.prev, c.curTok, c.curCtx
	p.parent, p.path, p.ctx, p.headCtx = c.parent, c.path, c.ctx, c.headCtx
	copy(l.reserve, c.reserve)
}

// move shifts the draft's offsets by n.
func (d *draft) move(n int) {
	d.start += n
	d.body += n
	d.overlapEnd += n
	d.end += n
}

// countWindows returns how many windows HeadingAware cuts doc into at size bytes.
func countWindows(doc *sdk.Document, size int, keepTables bool) int {
	c := windowCutter{size: size}
	n := 1
	for _, b := range doc.Blocks {
		if !isLarge(b, size, keepTables) {
			if _, cut := c.next(b, false); cut != noCut {
				n++
			}
			continue
		}
		for k, s := range splitLarge(b, size) {
			if _, cut := c.next(s, k > 0); cut != noCut {
				n++
			}
		}
	}
	return n
}

// windows hands a document's blocks to HeadingAware a window at a time and yields the chunks:
// add takes the blocks in order, end chunks the last window.
//
// It reads one window ahead. When a window ends, its blocks are measured (its Boundaries
// call) on a goroutine of their own while the window before is packed, verified and yielded,
// and then while the next window's blocks are read: a counter in another process measures one
// window while the host works on its neighbours, where a document of several windows would
// otherwise pay host work and counting one after the other. A window that ends carried hands
// the next the blocks it holds again with their token ends (held), which are not measured
// twice. The chunks, and any error, come in the order chunking one window after the other
// gives them.
type windows struct {
	h                  *HeadingAware
	ctx                context.Context
	req                sdk.Request
	doc                *sdk.Document // the document's identity; its blocks come through add
	maxTokens, overlap int
	yield              func(sdk.Chunk, error) bool
	cut                windowCutter
	measure            measurer
	run                blockRun // the blocks read since the last window ended
	start              int      // the canonical offset of run's first block
	pending            *pendingWindow
	// held is what the window packed last hands the pending one: the blocks it holds again
	// (see carry) with their token ends; in is its carry, nil when it ended clean.
	held  heldBlocks
	in    *carry
	first int // the position of the next chunk
	// source returns the source map of the blocks read and not dropped, with the whole
	// document's offsets; drop, when set, is told the canonical offset the next window to
	// pack starts at.
	source func() *sdk.SourceMap
	drop   func(next int)
}

// blockRun is a run of a window's blocks with, per block, whether it continues the one before
// without a separator (joined; nil for none) and the header of the table or code block it is
// a part of (heads; nil for none).
type blockRun struct {
	blocks []sdk.Block
	joined []bool
	heads  []*partHead
}

// pendingWindow is a window that has ended and is not yet packed: its blocks after those it
// holds again, and their measurement, under way once it has begun.
type pendingWindow struct {
	run      blockRun
	start    int  // the canonical offset of run's first block
	end      int  // the canonical offset of the block the window ends before, or of the document's end
	carried  bool // the window ends carried
	measured *measuring
}

// measuring is a measurement under way on a goroutine of its own. Its call takes no place of a
// scheduler's (sdk.StartWait): the document goes on working meanwhile, and takes a place to
// wait only when it has to wait for the answer (measurer.result).
type measuring struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once m and err are set
	m      *measurement
	err    error
}

// measurer measures the runs of blocks of a document's windows for a chunker, every block
// of them (the chunkers that read ahead measure all blocks), now or ahead.
type measurer struct {
	ctx     context.Context
	name    string
	counter sdk.TokenCounter
	doc     *sdk.Document // the document's ID and title
}

// all is the measure func of the chunkers that read ahead: every block is measured.
func all(sdk.Block) bool { return true }

// ahead starts measuring the blocks of a window that has ended on a goroutine of their own,
// unless it is the document's only window (last, and none before it is pending): that one is
// measured when it is chunked (result), so that its call is made as any document's, and ahead
// returns nil.
func (r measurer) ahead(blocks []sdk.Block, last, pending bool) *measuring {
	if last && !pending {
		return nil
	}
	ctx, cancel := context.WithCancel(r.ctx)
	ctx = sdk.WithParkHook(sdk.WithWaitHook(ctx, nil), nil)
	m := &measuring{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(m.done)
		m.m, m.err = measureBlocks(ctx, r.name, r.counter, r.doc.ID, r.doc.Title, blocks, all)
	}()
	return m
}

// result returns the measurement of blocks: made now when m is nil, else once m's call
// answers.
func (r measurer) result(m *measuring, blocks []sdk.Block) (*measurement, error) {
	if m == nil {
		return measureBlocks(r.ctx, r.name, r.counter, r.doc.ID, r.doc.Title, blocks, all)
	}
	select {
	case <-m.done:
	default:
		resume := sdk.StartWait(r.ctx)
		<-m.done
		resume()
	}
	m.cancel()
	return m.m, m.err
}

// abandon cancels m's call, when m is not nil, and waits for it to return.
func (m *measuring) abandon() {
	if m != nil {
		m.cancel()
		<-m.done
	}
}

// heldBlocks is a run of blocks a window holds again, with the token ends of each relative to
// its start (nil for a block not measured).
type heldBlocks struct {
	run  blockRun
	ends [][]int
}

func (h *HeadingAware) windows(ctx context.Context, req sdk.Request, doc *sdk.Document, maxTokens, overlap int, yield func(sdk.Chunk, error) bool) *windows {
	return &windows{h: h, ctx: ctx, req: req, doc: doc, maxTokens: maxTokens, overlap: overlap, yield: yield, cut: windowCutter{size: windowSize(h.WindowBytes)},
		measure: measurer{ctx: ctx, name: headingAwareName, counter: h.Counter, doc: doc}}
}

// add takes the next block of the document, chunking the window before it when one ends
// there. It reports false when the chunks are no longer wanted or chunking failed (and the
// error was yielded).
func (w *windows) add(b sdk.Block) bool {
	if !isLarge(b, w.cut.size, w.h.KeepTablesWhole) {
		return w.push(b, false, nil)
	}
	var head *partHead
	if !isProse(b) {
		head = &partHead{}
	}
	for k, s := range splitLarge(b, w.cut.size) {
		if !w.push(s, k > 0, head) {
			return false
		}
	}
	return true
}

// push takes the next block of the window, which continues the one before without a separator
// when joined, and is a part of the table or code block whose header head holds when head is
// not nil.
func (w *windows) push(b sdk.Block, joined bool, head *partHead) bool {
	if off, cut := w.cut.next(b, joined); cut != noCut && !w.endWindow(off, cut) {
		return false
	}
	w.run.push(b, joined, head)
	return true
}

// push appends b to the run (see windows.push).
func (r *blockRun) push(b sdk.Block, joined bool, head *partHead) {
	if joined && r.joined == nil {
		r.joined = make([]bool, len(r.blocks), len(r.blocks)+1)
	}
	if head != nil && r.heads == nil {
		r.heads = make([]*partHead, len(r.blocks), len(r.blocks)+1)
	}
	r.blocks = append(r.blocks, b)
	if r.joined != nil {
		r.joined = append(r.joined, joined)
	}
	if r.heads != nil {
		r.heads = append(r.heads, head)
	}
}

// tail returns a copy of the run's last n blocks.
func (r blockRun) tail(n int) blockRun {
	t := blockRun{blocks: slices.Clone(r.blocks[len(r.blocks)-n:])}
	if r.joined != nil {
		t.joined = slices.Clone(r.joined[len(r.joined)-n:])
	}
	if r.heads != nil {
		t.heads = slices.Clone(r.heads[len(r.heads)-n:])
	}
	return t
}

// then returns r followed by s; s itself when r is empty.
func (r blockRun) then(s blockRun) blockRun {
	if len(r.blocks) == 0 {
		return s
	}
	out := blockRun{blocks: slices.Concat(r.blocks, s.blocks)}
	if r.joined != nil || s.joined != nil {
		out.joined = slices.Concat(orZero(r.joined, len(r.blocks)), orZero(s.joined, len(s.blocks)))
	}
	if r.heads != nil || s.heads != nil {
		out.heads = slices.Concat(orZero(r.heads, len(r.blocks)), orZero(s.heads, len(s.blocks)))
	}
	return out
}

// orZero returns s, or n zero values when s is nil.
func orZero[T any](s []T, n int) []T {
	if s == nil {
		return make([]T, n)
	}
	return s
}

// end chunks the last window.
func (w *windows) end() {
	if w.endWindow(w.cut.off, noCut) {
		w.packPending()
	}
}

// endWindow ends the window being read before the block at canonical offset next (at the
// document's end when cut is noCut): it starts measuring the window's blocks, unless it is a
// document's only window (measured as it is packed, so that its call is made as any other
// document's), and packs the window before.
func (w *windows) endWindow(next int, cut cutKind) bool {
	p := &pendingWindow{run: w.run, start: w.start, end: next, carried: cut == carriedCut}
	w.run, w.start = blockRun{}, next
	p.measured = w.measure.ahead(p.run.blocks, cut == noCut, w.pending != nil)
	ok := w.packPending()
	w.pending = p
	return ok
}

// packPending packs, verifies and yields the pending window, if there is one. It reports false
// when the chunks are no longer wanted or chunking failed (and the error was yielded).
func (w *windows) packPending() bool {
	p := w.pending
	if p == nil {
		return true
	}
	w.pending = nil
	m, err := w.measure.result(p.measured, p.run.blocks)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	win := w.held.run.then(p.run)
	base := p.start
	if w.in != nil {
		base = w.in.base
	}
	doc := *w.doc
	doc.Blocks, doc.Source = win.blocks, nil
	l := newWindowLayout(&doc, win.joined, w.held.ends, m)
	at := part{base: base, first: w.first, source: w.source()}
	carried := -1
	if p.carried {
		carried = p.end
	}
	chunks, out, err := w.h.packLayout(w.ctx, w.req, l, win.heads, at, w.in, carried, w.maxTokens, w.overlap)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	w.first += len(chunks)
	for _, c := range chunks {
		if !w.yield(c, nil) {
			return false
		}
	}
	w.in, w.held = out, heldBlocks{}
	next := p.end
	if out != nil {
		next = out.base
		w.held = heldBlocks{run: win.tail(out.blocks), ends: l.heldEnds(len(win.blocks) - out.blocks)}
	}
	if w.drop != nil {
		w.drop(next)
	}
	return true
}

// failedAfter returns the yield of the parts a ChunkParts reads (readParts), which yields
// nothing but an error, for windows that read ahead: pending chunks the window that ended
// before the error, so that its chunks come first, as they would chunking one window after the
// other, then yield gets the error.
func failedAfter(pending func() bool, yield func(sdk.Chunk, error) bool) func(sdk.Chunk, error) bool {
	return func(_ sdk.Chunk, err error) bool {
		if pending() {
			yield(sdk.Chunk{}, err)
		}
		return false
	}
}

// stop abandons a measurement under way once the chunks are no longer wanted: its call is
// cancelled and waited for, so that nothing of the document still runs when its chunking
// returns.
func (w *windows) stop() {
	if p := w.pending; p != nil {
		p.measured.abandon()
	}
	w.pending = nil
}

// largeBlocks is how many parts' worth of text a block holds before splitLarge cuts it, and
// minPartBytes the least text of a part.
const (
	largeBlocks  = 4
	minPartBytes = 64 << 10
)

// splitLarge returns b, or when b is a block of more than largeBlocks parts of
// max(size, minPartBytes) bytes (see isLarge), b cut into parts of about that size, which the
// windows hold as blocks of their own, each continuing the one before without a separator: so
// that one huge paragraph (a text file without a blank line) or table is measured and packed
// a window at a time too. A part of prose ends at a line end before a character that is not
// white space, else at white space before one, else (text without either for a part's length)
// before any character; it never splits a character. A part of a table or code block ends at
// a line end after its size (and after the header, which stays in the first part; see
// cutLineParts), so that its rows are those of the whole block; such a block without a line
// end there is not cut further. size <= 0 (one window) cuts nothing.
//
// The chunks of a prose block so cut are those of the whole block at once but for where its
// parts meet: a unit of packing ends there (as at a line or sentence end, or for text without
// white space, inside a word), and the token estimates of the two sides are made apart; every
// chunk still fits the budget, as the final Count checks, and no text is lost. A table or
// code block is cut into units at line ends anyway, and every later part has the header of
// the first (see partHead) and keeps its first line's indentation, so its chunks are those of
// the whole block but where a token estimate differs across the line end where two parts
// meet.
func splitLarge(b sdk.Block, size int) []sdk.Block {
	if !isLarge(b, size, false) {
		return []sdk.Block{b}
	}
	size = max(size, minPartBytes)
	var texts []string
	if isProse(b) {
		texts = cutParts(b.Text, size)
	} else {
		lead := len(b.Text) - len(strings.TrimLeftFunc(b.Text, unicode.IsSpace)) // as trim skips it
		hdr, _ := headerLen(b.Kind, b.Text[lead:])
		texts = cutLineParts(b.Text, size, lead+hdr)
	}
	out := make([]sdk.Block, 0, len(texts))
	for _, t := range texts {
		p := b
		p.Text = t
		out = append(out, p)
	}
	return out
}

// isLarge reports whether splitLarge cuts b at size bytes a window: a block of more than
// largeBlocks parts that is not a heading, nor a table kept whole.
func isLarge(b sdk.Block, size int, keepTables bool) bool {
	return size > 0 && len(b.Text) > largeBlocks*max(size, minPartBytes) &&
		b.Kind != sdk.KindHeading && !(keepTables && b.Kind == sdk.KindTable)
}

// cutParts cuts text into parts of at least size bytes and less than twice that, but for the
// last, which is shorter than three times it; each ends where partEnd says.
func cutParts(text string, size int) []string {
	var out []string
	for len(text) > 2*size {
		c := partEnd(text, size)
		out = append(out, text[:c])
		text = text[c:]
	}
	return append(out, text)
}

// cutLineParts cuts text, a table or code block whose header takes its first hdr bytes, into
// parts while more than twice size is left: each ends at a line end after size bytes (the
// first, after the header's line end too, so that it holds a line more), the first one there
// before another size bytes that does not start a run of line ends (so that no run that a
// tokenizer reads as one token is cut), else the first one; a part with no line end there
// goes to the end.
func cutLineParts(text string, size, hdr int) []string {
	var out []string
	from := max(size, hdr+1)
	for len(text) > 2*size {
		c := lineCut(text, from, from+size)
		if c < 0 {
			break
		}
		out = append(out, text[:c])
		text = text[c:]
		from = size
	}
	return append(out, text)
}

// lineCut returns where cutLineParts ends a part of text at or after from: the offset after
// the first line end at or after from-1 that a character other than a line end follows, when
// that offset is before until, else after the first line end there that something follows;
// or -1.
func lineCut(text string, from, until int) int {
	first := -1
	for off := from - 1; off < len(text)-1; {
		nl := strings.IndexByte(text[off:len(text)-1], '\n')
		if nl < 0 {
			break
		}
		c := off + nl + 1
		if first < 0 {
			first = c
		}
		if c >= until {
			break
		}
		if text[c] != '\n' && text[c] != '\r' {
			return c
		}
		off = c
	}
	return first
}

// partEnd returns where splitLarge ends the part of text that starts it, at or after size and
// before 2*size: at the first line start there, else after the first sentence end (final
// punctuation and white space, or a CJK full stop, exclamation or question mark), else at the
// first word after white space, else at a character boundary.
func partEnd(text string, size int) int {
	region := text[size : 2*size]
	const (
		line = iota
		sentence
		word
		tiers
	)
	var first [tiers]int
	for i := range first {
		first[i] = -1
	}
	note := func(tier, at int) {
		if first[tier] < 0 {
			first[tier] = size + at
		}
	}
	for i := 1; i < len(region); i++ {
		c := region[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		switch region[i-1] {
		case '\n':
			return size + i
		case ' ', '\t', '\r':
			note(word, i)
			if endsSentence(strings.TrimRight(region[:i], " \t\r")) {
				note(sentence, i)
			}
		}
		if r, n := utf8.DecodeLastRuneInString(region[:i]); n > 0 && strings.ContainsRune("。！？", r) && utf8.RuneStart(c) {
			note(sentence, i)
		}
	}
	for _, at := range first {
		if at >= 0 {
			return at
		}
	}
	for c := size; c < size+utf8.UTFMax; c++ {
		if utf8.RuneStart(text[c]) {
			return c
		}
	}
	return size // not UTF-8, which a document's text always is
}

// collect returns the chunks of seq, or its error.
func collect(seq iter.Seq2[sdk.Chunk, error]) ([]sdk.Chunk, error) {
	out := []sdk.Chunk{}
	for c, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// windowSize is a chunker's WindowBytes as its windows use it: 0 means DefaultWindowBytes,
// and a negative value 0, one window for the whole document.
func windowSize(windowBytes int) int {
	switch {
	case windowBytes == 0:
		return DefaultWindowBytes
	case windowBytes < 0:
		return 0
	}
	return windowBytes
}

// feedBlocks hands blocks to add in order or, when they hold at most size bytes of text (size
// <= 0: whatever they hold), all at once to hold: most documents are one window, whose blocks
// need no copy. It reports false when add does.
func feedBlocks(blocks []sdk.Block, size int, hold func([]sdk.Block), add func(sdk.Block) bool) bool {
	if size <= 0 || textBytes(blocks) <= size {
		hold(blocks)
		return true
	}
	for _, b := range blocks {
		if !add(b) {
			return false
		}
	}
	return true
}

// textBytes returns the bytes of the blocks' texts, their separators left out.
func textBytes(blocks []sdk.Block) int {
	n := 0
	for _, b := range blocks {
		n += len(b.Text)
	}
	return n
}

// readParts is what a ChunkParts does once its windows are made: it points *source and *drop
// at the source segments of the parts as they are read (partSource), hands their blocks to
// add, and reports whether it read every part, having yielded the error when not.
func readParts(docID string, parts iter.Seq2[sdk.DocumentPart, error], source *func() *sdk.SourceMap, drop *func(next int), add func(sdk.Block) bool, yield func(sdk.Chunk, error) bool) bool {
	src := &partSource{}
	*source, *drop = src.source, src.drop
	return src.read(docID, parts, add, yield)
}

// partSource reads a document's parts for ChunkParts and keeps the source segments of the
// blocks of the window being chunked and of those after it.
type partSource struct {
	segs   []sdk.SourceSegment
	mapped bool // a part had a source map
}

// read validates each part of the document docID and hands its blocks to add in order; it
// reports false, the error yielded, when a part fails or does not validate, or when add does.
func (p *partSource) read(docID string, parts iter.Seq2[sdk.DocumentPart, error], add func(sdk.Block) bool, yield func(sdk.Chunk, error) bool) bool {
	n := 0 // blocks read
	for dp, err := range parts {
		if err != nil {
			yield(sdk.Chunk{}, err)
			return false
		}
		if err := (&sdk.Document{ID: docID, Blocks: dp.Blocks}).Validate(); err != nil {
			var ie *sdk.InputError
			if errors.As(err, &ie) {
				ie.Block += n
			}
			yield(sdk.Chunk{}, err)
			return false
		}
		if dp.Source != nil {
			p.mapped = true
			if len(p.segs) == 0 { // the part's own, clipped: a later append copies them
				p.segs = slices.Clip(dp.Source.Segments)
			} else {
				p.segs = append(p.segs, dp.Source.Segments...)
			}
		}
		n += len(dp.Blocks)
		for _, b := range dp.Blocks {
			if !add(b) {
				return false
			}
		}
	}
	return true
}

// source returns the source map of the segments kept, nil when no part had one.
func (p *partSource) source() *sdk.SourceMap {
	if !p.mapped {
		return nil
	}
	return &sdk.SourceMap{Segments: p.segs}
}

// drop lets the segments before canonical offset next go: the next window starts there.
func (p *partSource) drop(next int) {
	k := sort.Search(len(p.segs), func(k int) bool { return p.segs[k].Start >= next })
	if k < len(p.segs)-k { // copied once half is gone: a part's segments are copied O(1) times
		p.segs = p.segs[k:]
	} else {
		p.segs = slices.Clone(p.segs[k:])
	}
}
