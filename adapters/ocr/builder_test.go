package ocr

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
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

// checkPageAtATime checks that paged, reading a page at a time, makes from each of srcs and of
// the testdata files matching pattern the document whole, reading every page first, makes; the
// sources not named "case …" (the readers' table cases, some without text) must give blocks.
func checkPageAtATime(t *testing.T, pattern string, srcs map[string]string, paged, whole func([]byte, Options) (*sdk.Document, error)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s in testdata: %v", pattern, err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = string(src)
	}
	for name, src := range srcs {
		for _, minConf := range []float64{0, 0.9} { // 0.9 drops words of the noisy scan
			opts := Options{ID: name, MinConfidence: minConf}
			got, err := paged([]byte(src), opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := whole([]byte(src), opts)
			if err != nil {
				t.Fatalf("%s: whole: %v", name, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, MinConfidence %v: page at a time differs from whole (-whole +page at a time):\n%s", name, minConf, diff)
			}
			if len(got.Blocks) == 0 && !strings.HasPrefix(name, "case ") && minConf == 0 {
				t.Errorf("%s: no blocks", name)
			}
		}
	}
}
