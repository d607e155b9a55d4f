package doc2mark_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

// fixtureCase is one case of a chunk_content case file: doc2mark's own
// (../shared/fixtures/doc2mark/chunk_content_cases.json) or ours (testdata/cases.json,
// testdata/tokens.json). len_chars, present in doc2mark's file, is not decoded.
type fixtureCase struct {
	Name   string           `json:"name"`
	Why    string           `json:"why"`
	Note   string           `json:"note"`
	Input  json.RawMessage  `json:"input"`
	Config json.RawMessage  `json:"config"`
	Want   []doc2mark.Chunk `json:"output_chunks"`
}

// readCases reads a case file: a bare list, or an object with "cases".
func readCases(t testing.TB, path string) []fixtureCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []fixtureCase
	if len(data) > 0 && data[0] == '[' {
		err = json.Unmarshal(data, &cases)
	} else {
		var file struct {
			Cases []fixtureCase `json:"cases"`
		}
		err = json.Unmarshal(data, &file)
		cases = file.Cases
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

// sharedDir returns ../shared/fixtures/doc2mark (relative to the module root) or skips.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("doc2mark's own cases: ../shared not found (no go.mod above the package)")
		}
		dir = parent
	}
	fixtures := filepath.Join(dir, "..", "shared", "fixtures", "doc2mark")
	if _, err := os.Stat(fixtures); err != nil {
		t.Skip("doc2mark's own cases: ../shared not found")
	}
	return fixtures
}

// setTypes sorts every chunk's content types: doc2mark's come from a Python set.
func setTypes(chunks []doc2mark.Chunk) []doc2mark.Chunk {
	out := slices.Clone(chunks)
	for i := range out {
		out[i].ContentTypes = slices.Sorted(slices.Values(out[i].ContentTypes))
		if out[i].ContentTypes == nil {
			out[i].ContentTypes = []string{}
		}
		if out[i].SectionHierarchy == nil {
			out[i].SectionHierarchy = []string{}
		}
	}
	return out
}

// counters returns the in-process tiktoken counter for a tokenizer spec.
func counters(t testing.TB) doc2mark.CounterFunc {
	return func(_ context.Context, spec string) (sdk.TokenCounter, error) {
		enc, ok := strings.CutPrefix(spec, "tiktoken:")
		if !ok {
			t.Fatalf("unexpected tokenizer spec %q", spec)
		}
		return tiktoken.New(enc, tiktoken.Fast)
	}
}

// rawAsValue compares raw JSON by the value it holds: marshalling compacts it and escapes
// HTML characters.
var rawAsValue = cmp.Transformer("json", func(r json.RawMessage) any {
	var v any
	if err := json.Unmarshal(r, &v); err != nil {
		return "invalid JSON: " + string(r)
	}
	return v
})

func ptr[T any](v T) *T { return &v }

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
