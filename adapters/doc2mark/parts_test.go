package doc2mark_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/sdk"
)

// checkParts holds ParseParts, its parts joined, to Parse: the same document and blocks, or
// the same error (from ParseParts or from its parts). It returns how many parts it made.
func checkParts(t testing.TB, name string, data []byte, partBytes int) int {
	t.Helper()
	opts := doc2mark.Options{ID: "doc.json"}
	want, werr := doc2mark.Parse(data, opts)
	got, parts, gerr := doc2mark.ParseParts(data, opts, partBytes)
	n := 0
	if gerr == nil {
		got.Blocks = []sdk.Block{}
		for part, err := range parts {
			if err != nil {
				gerr = err
				break
			}
			n++
			got.Blocks = append(got.Blocks, part.Blocks...)
		}
	}
	if werr != nil || gerr != nil {
		if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
			t.Fatalf("%s: Parse error %v, ParseParts error %v", name, werr, gerr)
		}
		return n
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: ParseParts at %d bytes a part differs from Parse (-Parse +ParseParts):\n%s", name, partBytes, diff)
	}
	return n
}

// TestParsePartsIsParse holds ParseParts to Parse on every input the tests have, good and bad,
// and on a long one, at parts as small as can be and of a few kilobytes.
func TestParsePartsIsParse(t *testing.T) {
	t.Parallel()
	inputs := map[string]string{}
	for _, tc := range parseCases {
		inputs["case "+tc.name] = tc.src
	}
	for _, tc := range parseErrorCases {
		inputs["error "+tc.name] = tc.src
	}
	for _, tc := range readCases(t, filepath.Join("testdata", "cases.json")) {
		inputs["fixture "+tc.Name] = string(tc.Input)
	}
	var long strings.Builder
	long.WriteString(`{"pages": 3, "content": [`)
	for i := range 2000 {
		if i > 0 {
			long.WriteString(",")
		}
		typ := []string{"text:normal", "text:section", "text:list", "table", "text:title"}[i%5]
		fmt.Fprintf(&long, `{"type": %q, "content": "item %d \u00e9 %s", "page": %d}`, typ, i, strings.Repeat("text ", i%30), 1+i/100)
	}
	long.WriteString(`], "source": "x.pdf"}`)
	inputs["a long wrapper"] = long.String()
	inputs["a long list"] = strings.TrimSuffix(strings.TrimPrefix(long.String(), `{"pages": 3, "content": `), `, "source": "x.pdf"}`)
	for name, src := range map[string]string{
		"an empty title, then one":    `[{"type": "text:title", "content": ""}, {"type": "text:title", "content": "T"}]`,
		"content twice":               `{"content": [{"type": "x", "content": "a"}], "content": [{"type": "y", "content": "b"}]}`,
		"keys after the content":      `{"content": [{"type": "x", "content": "a"}], "pages": 2, "k": [1]}`,
		"a bad item after the title":  `[{"type": "text:title", "content": "T"}, {"type": "x", "content": 1}]`,
		"data after the list":         `[{"type": "x", "content": "a"}] []`,
		"a byte order mark":           "\uFEFF[{\"type\": \"x\", \"content\": \"a\"}]",
		"a null item":                 `[{"type": "x", "content": "a"}, null]`,
		"the wrapper without content": `{"pages": 1}`,
		"content that is not a list":  `{"content": {"type": "x"}}`,
		"invalid UTF-8":               "[{\"type\": \"x\", \"content\": \"\xff\"}]",
		"a title after many items":    `[` + strings.Repeat(`{"type": "x", "content": "a"},`, 300) + `{"type": "text:title", "content": "Late"}]`,
		"an empty list":               `[]`,
		"nothing":                     ``,
	} {
		inputs[name] = src
	}
	cut := 0
	for name, src := range inputs {
		for _, size := range []int{1, 4096, -1, 0} {
			if n := checkParts(t, name, []byte(src), size); size == 1 {
				cut += max(n-1, 0)
			}
		}
	}
	if cut < 2000 {
		t.Fatalf("ParseParts made %d cuts in all, want one after every item at a byte a part", cut)
	}
}
