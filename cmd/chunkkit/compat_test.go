package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sharedCases is doc2mark's own chunk_content outputs, which the project reads from ../shared
// and does not commit.
const sharedCases = "../../../shared/fixtures/doc2mark/chunk_content_cases.json"

// TestCompatDoc2markMatchesDoc2marksOwnOutputs runs every case of the shared fixture through
// `chunkkit compat doc2mark` and compares the printed chunks with doc2mark's, field by field
// and byte for byte (content_types as a set, as doc2mark computes it from a Python set).
func TestCompatDoc2markMatchesDoc2marksOwnOutputs(t *testing.T) {
	data, err := os.ReadFile(sharedCases)
	if os.IsNotExist(err) {
		t.Skip("doc2mark fixture cases: ../shared not found")
	}
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name   string            `json:"name"`
		Input  json.RawMessage   `json:"input"`
		Config json.RawMessage   `json:"config"`
		Output []json.RawMessage `json:"output_chunks"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 24 {
		t.Fatalf("only %d cases in the fixture", len(cases))
	}
	dir := t.TempDir()
	for i, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			input := filepath.Join(dir, "case.json")
			if err := os.WriteFile(input, tc.Input, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"compat", "doc2mark", input}
			if cfg := string(tc.Config); cfg != "null" && cfg != "" {
				args = append(args, "--config", cfg)
			}
			stdout, stderr, code := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("case %d: exit %d: %s", i, code, stderr)
			}
			var got []map[string]any
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("output is not a JSON array: %v\n%s", err, stdout)
			}
			want := make([]map[string]any, len(tc.Output))
			for j, raw := range tc.Output {
				if err := json.Unmarshal(raw, &want[j]); err != nil {
					t.Fatal(err)
				}
				delete(want[j], "len_chars") // the fixture's own annotation, not a doc2mark field
			}
			for _, chunks := range [][]map[string]any{got, want} {
				for _, c := range chunks {
					if types, ok := c["content_types"].([]any); ok {
						slices.SortFunc(types, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
					}
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("chunks (-doc2mark +chunkkit):\n%s", diff)
			}
		})
	}
}
