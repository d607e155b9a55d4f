package chunkers

import (
	"iter"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultWindowBytes is the canonical text a window of a document holds at least (unless the
// document ends first) before HeadingAware ends it at the next heading where that changes
// nothing: a document of up to this size is one window, measured with one Boundaries call and
// verified with one Count call, and a larger one costs those two calls per window.
const DefaultWindowBytes = 256 << 10

// A window is a run of a document's blocks that a chunker measures, packs and verifies on its
// own, so that it holds the token ends, sentence ends, units and drafts of one window at a
// time instead of the whole document's, and yields the window's chunks before reading the
// next. A window ends only where no chunk of the whole document would cross it or refer back
// across it — see headingWindows — so the chunks are exactly those of the whole document at
// once.

// window is the blocks [lo, hi) of a document, whose canonical text starts at base in the
// document's.
type window struct {
	lo, hi, base int
}

// headingWindows returns the windows HeadingAware cuts doc into (see windowCutter), each of
// at least size bytes of canonical text but the last; size <= 0 means one window.
func headingWindows(doc *sdk.Document, size int) iter.Seq[window] {
	return func(yield func(window) bool) {
		c := windowCutter{size: size}
		w := window{}
		for i, b := range doc.Blocks {
			if off, cut := c.next(b); cut {
				w.hi = i
				if !yield(w) {
					return
				}
				w = window{lo: i, base: off}
			}
		}
		w.hi = len(doc.Blocks)
		yield(w)
	}
}

// windowCutter says, block by block, where HeadingAware's windows end. A window holds at
// least size bytes of canonical text, and ends only before a heading that starts a section of
// its own at the outermost level (every section open before it is of its level or deeper, so
// no heading path, parent link or overlap reaches back past it), when that heading is not a
// block of nothing but comments and anchors and the nearest non-blank block before it is
// prose, a list, a table or code that is not either (so the chunk before is not one of
// headings alone, which the heading would join, and no such block glues across the cut; see
// packer.openFolded and splitter.glueNoise). size <= 0 means no window ends.
type windowCutter struct {
	size    int
	open    []int // the levels of the open sections, outermost first
	off     int   // the canonical offset of the next block
	base    int   // the canonical offset of the window's first block
	blocks  int   // the blocks seen
	prev    sdk.Block
	hasPrev bool // prev is the nearest non-blank block of the window so far
}

// next takes the next block, b, and reports its canonical offset and whether the window ends
// before it.
func (c *windowCutter) next(b sdk.Block) (off int, cut bool) {
	if c.blocks > 0 {
		c.off += len(sdk.Separator)
	}
	c.blocks++
	off = c.off
	c.off += len(b.Text)
	blank := sdk.IsBlank(b.Text)
	if b.Kind == sdk.KindHeading && !blank {
		for len(c.open) > 0 && c.open[len(c.open)-1] >= b.Level {
			c.open = c.open[:len(c.open)-1]
		}
		if c.size > 0 && len(c.open) == 0 && off-c.base >= c.size && c.hasPrev && cutBefore(c.prev, b) {
			cut = true
			c.base = off
		}
		c.open = append(c.open, b.Level)
	}
	if !blank {
		c.prev, c.hasPrev = b, true
	}
	return off, cut
}

// cutBefore reports whether a window may end between before, the nearest non-blank block
// before heading h, and h.
func cutBefore(before, h sdk.Block) bool {
	return before.Kind != sdk.KindHeading && !noise.MatchString(before.Text) && !noise.MatchString(h.Text)
}

// windowDoc returns the document of window w of doc: its identity and the window's blocks.
func windowDoc(doc *sdk.Document, w window) *sdk.Document {
	if w.lo == 0 && w.hi == len(doc.Blocks) {
		return doc
	}
	sub := *doc
	sub.Blocks = doc.Blocks[w.lo:w.hi:w.hi]
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
