package ocr

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/chunkkit/chunkkit/sdk"
)

// tsvColumns are the columns of Tesseract's TSV output, in the order it writes them.
var tsvColumns = [...]string{"level", "page_num", "block_num", "par_num", "line_num", "word_num", "left", "top", "width", "height", "conf", "text"}

// Indices into tsvColumns.
const (
	colLevel = iota
	colPage
	colBlock
	colPar
	colLine
	colWord
	colLeft
	colTop
	colWidth
	colHeight
	colConf
	colText
)

// maxCoordinate bounds pixel coordinates and sizes so that sums of them cannot overflow.
const maxCoordinate = 1 << 30

// ReadTSV reads Tesseract's TSV output (`tesseract page.png out tsv`, or a list file of images
// for many pages) from r and returns the Document analyze makes of it.
//
// Rows are grouped by their page, block, paragraph and line numbers as Tesseract grouped them;
// the header row is optional and, when present, may order the columns differently. Only word
// rows (level 5) carry text; rows of levels 1–4 give the page size and structure. A row may
// leave out the trailing empty text column. Blocks are then read as described in the package
// documentation and docs/reference/ocr.md: in reading order, with headings, tables and
// confidences; Block.Page is the row's page_num.
//
// Input that is not UTF-8 or has a malformed row — a missing or extra column, a number that is
// not one, a negative box, a level outside 1–5, a page_num below 1, a confidence outside
// -1..100 — gives an *sdk.InputError matching sdk.ErrInvalidInput whose Problem names the line
// and whose Field names the column. Options that cannot work give an error matching
// sdk.ErrInvalidConfig; an error from r is returned wrapped. Empty input gives a document
// without blocks.
func ReadTSV(r io.Reader, opts Options) (*sdk.Document, error) {
	src, err := readSource(r, "tesseract TSV", opts)
	if err != nil {
		return nil, err
	}
	return parseTSV(src, opts)
}

// ParseTSV is ReadTSV of src, which it reads in place: src must not change while ParseTSV runs,
// and the Document does not keep it.
func ParseTSV(src []byte, opts Options) (*sdk.Document, error) {
	if err := checkSource(src, "tesseract TSV", opts); err != nil {
		return nil, err
	}
	return parseTSV(src, opts)
}

// parseTSV reads src, valid UTF-8, analysing each page as soon as its rows are read (as
// Tesseract writes them, a page's rows before the next page's), so that the words of one page
// at a time are held, not the document's. A page whose rows come again after another page's
// is read as the pages were first grouped, so src is read again holding every page.
func parseTSV(src []byte, opts Options) (*sdk.Document, error) {
	engine := opts.engine("tesseract")
	doc := newDocument(opts)
	a := newAnalyzer(engine, opts)
	t := newTSVReader(opts.ID)
	t.onPage = a.addPage
	err := t.read(src)
	if errors.Is(err, errPageAgain) {
		return parseTSVWhole(src, opts)
	}
	if err != nil {
		return nil, err
	}
	a.finish(doc)
	return doc, nil
}

// parseTSVWhole is parseTSV holding every page until the rows end.
func parseTSVWhole(src []byte, opts Options) (*sdk.Document, error) {
	t := newTSVReader(opts.ID)
	if err := t.read(src); err != nil {
		return nil, err
	}
	doc := newDocument(opts)
	analyze(doc, t.pages, opts.engine("tesseract"), opts)
	return doc, nil
}

// errPageAgain is what a tsvReader that hands pages on as they end returns when a page's rows
// come again after another page's.
var errPageAgain = errors.New("a page's rows come again after another page's")

// tsvReader builds the page model from TSV rows. With onPage set, it hands each page to onPage
// once the rows of another page begin (the last at the end) and keeps nothing of it.
type tsvReader struct {
	docID    string
	order    [len(tsvColumns)]int // order[c] is the field index of column c
	fields   int                  // fields per row
	onPage   func(*page)
	reading  int          // the page whose rows are being read, with onPage; 0 before any
	ended    map[int]bool // the pages handed to onPage
	fieldBuf []string
	tree
}

// pageOf notes that a row of page n is read: with onPage, the page before ends when n is a new
// one, and a page already ended is errPageAgain.
func (t *tsvReader) pageOf(n int) error {
	if t.onPage == nil || n == t.reading {
		return nil
	}
	if t.ended[n] {
		return errPageAgain
	}
	t.endPage()
	t.reading = n
	return nil
}

// endPage hands the page being read to onPage and lets it go.
func (t *tsvReader) endPage() {
	if t.onPage == nil || t.reading == 0 {
		return
	}
	if t.ended == nil {
		t.ended = map[int]bool{}
	}
	t.ended[t.reading] = true
	for _, p := range t.pages {
		t.onPage(p)
	}
	t.tree = newTree()
}

func newTSVReader(docID string) *tsvReader {
	t := &tsvReader{docID: docID, fields: len(tsvColumns), tree: newTree()}
	for c := range t.order {
		t.order[c] = c
	}
	return t
}

func (t *tsvReader) read(src []byte) error {
	first := true
	for off, lineNo := 0, 1; off < len(src); lineNo++ {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		// The row is read in place: only the texts of words are copied (word.text).
		row := strings.TrimSuffix(unsafe.String(unsafe.SliceData(src[off:end]), end-off), "\r")
		start := off
		off = end + 1
		if strings.TrimSpace(row) == "" {
			continue
		}
		if first && isHeader(row) {
			first = false
			if err := t.header(row, lineNo); err != nil {
				return err
			}
			continue
		}
		first = false
		if err := t.row(row, lineNo, start); err != nil {
			return err
		}
	}
	t.endPage()
	return nil
}

// splitTabs appends the tab-separated fields of row to dst, as strings.Split(row, "\t") gives
// them, without a new slice per row.
func splitTabs(dst []string, row string) []string {
	for {
		i := strings.IndexByte(row, '\t')
		if i < 0 {
			return append(dst, row)
		}
		dst = append(dst, row[:i])
		row = row[i+1:]
	}
}

// header reads the column order from the header row.
func (t *tsvReader) header(row string, lineNo int) error {
	names := strings.Split(row, "\t")
	seen := map[string]bool{}
	for i, n := range names {
		n = strings.Clone(strings.TrimSpace(n)) // the row is read in place: an error keeps n
		c := columnIndex(n)
		switch {
		case c < 0:
			return inputError(t.docID, -1, n, "tesseract TSV: line %d: unknown column %q in the header; want %s", lineNo, n, strings.Join(tsvColumns[:], ", "))
		case seen[n]:
			return inputError(t.docID, -1, n, "tesseract TSV: line %d: column %q appears twice in the header", lineNo, n)
		}
		seen[n] = true
		t.order[c] = i
	}
	for _, n := range tsvColumns {
		if !seen[n] {
			return inputError(t.docID, -1, n, "tesseract TSV: line %d: the header lacks column %q", lineNo, n)
		}
	}
	t.fields = len(names)
	return nil
}

// isHeader says whether row, the first line that is not blank, is the header: its first field
// names a column (the header may order the columns as it likes).
func isHeader(row string) bool {
	first, _, _ := strings.Cut(row, "\t")
	return columnIndex(strings.TrimSpace(first)) >= 0
}

func columnIndex(name string) int {
	for c, n := range tsvColumns {
		if n == name {
			return c
		}
	}
	return -1
}

// row reads one data row starting at byte offset start of the source.
func (t *tsvReader) row(row string, lineNo, start int) error {
	fields := splitTabs(t.fieldBuf[:0], row)
	t.fieldBuf = fields
	switch {
	case len(fields) == t.fields-1 && t.order[colText] == t.fields-1:
		fields = append(fields, "") // the empty text column of a structure row, trimmed away
	case len(fields) > t.fields:
		return inputError(t.docID, start, "", "tesseract TSV: line %d: %d tab-separated fields, want %d", lineNo, len(fields), t.fields)
	case len(fields) < t.fields:
		missing := []string{}
		for c, i := range t.order {
			if i >= len(fields) {
				missing = append(missing, tsvColumns[c])
			}
		}
		return inputError(t.docID, start, missing[0], "tesseract TSV: line %d: %d tab-separated fields, want %d; missing %s", lineNo, len(fields), t.fields, strings.Join(missing, ", "))
	}
	fieldAt := func(c int) int { // byte offset of column c's field
		off := start
		for i := 0; i < t.order[c]; i++ {
			off += len(fields[i]) + 1
		}
		return off
	}
	var n [colConf]int
	for c := colLevel; c < colConf; c++ {
		s := fields[t.order[c]]
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return inputError(t.docID, fieldAt(c), tsvColumns[c], "tesseract TSV: line %d: %s %q is not an integer", lineNo, tsvColumns[c], s)
		}
		lo := 0
		if c == colPage {
			lo = 1
		}
		if v < lo || v > maxCoordinate {
			return inputError(t.docID, fieldAt(c), tsvColumns[c], "tesseract TSV: line %d: %s %d is outside %d..%d", lineNo, tsvColumns[c], v, lo, maxCoordinate)
		}
		n[c] = v
	}
	if n[colLevel] < 1 || n[colLevel] > 5 {
		return inputError(t.docID, fieldAt(colLevel), "level", "tesseract TSV: line %d: level %d is not 1 (page), 2 (block), 3 (paragraph), 4 (line) or 5 (word)", lineNo, n[colLevel])
	}
	confText := strings.TrimSpace(fields[t.order[colConf]])
	conf, err := strconv.ParseFloat(confText, 64)
	if err != nil || math.IsNaN(conf) || (conf < 0 && conf != -1) || conf > 100 {
		return inputError(t.docID, fieldAt(colConf), "conf", "tesseract TSV: line %d: conf %q is not -1 or a number from 0 to 100", lineNo, confText)
	}
	b := box{n[colLeft], n[colTop], n[colLeft] + n[colWidth], n[colTop] + n[colHeight]}
	key := [4]int{n[colPage], n[colBlock], n[colPar], n[colLine]}
	if err := t.pageOf(key[0]); err != nil {
		return err
	}
	switch n[colLevel] {
	case 1:
		p := t.page(key[0])
		p.width, p.height = b.x1, b.y1
	case 2:
		t.block(key) // an empty block still takes its place in the order
	case 5:
		l := t.line(key)
		l.words = append(l.words, word{text: strings.Clone(fields[t.order[colText]]), box: b, conf: conf})
	}
	// Paragraph and line rows add nothing the words do not give; their groups are made from
	// the numbers of the words.
	return nil
}
