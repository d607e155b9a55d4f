package ocr

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/sdk"
)

func heading(level, page int, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindHeading, Level: level, Page: page, Text: text}
}

func prose(page int, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindParagraph, Page: page, Text: text}
}

func tableBlock(page int, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindTable, Page: page, Text: text}
}

// ignoreAttrs compares blocks without their attributes; attribute tests check those.
var ignoreAttrs = cmpopts.IgnoreFields(sdk.Block{}, "Attrs")

// tsvCases are Tesseract TSV inputs with the blocks ReadTSV must make. FuzzReadTSV is seeded
// from them.
var tsvCases = []struct {
	name string
	opts Options
	src  string
	want []sdk.Block
}{
	{
		name: "empty input gives no blocks",
		src:  "",
	},
	{
		name: "a header without rows gives no blocks",
		src:  newTSV().String(),
	},
	{
		name: "blocks emitted out of order are read top to bottom, with a title, a heading and paragraphs",
		src: newTSV().page(1, 2000, 3000).
			line(1, 1, 1, 1, 150, 800, 46, 95, "Water levels were lower than last year at most sites.").
			line(1, 1, 1, 2, 150, 866, 46, 95, "Two gauges were replaced after the floods.").
			line(1, 2, 1, 1, 150, 200, 92, 96, "Field Report").
			line(1, 3, 1, 1, 150, 400, 62, 96, "Methods").
			line(1, 3, 2, 1, 150, 500, 46, 94, "Each site was sampled twice a week.").
			line(1, 3, 2, 2, 150, 566, 46, 94, "Samples went to the laboratory.").
			String(),
		want: []sdk.Block{
			heading(1, 1, "Field Report"),
			heading(2, 1, "Methods"),
			prose(1, "Each site was sampled twice a week.\nSamples went to the laboratory."),
			prose(1, "Water levels were lower than last year at most sites.\nTwo gauges were replaced after the floods."),
		},
	},
	{
		name: "a heading line that opens a paragraph becomes a heading of its own",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 62, 96, "Findings").
			line(1, 1, 1, 2, 150, 280, 46, 94, "Nitrate fell at eight of the eleven sites.").
			line(1, 1, 1, 3, 150, 346, 46, 94, "The largest drop was below the mill.").
			String(),
		want: []sdk.Block{
			heading(1, 1, "Findings"),
			prose(1, "Nitrate fell at eight of the eleven sites.\nThe largest drop was below the mill."),
		},
	},
	{
		name: "a heading over two lines is one heading joined by a space",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 80, 96, "Annual Report of the").
			line(1, 1, 1, 2, 150, 300, 80, 96, "River Survey").
			line(1, 2, 1, 1, 150, 500, 46, 94, "The survey covered eleven sites in the valley.").
			String(),
		want: []sdk.Block{
			heading(1, 1, "Annual Report of the River Survey"),
			prose(1, "The survey covered eleven sites in the valley."),
		},
	},
	{
		name: "a heading without descenders is still found by its letters' size",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 58, 96, "Outlook").
			line(1, 2, 1, 1, 150, 300, 46, 94, "Sampling goes on every week, with your help.").
			line(1, 2, 1, 2, 150, 366, 46, 94, "Please report any gauge that stops working.").
			String(),
		want: []sdk.Block{
			heading(1, 1, "Outlook"),
			prose(1, "Sampling goes on every week, with your help.\nPlease report any gauge that stops working."),
		},
	},
	{
		name: "heading detection can be turned off",
		opts: Options{HeadingRatio: Off},
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 92, 96, "Field Report").
			line(1, 2, 1, 1, 150, 400, 46, 94, "The survey covered eleven sites.").
			String(),
		want: []sdk.Block{
			prose(1, "Field Report"),
			prose(1, "The survey covered eleven sites."),
		},
	},
	{
		name: "blank words such as horizontal rules are dropped and make no block",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 46, 94, "Above the rule.").
			row(5, 1, 2, 1, 1, 1, 150, 300, 1700, 5, 95, " ").
			line(1, 3, 1, 1, 150, 400, 46, 94, "Below the rule.").
			String(),
		want: []sdk.Block{
			prose(1, "Above the rule."),
			prose(1, "Below the rule."),
		},
	},
	{
		name: "the columns of a two-column page are read one after the other",
		src: newTSV().
			line(1, 1, 1, 1, 1100, 200, 46, 94, "Right column first line,").
			line(1, 1, 1, 2, 1100, 266, 46, 94, "right column second line.").
			line(1, 2, 1, 1, 150, 200, 46, 94, "Left column first line,").
			line(1, 2, 1, 2, 150, 266, 46, 94, "left column second line.").
			line(1, 3, 1, 1, 150, 600, 46, 94, "A footer across the page.").
			String(),
		want: []sdk.Block{
			prose(1, "Left column first line,\nleft column second line."),
			prose(1, "Right column first line,\nright column second line."),
			prose(1, "A footer across the page."),
		},
	},
	{
		name: "columns of prose with lines in line are not joined into a table",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 46, 94, "Left column, line one").
			line(1, 1, 1, 2, 150, 266, 46, 94, "and left line two.").
			line(1, 2, 1, 1, 1100, 200, 46, 94, "Right column, line one").
			line(1, 2, 1, 2, 1100, 266, 46, 94, "and right line two.").
			String(),
		want: []sdk.Block{
			prose(1, "Left column, line one\nand left line two."),
			prose(1, "Right column, line one\nand right line two."),
		},
	},
	{
		name: "rows of cells split by wide gaps become a pipe table",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 46, 94, "Sales by region.").
			cells(1, 2, 1, 1, 300, 46, 94, []int{150, 700, 1100}, []string{"Region", "Units", "Revenue"}).
			cells(1, 2, 1, 2, 370, 46, 94, []int{150, 700, 1100}, []string{"North", "1,240", "18,600"}).
			cells(1, 2, 1, 3, 440, 46, 94, []int{150, 700, 1100}, []string{"South West", "980", "14,700"}).
			String(),
		want: []sdk.Block{
			prose(1, "Sales by region."),
			tableBlock(1, "| Region | Units | Revenue |\n|---|---|---|\n| North | 1,240 | 18,600 |\n| South West | 980 | 14,700 |"),
		},
	},
	{
		name: "a table Tesseract cut into a block per group of columns is joined row by row",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 46, 94, "Sales by region.").
			cells(1, 3, 1, 1, 300, 46, 94, []int{1100}, []string{"Revenue"}).
			cells(1, 3, 1, 2, 370, 46, 94, []int{1100}, []string{"18,600"}).
			cells(1, 3, 1, 3, 440, 46, 94, []int{1100}, []string{"14,700"}).
			cells(1, 2, 1, 1, 300, 46, 94, []int{150, 700}, []string{"Region", "Units"}).
			cells(1, 2, 1, 2, 370, 46, 94, []int{150, 700}, []string{"North", "1,240"}).
			cells(1, 2, 1, 3, 440, 46, 94, []int{150, 700}, []string{"South West", "980"}).
			String(),
		want: []sdk.Block{
			prose(1, "Sales by region."),
			tableBlock(1, "| Region | Units | Revenue |\n|---|---|---|\n| North | 1,240 | 18,600 |\n| South West | 980 | 14,700 |"),
		},
	},
	{
		name: "a table row with an empty cell keeps the cell, and a pipe in a cell is escaped",
		src: newTSV().
			cells(1, 1, 1, 1, 300, 46, 94, []int{150, 700, 1100}, []string{"Item", "Qty", "Note"}).
			cells(1, 1, 1, 2, 370, 46, 94, []int{150, 1100}, []string{"Pens", "a|b"}).
			cells(1, 1, 1, 3, 440, 46, 94, []int{150, 700, 1100}, []string{"Ink", "4", "blue"}).
			String(),
		want: []sdk.Block{
			tableBlock(1, "| Item | Qty | Note |\n|---|---|---|\n| Pens |  | a\\|b |\n| Ink | 4 | blue |"),
		},
	},
	{
		name: "a heading and the lines after a table in the same block stay text",
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 62, 96, "Stock").
			cells(1, 1, 2, 1, 300, 46, 94, []int{150, 700}, []string{"Item", "Qty"}).
			cells(1, 1, 2, 2, 370, 46, 94, []int{150, 700}, []string{"Pens", "12"}).
			line(1, 1, 3, 1, 150, 470, 46, 94, "Counted on Monday by the night shift.").
			String(),
		want: []sdk.Block{
			heading(1, 1, "Stock"),
			tableBlock(1, "| Item | Qty |\n|---|---|\n| Pens | 12 |"),
			prose(1, "Counted on Monday by the night shift."),
		},
	},
	{
		name: "prose whose lines have one wide gap each is not a table",
		src: newTSV().
			cells(1, 1, 1, 1, 200, 46, 94, []int{150, 900}, []string{"The first line has", "a wide gap here"}).
			cells(1, 1, 1, 2, 266, 46, 94, []int{150, 500}, []string{"and the second", "has one somewhere else entirely"}).
			String(),
		want: []sdk.Block{
			prose(1, "The first line has a wide gap here\nand the second has one somewhere else entirely"),
		},
	},
	{
		name: "table detection can be turned off",
		opts: Options{TableGap: Off},
		src: newTSV().
			cells(1, 1, 1, 1, 300, 46, 94, []int{150, 700}, []string{"Item", "Qty"}).
			cells(1, 1, 1, 2, 370, 46, 94, []int{150, 700}, []string{"Pens", "12"}).
			String(),
		want: []sdk.Block{
			prose(1, "Item Qty\nPens 12"),
		},
	},
	{
		name: "pages of a multi-page run keep their numbers and their own block numbering",
		src: newTSV().page(1, 2000, 3000).
			line(1, 1, 1, 1, 150, 200, 46, 94, "Text on the first page.").
			page(2, 2000, 3000).
			line(2, 1, 1, 1, 150, 200, 46, 94, "Text on the second page.").
			String(),
		want: []sdk.Block{
			prose(1, "Text on the first page."),
			prose(2, "Text on the second page."),
		},
	},
	{
		name: "rows without a header, with CRLF endings and without the empty text column are read",
		src: strings.ReplaceAll(strings.TrimPrefix(newTSV().page(1, 2000, 3000).
			line(1, 1, 1, 1, 150, 200, 46, 94, "Plain words.").String(), strings.Join(tsvColumns[:], "\t")+"\n"),
			"\t\n", "\r\n"),
		want: []sdk.Block{
			prose(1, "Plain words."),
		},
	},
	{
		name: "a header may order the columns differently",
		src:  "text\tconf\tlevel\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\nHello\t90\t5\t1\t1\t1\t1\t1\t10\t10\t100\t30\nworld\t90\t5\t1\t1\t1\t1\t2\t120\t10\t100\t30\n",
		want: []sdk.Block{
			prose(1, "Hello world"),
		},
	},
	{
		name: "words below MinConfidence are dropped from the text",
		opts: Options{MinConfidence: 0.5},
		src: newTSV().
			line(1, 1, 1, 1, 150, 200, 46, 94, "Clean words").
			line(1, 1, 1, 2, 150, 266, 46, 12, "~smudge~").
			line(1, 1, 1, 3, 150, 332, 46, 94, "stay here.").
			String(),
		want: []sdk.Block{
			prose(1, "Clean words\nstay here."),
		},
	},
}

func TestReadTSV(t *testing.T) {
	t.Parallel()
	for _, tc := range tsvCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := ReadTSV(strings.NewReader(tc.src), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, doc.Blocks, ignoreAttrs, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			checkWordsKept(t, tc.src, doc)
		})
	}
}

// checkWordsKept checks that every non-blank word of a TSV lands in a block's text or in the
// record of dropped words.
func checkWordsKept(t *testing.T, src string, doc *sdk.Document) {
	t.Helper()
	var all strings.Builder
	for _, b := range doc.Blocks {
		all.WriteString(b.Text + "\n")
		if s, ok := b.Attrs[AttrDroppedText].(string); ok {
			all.WriteString(s + "\n")
		}
	}
	if d, ok := doc.Metadata[MetaDropped].(sdk.PageEntries); ok {
		for _, e := range d.Entries {
			all.WriteString(e["text"].(string) + "\n")
		}
	}
	text := strings.ReplaceAll(all.String(), `\|`, "|")
	for _, row := range strings.Split(src, "\n") {
		f := strings.Split(strings.TrimSuffix(row, "\r"), "\t")
		if len(f) == 12 && f[0] == "5" && strings.TrimSpace(f[11]) != "" && !strings.Contains(text, strings.TrimSpace(f[11])) {
			t.Errorf("word %q is in no block and not recorded as dropped", f[11])
		}
	}
}

func TestReadTSVAttributes(t *testing.T) {
	t.Parallel()
	src := newTSV().page(1, 2000, 3000).
		row(5, 1, 1, 1, 1, 1, 100, 200, 200, 40, 90, "Mostly").
		row(5, 1, 1, 1, 1, 2, 320, 200, 200, 40, 80, "clean").
		row(5, 1, 1, 1, 1, 3, 540, 200, 200, 40, -1, "text").
		row(5, 1, 1, 1, 1, 4, 760, 205, 150, 40, 20, "smudge").
		row(5, 1, 2, 1, 1, 1, 100, 400, 300, 40, 10, "unreadable").
		String()
	doc, err := ReadTSV(strings.NewReader(src), Options{ID: "scan.tsv", MinConfidence: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	want := &sdk.Document{
		ID: "scan.tsv",
		Metadata: map[string]any{
			MetaPages:        sdk.PageEntries{Key: "number", Entries: []map[string]any{{"number": 1, "width": 2000.0, "height": 3000.0}}},
			MetaDroppedWords: 2,
			MetaDropped: sdk.PageEntries{Key: "page", Entries: []map[string]any{
				{"text": "unreadable", "page": 1, "bbox": []float64{100, 400, 400, 440}, "ocr_confidence": 0.1},
			}},
		},
		Blocks: []sdk.Block{{
			Kind: sdk.KindParagraph, Text: "Mostly clean text", Page: 1,
			Attrs: map[string]any{
				AttrEngine:       "tesseract",
				AttrConfidence:   0.85, // the mean of 90 and 80; -1 means no confidence
				AttrBBox:         []float64{100, 200, 740, 240},
				AttrPage:         1,
				AttrDroppedWords: 1,
				AttrDroppedText:  "smudge",
			},
		}},
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

func TestReadTSVTableAttributes(t *testing.T) {
	t.Parallel()
	src := newTSV().
		cells(1, 1, 1, 1, 300, 46, 90, []int{150, 700, 1100}, []string{"Region", "Units", "Revenue"}).
		cells(1, 1, 1, 2, 370, 46, 90, []int{150, 700, 1100}, []string{"North", "1,240", "18,600"}).
		String()
	doc, err := ReadTSV(strings.NewReader(src), Options{Engine: "tesseract 5.3.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Blocks) != 1 {
		t.Fatalf("got %d blocks, want 1 table: %+v", len(doc.Blocks), doc.Blocks)
	}
	got := doc.Blocks[0].Attrs
	for k, v := range map[string]any{AttrColumns: 3, AttrRows: 1, AttrEngine: "tesseract 5.3.0", AttrConfidence: 0.9} {
		if !cmp.Equal(v, got[k]) {
			t.Errorf("Attrs[%q] = %v, want %v", k, got[k], v)
		}
	}
}

// tsvErrorCases are malformed TSV inputs with what the error must say.
var tsvErrorCases = []struct {
	name  string
	src   string
	field string
	says  string
}{
	{"a header without a column is rejected", "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\ttext\n", "conf", `line 1: the header lacks column "conf"`},
	{"an unknown header column is rejected", "level\tpage\n", "page", `line 1: unknown column "page"`},
	{"a row with missing columns names them", newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t10\t10\n", "conf", "line 2: 10 tab-separated fields, want 12; missing conf, text"},
	{"a row with an extra column is rejected", newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tword\textra\n", "", "line 2: 13 tab-separated fields, want 12"},
	{"a coordinate that is not a number is rejected", newTSV().String() + "5\t1\t1\t1\t1\t1\tabc\t0\t10\t10\t90\tword\n", "left", `line 2: left "abc" is not an integer`},
	{"a negative width is rejected", newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t-5\t10\t90\tword\n", "width", "line 2: width -5 is outside 0..1073741824"},
	{"a negative top is rejected", "\n\n5\t1\t1\t1\t1\t1\t0\t-3\t5\t10\t90\tword\n", "top", "line 3: top -3 is outside 0..1073741824"},
	{"a level outside 1-5 is rejected", newTSV().String() + "7\t1\t1\t1\t1\t1\t0\t0\t5\t10\t90\tword\n", "level", "line 2: level 7 is not 1 (page)"},
	{"page number 0 is rejected", newTSV().String() + "5\t0\t1\t1\t1\t1\t0\t0\t5\t10\t90\tword\n", "page_num", "line 2: page_num 0 is outside 1..1073741824"},
	{"a confidence above 100 is rejected", newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t5\t10\t150\tword\n", "conf", `line 2: conf "150" is not -1 or a number from 0 to 100`},
	{"a confidence that is not a number is rejected", newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t5\t10\tNaN\tword\n", "conf", `line 2: conf "NaN" is not -1`},
	{"invalid UTF-8 is rejected with its line", newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t5\t10\t90\tw\xffrd\n", "", "line 2: invalid UTF-8 (0xff)"},
}

func TestReadTSVErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range tsvErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := ReadTSV(strings.NewReader(tc.src), Options{ID: "bad.tsv"})
			if doc != nil {
				t.Errorf("got a document with the error")
			}
			var ie *sdk.InputError
			if !errors.As(err, &ie) || !errors.Is(err, sdk.ErrInvalidInput) {
				t.Fatalf("error %v is not an *sdk.InputError matching sdk.ErrInvalidInput", err)
			}
			if ie.Document != "bad.tsv" || ie.Field != tc.field || !strings.Contains(ie.Problem, tc.says) {
				t.Errorf("error %q: document %q field %q; want document %q field %q and a problem saying %q", err, ie.Document, ie.Field, "bad.tsv", tc.field, tc.says)
			}
		})
	}
}

func TestReadTSVErrorOffsets(t *testing.T) {
	t.Parallel()
	src := newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t5\t10\t90\tw\xffrd\n"
	_, err := ReadTSV(strings.NewReader(src), Options{})
	var ie *sdk.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v is not an *sdk.InputError", err)
	}
	if want := strings.IndexByte(src, 0xff); ie.Offset != want {
		t.Errorf("Offset = %d, want %d, the offset of the bad byte", ie.Offset, want)
	}
	src = newTSV().String() + "5\t1\t1\t1\t1\t1\t0\t0\t-5\t10\t90\tword\n"
	_, err = ReadTSV(strings.NewReader(src), Options{})
	if !errors.As(err, &ie) {
		t.Fatalf("error %v is not an *sdk.InputError", err)
	}
	if want := strings.Index(src, "-5"); ie.Offset != want {
		t.Errorf("Offset = %d, want %d, the offset of the width field", ie.Offset, want)
	}
}

func TestOptionsCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"a MinConfidence above 1 is rejected", Options{MinConfidence: 1.5}},
		{"a negative MinConfidence is rejected", Options{MinConfidence: -0.1}},
		{"a HeadingRatio of 1 or less is rejected", Options{HeadingRatio: 0.8}},
		{"a negative HeadingRatio other than Off is rejected", Options{HeadingRatio: -3}},
		{"a negative TableGap other than Off is rejected", Options{TableGap: -2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for name, read := range readers {
				if _, err := read(strings.NewReader(""), tc.opts); !errors.Is(err, sdk.ErrInvalidConfig) {
					t.Errorf("%s: error %v, want sdk.ErrInvalidConfig", name, err)
				}
			}
		})
	}
}

// readers are the package's readers by name.
var readers = map[string]func(io.Reader, Options) (*sdk.Document, error){
	"ReadTSV":  ReadTSV,
	"ReadHOCR": ReadHOCR,
	"ReadJSON": ReadJSON,
}

// TestParseTSVAPageAtATime checks that reading a page at a time (parseTSV) makes the document
// that reading every page before analysing any (parseTSVWhole) makes, and that it hands the
// analyzer one page at a time; a page whose rows come again after another page's is read
// whole, as the pages were first grouped.
func TestParseTSVAPageAtATime(t *testing.T) {
	interleaved := newTSV().page(1, 2100, 3000).line(1, 1, 1, 1, 150, 200, 46, 95, "first page").
		page(2, 2100, 3000).line(2, 1, 1, 1, 150, 200, 46, 95, "second page").
		line(1, 2, 1, 1, 150, 900, 46, 95, "first page again").String()
	srcs := map[string]string{"interleaved": interleaved, "synthetic": string(syntheticTSV(5))}
	for i, tc := range tsvCases {
		srcs[fmt.Sprintf("case %d %s", i, tc.name)] = tc.src
	}
	checkPageAtATime(t, "*.tsv", srcs, ParseTSV, parseTSVWhole)

	// The reader hands on each page when the next begins, holding no other.
	r := newTSVReader("synthetic")
	var handed []int
	r.onPage = func(p *page) {
		if len(r.pages) != 1 {
			t.Errorf("page %d handed on with %d pages held", p.number, len(r.pages))
		}
		handed = append(handed, p.number)
	}
	if err := r.read(syntheticTSV(3)); err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 2, 3}; !slices.Equal(handed, want) {
		t.Errorf("pages handed on %v, want %v", handed, want)
	}
	r = newTSVReader("interleaved")
	r.onPage = func(*page) {}
	if err := r.read([]byte(interleaved)); !errors.Is(err, errPageAgain) {
		t.Errorf("page 1 after page 2: %v, want errPageAgain", err)
	}
	doc, err := ParseTSV([]byte(interleaved), Options{ID: "interleaved"})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, b := range doc.Blocks {
		texts = append(texts, b.Text)
	}
	if want := []string{"first page", "first page again", "second page"}; !slices.Equal(texts, want) {
		t.Errorf("interleaved pages: blocks %q, want %q", texts, want)
	}
}

// TestParseTSVErrorsKeepNothingOfTheInput checks that an error of ParseTSV, which reads its
// bytes in place, does not hold on to them: the caller may reuse them.
func TestParseTSVErrorsKeepNothingOfTheInput(t *testing.T) {
	src := []byte("level\tbogus\n")
	_, err := ParseTSV(src, Options{ID: "x"})
	var ie *sdk.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v, want an *sdk.InputError", err)
	}
	copy(src, "XXXXXXXXXXXX")
	if ie.Field != "bogus" || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("after the input changed, the error says field %q: %v", ie.Field, err)
	}
}
