package ocr

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/sdk"
)

// hocrDoc wraps pages in the document Tesseract writes.
func hocrDoc(pages ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <head>
  <title></title>
  <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
  <meta name='ocr-system' content='tesseract 5.3.0' />
  <meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>
 </head>
 <body>
` + strings.Join(pages, "\n") + `
 </body>
</html>
`
}

func hocrPage(ppageno int, areas ...string) string {
	return fmt.Sprintf("  <div class='ocr_page' id='page_%d' title='image \"p;%d.png\"; bbox 0 0 2000 3000; ppageno %d; scan_res 300 300'>\n%s\n  </div>",
		ppageno+1, ppageno, ppageno, strings.Join(areas, "\n"))
}

func hocrArea(pars ...string) string {
	return "   <div class='ocr_carea' title=\"bbox 0 0 1 1\">\n" + strings.Join(pars, "\n") + "\n   </div>"
}

func hocrPar(lines ...string) string {
	return "    <p class='ocr_par' lang='eng'>\n" + strings.Join(lines, "\n") + "\n    </p>"
}

// hocrLine lays out the words of text from x with baseline y; xSize 0 leaves x_size out.
func hocrLine(class string, x, y, size int, xSize float64, conf int, text string) string {
	var words strings.Builder
	lx := x
	for _, w := range strings.Fields(text) {
		width := 25 * len([]rune(w))
		fmt.Fprintf(&words, "<span class='ocrx_word' title='bbox %d %d %d %d; x_wconf %d'>%s</span> ", lx, y-size, lx+width, y, conf, w)
		lx += width + 15
	}
	title := fmt.Sprintf("bbox %d %d %d %d; baseline 0 -10", x, y-size, lx, y)
	if xSize > 0 {
		title += fmt.Sprintf("; x_size %g; x_descenders 10; x_ascenders 12", xSize)
	}
	return fmt.Sprintf("     <span class='%s' title=%q>%s</span>", class, title, words.String())
}

// hocrCases are hOCR inputs with the blocks ReadHOCR must make. FuzzReadHOCR is seeded from
// them.
var hocrCases = []struct {
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
		name: "a page without text gives no blocks",
		src:  hocrDoc(hocrPage(0)),
	},
	{
		name: "x_size tells headings from body text, and pages count from ppageno 0",
		src: hocrDoc(hocrPage(0,
			hocrArea(hocrPar(hocrLine("ocr_header", 150, 250, 70, 92, 96, "Field Report"))),
			hocrArea(hocrPar(
				hocrLine("ocr_line", 150, 400, 40, 46, 95, "The survey covered eleven sites."),
				hocrLine("ocr_line", 150, 466, 30, 46, 95, "Two were dry."),
			)),
			hocrArea(hocrPar(hocrLine("ocr_line", 150, 600, 40, 62, 96, "Methods"))),
			hocrArea(hocrPar(hocrLine("ocr_line", 150, 700, 40, 46, 95, "Each site was sampled weekly."))),
		)),
		want: []sdk.Block{
			heading(1, 1, "Field Report"),
			prose(1, "The survey covered eleven sites.\nTwo were dry."),
			heading(2, 1, "Methods"),
			prose(1, "Each site was sampled weekly."),
		},
	},
	{
		name: "pages of a multi-page file keep their numbers",
		src: hocrDoc(
			hocrPage(0, hocrArea(hocrPar(hocrLine("ocr_line", 150, 400, 40, 46, 95, "First page.")))),
			hocrPage(1, hocrArea(hocrPar(hocrLine("ocr_line", 150, 400, 40, 46, 95, "Second page.")))),
		),
		want: []sdk.Block{
			prose(1, "First page."),
			prose(2, "Second page."),
		},
	},
	{
		name: "areas emitted out of order are read top to bottom",
		src: hocrDoc(hocrPage(0,
			hocrArea(hocrPar(hocrLine("ocr_line", 150, 900, 40, 46, 95, "Lower text."))),
			hocrArea(hocrPar(hocrLine("ocr_line", 150, 300, 40, 46, 95, "Upper text."))),
		)),
		want: []sdk.Block{
			prose(1, "Upper text."),
			prose(1, "Lower text."),
		},
	},
	{
		name: "words with markup inside, entities and blank words are read",
		src: hocrDoc(hocrPage(0, hocrArea(hocrPar(
			`<span class='ocr_line' title='bbox 10 10 900 60; x_size 46'><span class='ocrx_word' title='bbox 10 10 100 60; x_wconf 90'><strong>Bold</strong></span> <span class='ocrx_word' title='bbox 120 10 300 60; x_wconf 90'>R&amp;D</span> <span class='ocrx_word' title='bbox 320 10 900 15; x_wconf 95'> </span></span>`)))),
		want: []sdk.Block{
			prose(1, "Bold R&D"),
		},
	},
	{
		name: "text outside words, as from engines that mark only lines, is kept",
		src:  `<html><body><div class="ocr_page" title="bbox 0 0 1000 1000"><span class="ocr_line" title="bbox 10 10 500 50">A line without words</span></div></body></html>`,
		want: []sdk.Block{
			prose(1, "A line without words"),
		},
	},
	{
		name: "HTML without an XML declaration and with unclosed elements is read",
		src:  `<html><head><title>scan</title><meta name="ocr-system" content="other 1.0"></head><body><div class="ocr_page" title="bbox 0 0 1000 1000; ppageno 4"><p class="ocr_par"><span class="ocr_line" title="bbox 10 10 500 50"><span class="ocrx_word" title="bbox 10 10 100 50; x_wconf 80">Loose<br>html</span></span></p></div></body></html>`,
		want: []sdk.Block{
			prose(5, "Loosehtml"),
		},
	},
	{
		name: "a table in one area becomes a pipe table",
		src: hocrDoc(hocrPage(0, hocrArea(hocrPar(
			`<span class='ocr_line' title='bbox 150 300 1300 346; x_size 46'><span class='ocrx_word' title='bbox 150 300 300 346; x_wconf 90'>Item</span> <span class='ocrx_word' title='bbox 700 300 800 346; x_wconf 90'>Qty</span></span>`,
			`<span class='ocr_line' title='bbox 150 370 1300 416; x_size 46'><span class='ocrx_word' title='bbox 150 370 300 416; x_wconf 90'>Pens</span> <span class='ocrx_word' title='bbox 700 370 760 416; x_wconf 90'>12</span></span>`,
		)))),
		want: []sdk.Block{
			tableBlock(1, "| Item | Qty |\n|---|---|\n| Pens | 12 |"),
		},
	},
}

func TestReadHOCR(t *testing.T) {
	t.Parallel()
	for _, tc := range hocrCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := ReadHOCR(strings.NewReader(tc.src), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, doc.Blocks, ignoreAttrs, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadHOCRAttributes(t *testing.T) {
	t.Parallel()
	src := hocrDoc(hocrPage(2, hocrArea(hocrPar(
		hocrLine("ocr_line", 150, 400, 40, 46, 90, "Some words"),
		hocrLine("ocr_line", 150, 466, 40, 46, 10, "smudge"),
	))))
	doc, err := ReadHOCR(strings.NewReader(src), Options{ID: "scan.hocr", MinConfidence: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	want := &sdk.Document{
		ID: "scan.hocr",
		Metadata: map[string]any{
			MetaPages:        sdk.PageEntries{Key: "number", Entries: []map[string]any{{"number": 3, "width": 2000.0, "height": 3000.0}}},
			MetaDroppedWords: 1,
		},
		Blocks: []sdk.Block{{
			Kind: sdk.KindParagraph, Text: "Some words", Page: 3,
			Attrs: map[string]any{
				AttrEngine:       "tesseract 5.3.0",
				AttrConfidence:   0.9,
				AttrBBox:         []float64{150, 360, 390, 400},
				AttrPage:         3,
				AttrDroppedWords: 1,
				AttrDroppedText:  "smudge",
			},
		}},
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

// hocrErrorCases are malformed hOCR inputs with what the error must say.
var hocrErrorCases = []struct {
	name  string
	src   string
	field string
	says  string
}{
	{"a word box with three numbers is rejected", "<html><body>\n<span class='ocrx_word' id='word_1_1' title='bbox 1 2 3; x_wconf 90'>w</span></body></html>", "bbox",
		`line 2, column 70: element <span class="ocrx_word" id="word_1_1">: bbox "1 2 3" needs 4 numbers`},
	{"a negative box is rejected", "<span class='ocr_line' title='bbox -1 0 5 5'>w</span>", "bbox", `"-1" is not a number from 0`},
	{"a box with x1 < x0 is rejected", "<span class='ocr_line' title='bbox 10 0 5 5'>w</span>", "bbox", "has x1 < x0 or y1 < y0"},
	{"a confidence above 100 is rejected", "<span class='ocrx_word' title='bbox 0 0 5 5; x_wconf 101'>w</span>", "x_wconf", `x_wconf "101" is not a number from 0 to 100`},
	{"a negative x_size is rejected", "<span class='ocr_line' title='bbox 0 0 5 5; x_size -4'>w</span>", "x_size", `x_size "-4" is not a number from 0`},
	{"a negative ppageno is rejected", "<div class='ocr_page' title='ppageno -1'></div>", "ppageno", `ppageno "-1" is not an integer from 0`},
	{"an unclosed quote in a title is rejected", "<div class='ocr_page' title='image \"a.png; bbox 0 0 1 1'></div>", "title", "unclosed quote"},
	{"broken markup is rejected with its line", "<html>\n<body>\n<span class='ocr_line' title='bbox 0 0 5 5'>w</span\n", "", "line 4:"},
	{"a declared encoding other than UTF-8 is rejected", `<?xml version="1.0" encoding="ISO-8859-1"?><html></html>`, "", `encoding "ISO-8859-1" is declared; hOCR must be UTF-8`},
	{"invalid UTF-8 is rejected with its line", "<html>\n<body>\n<span class='ocrx_word'>w\xffrd</span></body></html>", "", "line 3: invalid UTF-8 (0xff)"},
}

func TestReadHOCRErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range hocrErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := ReadHOCR(strings.NewReader(tc.src), Options{ID: "bad.hocr"})
			if doc != nil {
				t.Errorf("got a document with the error")
			}
			var ie *sdk.InputError
			if !errors.As(err, &ie) || !errors.Is(err, sdk.ErrInvalidInput) {
				t.Fatalf("error %v is not an *sdk.InputError matching sdk.ErrInvalidInput", err)
			}
			if ie.Document != "bad.hocr" || ie.Field != tc.field || !strings.Contains(ie.Problem, tc.says) || ie.Offset < 0 {
				t.Errorf("error %q: document %q field %q offset %d; want document %q, field %q, an offset and a problem saying %q",
					err, ie.Document, ie.Field, ie.Offset, "bad.hocr", tc.field, tc.says)
			}
		})
	}
}

// readHOCRWhole is ParseHOCR reading every page before analysing any, as ReadHOCR did before
// it read a page at a time: TestParseHOCRAPageAtATime and FuzzReadHOCR hold it to ParseHOCR.
func readHOCRWhole(src []byte, opts Options) (*sdk.Document, error) {
	h := &hocrReader{docID: opts.ID}
	if err := h.read(src); err != nil {
		return nil, err
	}
	engine := opts.Engine
	if engine == "" {
		engine = cmpOr(h.system, "hocr")
	}
	doc := newDocument(opts)
	analyze(doc, h.pages, engine, opts)
	return doc, nil
}

// TestParseHOCRAPageAtATime checks that reading a page at a time makes the document reading
// every page first makes, pages nested, implicit (words outside any page) and after the
// ocr-system meta included, and that the reader hands each page on once it is over.
func TestParseHOCRAPageAtATime(t *testing.T) {
	word := func(text string) string {
		return "<span class='ocrx_word' title='bbox 10 10 90 40; x_wconf 90'>" + text + "</span>"
	}
	pageDiv := func(n int, body string) string {
		return fmt.Sprintf("<div class='ocr_page' title='bbox 0 0 1000 1400; ppageno %d'><p class='ocr_par'><span class='ocr_line' title='bbox 10 10 900 40'>%s</span></p></div>", n, body)
	}
	srcs := map[string]string{
		"pages":       "<html><body>" + pageDiv(0, word("one")) + pageDiv(1, word("two")) + pageDiv(2, word("three")) + "</body></html>",
		"nested":      "<html><body><div class='ocr_page' title='bbox 0 0 1000 1400'>" + word("outer") + pageDiv(4, word("inner")) + word("after") + "</div>" + word("stray") + "</body></html>",
		"late system": "<html><body>" + pageDiv(0, word("one")) + "<meta name='ocr-system' content='late engine'/></body></html>",
		"implicit":    "<html><body>" + word("no page") + "</body></html>",
	}
	for i, tc := range hocrCases {
		srcs[fmt.Sprintf("case %d %s", i, tc.name)] = tc.src
	}
	checkPageAtATime(t, "*.hocr", srcs, ParseHOCR, readHOCRWhole)

	handedOn := func(src string, most int) []int {
		h := &hocrReader{docID: "pages"}
		var handed []int
		h.onPage = func(p *page) {
			if len(h.pages) > most {
				t.Errorf("page %d handed on with %d pages held", p.number, len(h.pages))
			}
			handed = append(handed, p.number)
		}
		if err := h.read([]byte(src)); err != nil {
			t.Fatal(err)
		}
		return handed
	}
	if got, want := handedOn(srcs["pages"], 1), []int{1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("pages handed on %v, want %v", got, want)
	}
	// The outer page (1) and the inner (ppageno 4) are held together, then the words after the
	// inner page (a page of their own, as ever) and the stray word's are one page each.
	if got, want := handedOn(srcs["nested"], 2), []int{1, 5, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("nested pages handed on %v, want %v", got, want)
	}
	doc, err := ParseHOCR([]byte(srcs["late system"]), Options{ID: "late"})
	if err != nil {
		t.Fatal(err)
	}
	if e := doc.Blocks[0].Attrs[AttrEngine]; e != "late engine" {
		t.Errorf("engine %v, want the ocr-system that comes after the page", e)
	}
}
