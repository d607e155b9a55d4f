package doc2mark_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
)

func TestNotContent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, head string
		want       string // a part of the reason; "" for none
	}{
		{"items", `[{"type": "text:normal", "content": "a"}]`, ""},
		{"no items", `[]`, ""},
		{"an object with content after other fields", `{"pages": 2, "metadata": {"a": [1, {"b": 2}]}, "content": []}`, ""},
		{"content after a BOM", "\uFEFF {\"content\": []}", ""},
		{"malformed", `{"name": `, ""},
		{"empty", ``, ""},
		{"a head cut in a field before content", `{"metadata": "` + strings.Repeat("x", 100), ""},
		{"a package.json", `{"name": "docs", "version": "1.0.0", "private": true, "scripts": {}}`, `a JSON object without json_content's "content" field; its fields: "name", "version", "private", …`},
		{"an empty object", `{}`, "an empty JSON object"},
		{"an array of strings", `["a", "b"]`, "a JSON array of strings"},
		{"an array of arrays", `[[1]]`, "a JSON array of arrays"},
		{"an array of numbers", ` [1]`, "a JSON array of numbers"},
		{"a string", `"text"`, "a JSON string, not json_content"},
		{"a number", `42`, "a JSON number, not json_content"},
		{"a boolean", `true`, "a JSON boolean, not json_content"},
		{"null", `null`, "a JSON null, not json_content"},
	} {
		got := doc2mark.NotContent([]byte(tc.head))
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: NotContent(%q) = %q, want %q", tc.name, tc.head, got, tc.want)
		}
	}
}

// Every json_content doc2mark's own examples hold may be json_content.
func TestNotContentTakesDoc2marksExamples(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(sharedDir(t), "json_content_examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples map[string]json.RawMessage
	if err := json.Unmarshal(src, &examples); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, ex := range examples {
		if _, err := doc2mark.Parse(ex, doc2mark.Options{ID: name}); err != nil {
			continue // provenance notes and shapes doc2mark.Parse does not read
		}
		n++
		if why := doc2mark.NotContent(ex); why != "" {
			t.Errorf("%s: NotContent = %q, want \"\"", name, why)
		}
	}
	if n == 0 {
		t.Fatal("no example is json_content that Parse reads")
	}
}

// FuzzNotContent checks that NotContent leaves out only what Parse refuses: a walk that trusts
// it loses no document.
func FuzzNotContent(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.src))
	}
	for _, s := range []string{`{}`, `{"name": "x"}`, `["a"]`, `null`, `{"pages": 1, "content": []}`, "\uFEFF[]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		why := doc2mark.NotContent(data)
		if why == "" {
			return
		}
		if doc, err := doc2mark.Parse(data, doc2mark.Options{ID: "fuzz"}); err == nil {
			t.Fatalf("NotContent(%q) = %q, but Parse reads it into %d blocks", data, why, len(doc.Blocks))
		}
	})
}
