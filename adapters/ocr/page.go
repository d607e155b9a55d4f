package ocr

// The Tesseract readers parse into this model, which keeps Tesseract's grouping: a page holds
// blocks, a block paragraphs, a paragraph lines, a line words. analyze turns it into blocks.

// box is a bounding box in pixels: x to the right, y down, x0 ≤ x1 and y0 ≤ y1.
type box struct{ x0, y0, x1, y1 int }

// union returns the smallest box holding b and c; a zero box is empty and adds nothing.
func (b box) union(c box) box {
	if b == (box{}) {
		return c
	}
	if c == (box{}) {
		return b
	}
	return box{min(b.x0, c.x0), min(b.y0, c.y0), max(b.x1, c.x1), max(b.y1, c.y1)}
}

func (b box) width() int  { return b.x1 - b.x0 }
func (b box) height() int { return b.y1 - b.y0 }

func (b box) floats() []float64 {
	return []float64{float64(b.x0), float64(b.y0), float64(b.x1), float64(b.y1)}
}

// word is one recognised word. conf is Tesseract's 0–100, or -1 when the engine gave none.
type word struct {
	text string
	box  box
	conf float64
}

// line is one text line. size is the font size the engine reported (hOCR x_size), 0 when it
// reported none.
type line struct {
	box   box
	size  float64
	words []word
}

type para struct {
	lines []*line
}

type block struct {
	paras []*para
}

// page is one page image. number is 1-based; width and height are 0 when unknown.
type page struct {
	number        int
	width, height int
	blocks        []*block
}
