package ocr

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// jsonCases are OCR JSON inputs with the document ReadJSON must make. FuzzReadJSON is seeded
// from them.
var jsonCases = []struct {
	name string
	opts Options
	src  string
	want *sdk.Document
}{
	{
		name: "an empty result gives no blocks",
		src:  `{"regions": []}`,
		want: &sdk.Document{ID: "r.json"},
	},
	{
		name: "each region becomes one block in the order given, keeping its provenance",
		src: `{
  "engine": "my-ocr 2.1",
  "pages": [{"number": 1, "width": 2480, "height": 3508}],
  "regions": [
    {"text": "Quarterly report", "bbox": [120, 80, 1400, 160], "confidence": 0.97, "page": 1, "kind": "heading", "level": 1},
    {"text": "  Sales rose in every region.\r\nCosts fell.  ", "bbox": [120, 200, 2300, 400], "confidence": 0.91, "page": 1},
    {"text": "   ", "page": 1},
    {"text": "Handwritten note", "engine": "handwriting-model", "kind": "caption"}
  ]
}`,
		want: &sdk.Document{
			ID:       "r.json",
			Title:    "Quarterly report",
			Metadata: map[string]any{MetaPages: sdk.PageEntries{Key: "number", Entries: []map[string]any{{"number": 1, "width": 2480.0, "height": 3508.0}}}},
			Blocks: []sdk.Block{
				{Kind: sdk.KindHeading, Level: 1, Page: 1, Text: "Quarterly report", Attrs: map[string]any{
					AttrEngine: "my-ocr 2.1", AttrConfidence: 0.97, AttrBBox: []float64{120, 80, 1400, 160}, AttrPage: 1}},
				{Kind: sdk.KindParagraph, Page: 1, Text: "Sales rose in every region.\nCosts fell.", Attrs: map[string]any{
					AttrEngine: "my-ocr 2.1", AttrConfidence: 0.91, AttrBBox: []float64{120, 200, 2300, 400}, AttrPage: 1}},
				{Kind: sdk.KindCaption, Text: "Handwritten note", Attrs: map[string]any{AttrEngine: "handwriting-model"}},
			},
		},
	},
	{
		name: "a heading without a level is level 1, and Options.Engine names the engine when the result does not",
		opts: Options{Engine: "scanner-ocr", Title: "Given title"},
		src:  `{"regions": [{"text": "Title", "kind": "heading"}]}`,
		want: &sdk.Document{ID: "r.json", Title: "Given title", Blocks: []sdk.Block{
			{Kind: sdk.KindHeading, Level: 1, Text: "Title", Attrs: map[string]any{AttrEngine: "scanner-ocr"}},
		}},
	},
	{
		name: "regions below MinConfidence are dropped and listed",
		opts: Options{MinConfidence: 0.5},
		src:  `{"regions": [{"text": "kept", "confidence": 0.9}, {"text": "smudge", "confidence": 0.2, "page": 2, "bbox": [1, 2, 3, 4]}, {"text": "unknown confidence is kept"}]}`,
		want: &sdk.Document{
			ID: "r.json",
			Metadata: map[string]any{
				MetaDroppedWords: 1,
				MetaDropped:      sdk.PageEntries{Key: "page", Entries: []map[string]any{{"text": "smudge", "page": 2, "bbox": []float64{1, 2, 3, 4}, "ocr_confidence": 0.2}}},
			},
			Blocks: []sdk.Block{
				{Kind: sdk.KindParagraph, Text: "kept", Attrs: map[string]any{AttrConfidence: 0.9}},
				{Kind: sdk.KindParagraph, Text: "unknown confidence is kept", Attrs: map[string]any{}},
			},
		},
	},
}

func TestReadJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range jsonCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			opts.ID = "r.json"
			doc, err := ReadJSON(strings.NewReader(tc.src), opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, doc); diff != "" {
				t.Errorf("document (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromResultNil(t *testing.T) {
	t.Parallel()
	doc, err := FromResult(nil, Options{ID: "none"})
	if err != nil || doc == nil || len(doc.Blocks) != 0 {
		t.Errorf("FromResult(nil) = %+v, %v; want an empty document", doc, err)
	}
}

// jsonErrorCases are bad OCR JSON inputs with what the error must say.
var jsonErrorCases = []struct {
	name  string
	src   string
	field string
	says  string
}{
	{"empty input is rejected", ``, "", "no result object"},
	{"a syntax error names its line", "{\n\"regions\": [\n{\"text\": \"a\",}\n]}", "", "line 3: invalid character '}'"},
	{"a truncated object names its line", "{\n\"regions\": [", "", "line 2: the input ends inside the result object"},
	{"a wrong type names the field", `{"regions": [{"text": 5}]}`, "regions.text", "a JSON number cannot be a string"},
	{"an unknown field is rejected", `{"regions": [{"text": "a", "conf": 0.5}]}`, "", `unknown field "conf"`},
	{"data after the object is rejected", `{"regions": []} {}`, "", "data after the result object"},
	{"a confidence above 1 is rejected", `{"regions": [{"text": "a", "confidence": 93}]}`, "regions[0].confidence", "outside 0–1 (divide a percentage by 100)"},
	{"a box with x1 < x0 is rejected", `{"regions": [{"text": "a"}, {"text": "b", "bbox": [10, 0, 5, 5]}]}`, "regions[1].bbox", "x1 < x0 or y1 < y0"},
	{"a negative box is rejected", `{"regions": [{"text": "a", "bbox": [-1, 0, 5, 5]}]}`, "regions[0].bbox", "not negative"},
	{"a negative page is rejected", `{"regions": [{"text": "a", "page": -1}]}`, "regions[0].page", "page -1 is negative"},
	{"a level on a paragraph is rejected", `{"regions": [{"text": "a", "level": 2}]}`, "regions[0].level", `level 2 on a "paragraph" region`},
	{"a negative heading level is rejected", `{"regions": [{"text": "a", "kind": "heading", "level": -1}]}`, "regions[0].level", "heading level -1 is below 1"},
	{"a page number used twice is rejected", `{"pages": [{"number": 2}, {}], "regions": []}`, "pages[1].number", "page number 2 appears twice"},
	{"invalid UTF-8 is rejected with its line", "{\"regions\": [\n{\"text\": \"\xff\"}]}", "", "line 2: invalid UTF-8 (0xff)"},
}

func TestReadJSONErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range jsonErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := ReadJSON(strings.NewReader(tc.src), Options{ID: "bad.json"})
			if doc != nil {
				t.Errorf("got a document with the error")
			}
			var ie *sdk.InputError
			if !errors.As(err, &ie) || !errors.Is(err, sdk.ErrInvalidInput) {
				t.Fatalf("error %v is not an *sdk.InputError matching sdk.ErrInvalidInput", err)
			}
			if ie.Document != "bad.json" || ie.Field != tc.field || !strings.Contains(ie.Problem, tc.says) {
				t.Errorf("error %q: document %q field %q; want document %q, field %q and a problem saying %q", err, ie.Document, ie.Field, "bad.json", tc.field, tc.says)
			}
		})
	}
}

func TestFromResultRejectsInvalidUTF8(t *testing.T) {
	t.Parallel()
	_, err := FromResult(&Result{Regions: []Region{{Text: "ok"}, {Text: "b\xffd"}}}, Options{})
	var ie *sdk.InputError
	if !errors.As(err, &ie) || ie.Field != "regions[1].text" || !strings.Contains(ie.Problem, "invalid UTF-8 at byte 1") {
		t.Errorf("error %v, want an *sdk.InputError on regions[1].text naming byte 1", err)
	}
}
