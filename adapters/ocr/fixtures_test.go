package ocr

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/sdk"
)

// truthPage is the ground truth of a fixture page, testdata/NAME.truth.json: the text written
// on it, which tools/ocr-fixtures renders into NAME.png before Tesseract reads it.
type truthPage struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Lang        string       `json:"lang"`
	Width       int          `json:"width"`
	Scan        *struct{}    `json:"scan,omitempty"`
	Blocks      []truthBlock `json:"blocks"`
}

// truthBlock is a heading or paragraph of lines, or a table of rows (the first the header).
type truthBlock struct {
	Kind    string     `json:"kind"`
	Level   int        `json:"level,omitempty"`
	Size    float64    `json:"size"`
	Lines   []string   `json:"lines,omitempty"`
	Columns []int      `json:"columns,omitempty"`
	Rows    [][]string `json:"rows,omitempty"`
}

// fixtureExpectations says how close the adapter's reading of each fixture must come to its
// ground truth.
//
// Word recall counts the ground truth's words (lower-cased, edge punctuation trimmed) that
// appear in the document, as a multiset. Tesseract 5.3 reads the clean pages, DejaVu Sans at
// 300 dpi, without a single error, so anything below 0.98 on them means the adapter lost
// text; the bar leaves room for one misread word per page with another Tesseract build. The
// noisy, rotated scan is where OCR errors belong: Tesseract 5.3 misreads a few words there (see
// testdata/noisy.tsv), and 0.85 still fails if the adapter loses a line (about a quarter of the
// page's words).
var fixtureExpectations = map[string]struct {
	minRecall float64
}{
	"report": {0.98},
	"table":  {0.98},
	"german": {0.98},
	"noisy":  {0.85},
	"wide":   {0.98},
}

func loadTruth(t *testing.T, name string) *truthPage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tp truthPage
	if err := json.Unmarshal(data, &tp); err != nil {
		t.Fatalf("%s.truth.json: %v", name, err)
	}
	return &tp
}

func truthNames(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.truth.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no ground truth in testdata: %v", err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".truth.json"))
	}
	slices.Sort(names)
	return names
}

// normWords splits text into lower-case words without edge punctuation, leaving out table
// markup: pipes and delimiter rows.
func normWords(text string) []string {
	var out []string
	for _, f := range strings.Fields(text) {
		w := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return unicode.IsPunct(r) && r != '%' }))
		if w == "" || strings.Trim(w, "|-") == "" {
			continue
		}
		out = append(out, w)
	}
	return out
}

func (b truthBlock) text() string {
	if b.Kind == "table" {
		var rows []string
		for _, r := range b.Rows {
			rows = append(rows, strings.Join(r, " "))
		}
		return strings.Join(rows, "\n")
	}
	return strings.Join(b.Lines, "\n")
}

// recall returns the share of want's words found in got, counting repeats.
func recall(want, got []string) float64 {
	if len(want) == 0 {
		return 1
	}
	have := map[string]int{}
	for _, w := range got {
		have[w]++
	}
	found := 0
	for _, w := range want {
		if have[w] > 0 {
			have[w]--
			found++
		}
	}
	return float64(found) / float64(len(want))
}

// tableCells parses a pipe table the adapter rendered back into rows of cells.
func tableCells(text string) [][]string {
	var rows [][]string
	for i, line := range strings.Split(text, "\n") {
		if i == 1 {
			continue // the delimiter row
		}
		line = strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |")
		var cells []string
		for _, c := range strings.Split(line, " | ") {
			cells = append(cells, strings.ReplaceAll(strings.TrimSpace(c), `\|`, "|"))
		}
		rows = append(rows, cells)
	}
	return rows
}

// checkAgainstTruth compares the blocks of one page of a document with the page's ground truth:
// word recall, every heading found at the level levelOf gives it and no other heading, the
// table's cells, and the truth's blocks in order.
func checkAgainstTruth(t *testing.T, tp *truthPage, blocks []sdk.Block, levelOf func(truthBlock) int) {
	t.Helper()
	var want, got []string
	for _, b := range tp.Blocks {
		want = append(want, normWords(b.text())...)
	}
	for _, b := range blocks {
		got = append(got, normWords(b.Text)...)
	}
	exp, ok := fixtureExpectations[tp.Name]
	if !ok {
		t.Fatalf("no expectations for fixture %q", tp.Name)
	}
	if r := recall(want, got); r < exp.minRecall {
		t.Errorf("word recall %.3f, want at least %.2f; the document reads:\n%s", r, exp.minRecall, dump(blocks))
	}

	// Headings: each of the truth's, at its level, and no others.
	var wantHeadings, gotHeadings []string
	for _, b := range tp.Blocks {
		if b.Kind == "heading" {
			wantHeadings = append(wantHeadings, fmtHeading(levelOf(b), b.text()))
		}
	}
	for _, b := range blocks {
		if b.Kind == sdk.KindHeading {
			gotHeadings = append(gotHeadings, fmtHeading(b.Level, b.Text))
		}
	}
	if diff := cmp.Diff(wantHeadings, gotHeadings); diff != "" {
		t.Errorf("headings (-want +got):\n%s\nthe document reads:\n%s", diff, dump(blocks))
	}

	// Tables: the truth's rows and cells.
	var wantTables, gotTables [][][]string
	for _, b := range tp.Blocks {
		if b.Kind == "table" {
			wantTables = append(wantTables, b.Rows)
		}
	}
	for _, b := range blocks {
		if b.Kind == sdk.KindTable {
			gotTables = append(gotTables, tableCells(b.Text))
		}
	}
	if diff := cmp.Diff(wantTables, gotTables); diff != "" {
		t.Errorf("table cells (-want +got):\n%s", diff)
	}

	// Reading order: the block holding each truth block's first words comes after the one
	// holding the previous truth block's.
	prev := -1
	for _, tb := range tp.Blocks {
		first := normWords(tb.text())
		first = first[:min(3, len(first))]
		at := -1
		for i, b := range blocks {
			if containsRun(normWords(b.Text), first) {
				at = i
				break
			}
		}
		if at < 0 {
			if exp.minRecall >= 0.98 {
				t.Errorf("the words %q that open a %s are in no block", first, tb.Kind)
			}
			continue
		}
		if at < prev {
			t.Errorf("the %s opening %q is block %d, before block %d of the text before it", tb.Kind, first, at, prev)
		}
		prev = at
	}
}

// truthLevel is the heading level the ground truth gives.
func truthLevel(b truthBlock) int { return b.Level }

func fmtHeading(level int, text string) string {
	return strings.Repeat("#", level) + " " + strings.Join(normWords(text), " ")
}

// containsRun reports whether run occurs in words as consecutive words.
func containsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func dump(blocks []sdk.Block) string {
	var sb strings.Builder
	for _, b := range blocks {
		sb.WriteString(string(b.Kind))
		if b.Level > 0 {
			sb.WriteString(" " + strings.Repeat("#", b.Level))
		}
		sb.WriteString(": " + strings.ReplaceAll(b.Text, "\n", "⏎") + "\n")
	}
	return sb.String()
}

// readFixture reads testdata/NAME.tsv or NAME.hocr.
func readFixture(t *testing.T, path string) *sdk.Document {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	read := ReadTSV
	if strings.HasSuffix(path, ".hocr") {
		read = ReadHOCR
	}
	doc, err := read(f, Options{ID: filepath.Base(path)})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestFixturesMatchGroundTruth(t *testing.T) {
	t.Parallel()
	for _, name := range truthNames(t) {
		tp := loadTruth(t, name)
		for _, ext := range []string{".tsv", ".hocr"} {
			t.Run(tp.Description+" read from "+ext+" matches its ground truth", func(t *testing.T) {
				t.Parallel()
				doc := readFixture(t, filepath.Join("testdata", name+ext))
				for _, b := range doc.Blocks {
					if b.Page != 1 {
						t.Errorf("block %q is on page %d, want 1", b.Text, b.Page)
					}
				}
				checkAgainstTruth(t, tp, doc.Blocks, truthLevel)
			})
		}
	}
}

func TestMultiPageFixtures(t *testing.T) {
	t.Parallel()
	pages := []*truthPage{loadTruth(t, "report"), loadTruth(t, "table")}
	for _, ext := range []string{".tsv", ".hocr"} {
		t.Run("the two pages of multipage"+ext+" keep their numbers and match their ground truth", func(t *testing.T) {
			t.Parallel()
			doc := readFixture(t, filepath.Join("testdata", "multipage"+ext))
			byPage := map[int][]sdk.Block{}
			last := 0
			for _, b := range doc.Blocks {
				if b.Page < last {
					t.Errorf("block %q on page %d comes after page %d", b.Text, b.Page, last)
				}
				last = b.Page
				byPage[b.Page] = append(byPage[b.Page], b)
			}
			if len(byPage) != 2 {
				t.Fatalf("blocks on %d pages, want 2: %v", len(byPage), byPage)
			}
			// Levels are ranked over the whole document: the table page's 15 pt heading is
			// then level 2, like the report's 15 pt headings under its 22 pt title.
			levels := []func(truthBlock) int{truthLevel, func(truthBlock) int { return 2 }}
			for i, tp := range pages {
				t.Run("page "+tp.Name, func(t *testing.T) { checkAgainstTruth(t, tp, byPage[i+1], levels[i]) })
			}
			var numbers []any
			for _, p := range doc.Metadata[MetaPages].(sdk.PageEntries).Entries {
				numbers = append(numbers, p["number"])
			}
			if diff := cmp.Diff([]any{1, 2}, numbers); diff != "" {
				t.Errorf("page numbers in Metadata[%q] (-want +got):\n%s", MetaPages, diff)
			}
		})
	}
}

func TestMinConfidenceOnTheNoisyScan(t *testing.T) {
	t.Parallel()
	// Tesseract reads a speck at the end of the noisy scan's second line as a "-" with
	// confidence 0; every other word has 80 or more.
	for _, ext := range []string{".tsv", ".hocr"} {
		t.Run("a speck read as a word is dropped and recorded in "+ext, func(t *testing.T) {
			t.Parallel()
			f, err := os.Open(filepath.Join("testdata", "noisy"+ext))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			read := map[string]func(io.Reader, Options) (*sdk.Document, error){".tsv": ReadTSV, ".hocr": ReadHOCR}[ext]
			doc, err := read(f, Options{MinConfidence: 0.5})
			if err != nil {
				t.Fatal(err)
			}
			var dropped []string
			for _, b := range doc.Blocks {
				if s, ok := b.Attrs[AttrDroppedText].(string); ok {
					dropped = append(dropped, s)
					if b.Attrs[AttrDroppedWords] != 1 {
						t.Errorf("Attrs[%q] = %v, want 1", AttrDroppedWords, b.Attrs[AttrDroppedWords])
					}
				}
				if strings.Contains(b.Text, " -") {
					t.Errorf("block %q still holds the speck", b.Text)
				}
			}
			if diff := cmp.Diff([]string{"-"}, dropped); diff != "" {
				t.Errorf("dropped text (-want +got):\n%s", diff)
			}
			if doc.Metadata[MetaDroppedWords] != 1 {
				t.Errorf("Metadata[%q] = %v, want 1", MetaDroppedWords, doc.Metadata[MetaDroppedWords])
			}
		})
	}
}

func TestTSVAndHOCRAgree(t *testing.T) {
	t.Parallel()
	for _, name := range append(truthNames(t), "multipage") {
		t.Run("the TSV and hOCR of "+name+" give the same blocks and boxes", func(t *testing.T) {
			t.Parallel()
			tsv := readFixture(t, filepath.Join("testdata", name+".tsv"))
			hocr := readFixture(t, filepath.Join("testdata", name+".hocr"))
			for _, doc := range []*sdk.Document{tsv, hocr} {
				for i := range doc.Blocks {
					b := &doc.Blocks[i]
					b.Attrs = map[string]any{AttrBBox: b.Attrs[AttrBBox], AttrConfidence: b.Attrs[AttrConfidence]}
				}
			}
			// hOCR's x_wconf is a whole number, TSV's conf is not: confidences may differ by
			// up to 0.01.
			if diff := cmp.Diff(tsv.Blocks, hocr.Blocks, cmpopts.EquateApprox(0, 0.01)); diff != "" {
				t.Errorf("blocks (-tsv +hocr):\n%s", diff)
			}
		})
	}
}
