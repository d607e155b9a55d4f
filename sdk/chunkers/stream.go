package chunkers

import (
	"slices"

	"iter"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultWindowBytes is the canonical text a window of a document holds at least (unless the
// document ends first) before HeadingAware ends it at the next block where it may: a document
// of up to this size is one window, measured with one Boundaries call and verified with one
// Count call, and a larger one costs those two calls per window.
const DefaultWindowBytes = 256 << 10

// A window is a run of a document's blocks that a chunker measures, packs and verifies on its
// own, so that it holds the token ends, sentence ends, units and drafts of one window at a
// time instead of the whole document's, and yields the window's chunks before reading the
// next. A window ends in one of two ways, both of which leave the chunks exactly those of the
// whole document at once:
//
//   - clean, before a heading that starts a section of its own at the outermost level, where
//     no chunk crosses and nothing refers back (see windowCutter);
//   - carried, between two body blocks anywhere else (a document without headings, or inside
//     a section): the packer's state at that block — the chunk being packed, the chunk its
//     overlap would come from, the open sections with the chunks that hold their headings —
//     goes on into the next window (see carry), which holds again the few blocks those two
//     chunks reach back into, so that the next window packs on as the whole document would.

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

// next takes the next block, b, and reports its canonical offset and whether and how the
// window ends before it.
func (c *windowCutter) next(b sdk.Block) (off int, cut cutKind) {
	if c.blocks > 0 {
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

// carryOut ends the window of l carried: it returns the packer's state and what the next
// window needs, the chunk being packed left open. secs and holders are the window's.
func (p *packer) carryOut(l *layout, at part, secs sections, holders []*draft) *carry {
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
	shift := 0
	if lb < n {
		shift = l.canon.Starts[lb]
	} else {
		shift = len(l.canon.Text) + len(sdk.Separator)
	}
	c := &carry{blocks: n - lb, base: at.base + shift, reserve: slices.Clone(l.reserve[lb:]),
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

// move shifts the draft's offsets by d.
func (d *draft) move(by int) {
	d.start += by
	d.body += by
	d.overlapEnd += by
	d.end += by
}

// countWindows returns how many windows HeadingAware cuts doc into at size bytes.
func countWindows(doc *sdk.Document, size int) int {
	c := windowCutter{size: size}
	n := 1
	for _, b := range doc.Blocks {
		if _, cut := c.next(b); cut != noCut {
			n++
		}
	}
	return n
}

// windowDoc returns the document of the blocks [lo, hi) of doc: its identity and those blocks.
func windowDoc(doc *sdk.Document, lo, hi int) *sdk.Document {
	if lo == 0 && hi == len(doc.Blocks) {
		return doc
	}
	sub := *doc
	sub.Blocks = doc.Blocks[lo:hi:hi]
	sub.Source = nil
	return &sub
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
