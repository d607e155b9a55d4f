package ocr

import (
	"fmt"
	"math"
	"strings"
)

// tsvBuilder writes Tesseract TSV for tests, with word boxes as Tesseract would measure them
// for DejaVu Sans: each word as tall as its letters reach (glyphExtent) and 0.55 em wide per
// letter, words 0.3 em apart.
type tsvBuilder struct{ sb strings.Builder }

func newTSV() *tsvBuilder {
	b := &tsvBuilder{}
	b.sb.WriteString(strings.Join(tsvColumns[:], "\t") + "\n")
	return b
}

func (b *tsvBuilder) row(level, page, block, par, line, wordNo, left, top, width, height int, conf float64, text string) *tsvBuilder {
	fmt.Fprintf(&b.sb, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", level, page, block, par, line, wordNo, left, top, width, height,
		strconvConf(conf), text)
	return b
}

func strconvConf(c float64) string {
	if c == -1 {
		return "-1"
	}
	return fmt.Sprintf("%.6f", c)
}

// page writes a level-1 row.
func (b *tsvBuilder) page(n, width, height int) *tsvBuilder {
	return b.row(1, n, 0, 0, 0, 0, 0, 0, width, height, -1, "")
}

// line writes the words of text as one line whose baseline is at y, starting at x, in a font
// of size pixels per em, every word with confidence conf.
func (b *tsvBuilder) line(page, block, par, lineNo, x, y, size int, conf float64, text string) *tsvBuilder {
	return b.cells(page, block, par, lineNo, y, size, conf, []int{x}, []string{text})
}

// cells writes one line made of cells, cell k starting at xs[k].
func (b *tsvBuilder) cells(page, block, par, lineNo, y, size int, conf float64, xs []int, cells []string) *tsvBuilder {
	em := float64(size)
	wordNo := 1
	for k, cell := range cells {
		x := float64(xs[k])
		for _, w := range strings.Fields(cell) {
			top, bottom := 0.0, 0.0
			for _, r := range w {
				t, bt := glyphExtent(r)
				top, bottom = max(top, t), max(bottom, bt)
			}
			if top == 0 {
				top = 0.5
			}
			width := int(math.Round(0.55 * em * float64(len([]rune(w)))))
			b.row(5, page, block, par, lineNo, wordNo, int(x), y-int(math.Round(top*em)), width, int(math.Round((top+bottom)*em)), conf, w)
			x += float64(width) + 0.3*em
			wordNo++
		}
	}
	return b
}

func (b *tsvBuilder) String() string { return b.sb.String() }
