package doc2mark_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/sdk"
)

var parseCases = []struct {
	name string
	src  string
	want *doc2mark.Content
}{
	{
		name: "a list of items gives its items with their optional keys",
		src: `[{"type": "text:list", "content": "- a", "page": 3, "position_y": 12.5, "level": 1,
		        "marker": "-", "list_level": 0, "mime_type": "text/plain"}]`,
		want: &doc2mark.Content{Items: []doc2mark.Item{{
			Type: "text:list", Content: "- a", Page: ptr(3), PositionY: ptr(12.5), Level: ptr(1),
			Marker: ptr("-"), ListLevel: ptr(0), MimeType: ptr("text/plain"),
		}}},
	},
	{
		name: "the pages wrapper gives its page count and keeps its other keys",
		src:  `{"pages": 5, "content": [{"type": "text:normal", "content": "x"}], "source": "a.pdf"}`,
		want: &doc2mark.Content{
			Items: []doc2mark.Item{{Type: "text:normal", Content: "x"}},
			Pages: ptr(5),
			Extra: map[string]json.RawMessage{"source": json.RawMessage(`"a.pdf"`)},
		},
	},
	{
		name: "an empty list gives no items",
		src:  ` [ ] `,
		want: &doc2mark.Content{Items: []doc2mark.Item{}},
	},
	{
		name: "null optional keys are absent",
		src:  `[{"type": "image", "content": "QUJD", "page": null, "mime_type": null}]`,
		want: &doc2mark.Content{Items: []doc2mark.Item{{Type: "image", Content: "QUJD"}}},
	},
	{
		name: "unknown keys and optional keys of another type are kept as written",
		src:  `[{"type": "text:normal", "content": "x", "bbox": [1, 2], "position_y": "<top ~27>", "level": "2"}]`,
		want: &doc2mark.Content{Items: []doc2mark.Item{{Type: "text:normal", Content: "x", Extra: map[string]json.RawMessage{
			"bbox": json.RawMessage(`[1, 2]`), "position_y": json.RawMessage(`"<top ~27>"`), "level": json.RawMessage(`"2"`),
		}}}},
	},
	{
		name: "a repeated key keeps its last value as Python does",
		src:  `[{"type": "x", "content": "a", "content": "b", "level": "one", "level": 2}]`,
		want: &doc2mark.Content{Items: []doc2mark.Item{{Type: "x", Content: "b", Level: ptr(2)}}},
	},
	{
		name: "a byte order mark is skipped",
		src:  "\uFEFF[{\"type\": \"text:normal\", \"content\": \"x\"}]",
		want: &doc2mark.Content{Items: []doc2mark.Item{{Type: "text:normal", Content: "x"}}},
	},
}

func TestParseContentReadsJSONContent(t *testing.T) {
	t.Parallel()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := doc2mark.ParseContent([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseContent (-want +got):\n%s", diff)
			}
		})
	}
}

var parseErrorCases = []struct {
	name    string
	src     string
	field   string
	offset  int
	problem string // a part of the message
}{
	{"malformed JSON names the line and column", "[\n {\"type\": \"x\", \"content\": \"a\"},\n {\"type\" \"x\"}\n]", "item[1].type", 43, "expected colon after object key (line 3, column 10)"},
	{"an item without type names the item and the field", `[{"type": "x", "content": "a"}, {"content": "b"}]`, "item[1].type", 32, `no "type"`},
	{"an item without content names the item and the field", `[{"type": "text:normal"}]`, "item[0].content", 1, `no "content"`},
	{"content that is a list of rows is refused", `[{"type": "table", "content": [["a", "b"]]}]`, "item[0].content", 30, "want a string, got a list"},
	{"content that is null is refused", `[{"type": "text:normal", "content": null}]`, "item[0].content", 36, "want a string, got null"},
	{"a type that is not a string is refused", `[{"type": 3, "content": "x"}]`, "item[0].type", 10, "want a string, got the number 3"},
	{"a page with a fraction is refused", `[{"type": "x", "content": "x", "page": 1.0}]`, "item[0].page", 39, "want an integer, got the number 1.0"},
	{"a page that is a string is refused", `[{"type": "x", "content": "x", "page": "3"}]`, "item[0].page", 39, "want an integer, got a string"},
	{"an item that is not an object is refused", `[{"type": "x", "content": "x"}, "text"]`, "item[1]", 32, "want an object"},
	{"a top-level string is refused", `"hello"`, "", 0, "want a list of items"},
	{"a wrapper without content is refused", `{"pages": 2}`, "content", 11, `no "content"`},
	{"a wrapper whose content is not a list is refused", `{"content": {"type": "x"}}`, "content", 12, "want a list of items, got an object"},
	{"a wrapper page count that is not an integer is refused", `{"pages": "2", "content": []}`, "pages", 10, "want an integer"},
	{"empty input is refused", "  \n", "", 3, "no JSON value"},
	{"data after the value is refused", `[] []`, "", 3, "unexpected data after"},
	{"a comma after the value is refused", `[],`, "", 2, "unexpected data after"},
	{"a colon after the wrapper is refused", `{"content": []} :`, "", 16, "unexpected data after"},
	{"a comma after items is refused", `[{"type": "text:normal", "content": "a"}] ,`, "", 42, "unexpected data after"},
	{"an unterminated list is refused", `[{"type": "x", "content": "x"}`, "", 30, "unexpected end of input"},
	{"invalid UTF-8 names its byte", "[{\"type\": \"x\", \"content\": \"\xff\"}]", "", 27, "invalid UTF-8 (byte 0xff) (line 1, column 28)"},
}

func TestParseContentErrorsSayWhereAndWhat(t *testing.T) {
	t.Parallel()
	for _, tc := range parseErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := doc2mark.ParseContent([]byte(tc.src))
			if !errors.Is(err, sdk.ErrInvalidInput) {
				t.Fatalf("error %v does not match sdk.ErrInvalidInput", err)
			}
			var ie *sdk.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *sdk.InputError", err)
			}
			if ie.Field != tc.field || ie.Offset != tc.offset || !strings.Contains(ie.Problem, tc.problem) {
				t.Errorf("got field %q offset %d problem %q, want field %q offset %d problem containing %q",
					ie.Field, ie.Offset, ie.Problem, tc.field, tc.offset, tc.problem)
			}
		})
	}
}

func TestParseErrorsNameTheDocument(t *testing.T) {
	t.Parallel()
	_, err := doc2mark.Parse([]byte(`[{"type": "x"}]`), doc2mark.Options{ID: "report.json"})
	if err == nil || !strings.Contains(err.Error(), `document "report.json" field item[0].content at byte 1`) {
		t.Errorf("Parse error = %v, want it to name the document, the field and the byte", err)
	}
}

func TestItemsMarshalBackToWhatWasParsed(t *testing.T) {
	t.Parallel()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data, err := json.Marshal(tc.want.Items)
			if err != nil {
				t.Fatal(err)
			}
			got, err := doc2mark.ParseItems(data)
			if err != nil {
				t.Fatalf("ParseItems(%s): %v", data, err)
			}
			if diff := cmp.Diff(tc.want.Items, got, rawAsValue); diff != "" {
				t.Errorf("round trip through %s (-want +got):\n%s", data, diff)
			}
		})
	}
}

// TestParseReadsEveryShapeDoc2markWrites parses the item shapes of json_content_examples.json
// (per source format: PDF, DOCX, PPTX, XLSX, image files).
func TestParseReadsEveryShapeDoc2markWrites(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(sharedDir(t), "json_content_examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples map[string]json.RawMessage
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	tried := 0
	for name, raw := range examples {
		var src []byte
		switch raw[0] {
		case '[':
			src = raw
		case '{':
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(raw, &probe); err != nil {
				t.Fatal(err)
			}
			if _, wrapper := probe["content"]; wrapper && probe["type"] == nil {
				src = raw
			} else {
				src = append(append([]byte("["), raw...), ']') // a single item
			}
		default:
			continue // a note
		}
		tried++
		t.Run(name, func(t *testing.T) {
			doc, err := doc2mark.Parse(src, doc2mark.Options{ID: name})
			if err != nil {
				t.Fatal(err)
			}
			if err := doc.Validate(); err != nil {
				t.Errorf("the document is not valid: %v", err)
			}
			items, _ := doc2mark.ParseItems(src)
			if len(doc.Blocks) != len(items) || len(items) == 0 {
				t.Errorf("%d blocks for %d items, want one per item", len(doc.Blocks), len(items))
			}
		})
	}
	if tried < 8 {
		t.Errorf("only %d examples looked like json_content", tried)
	}
}
