package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestREADMEExample runs the README's command-line example and compares its output with the
// README's: the file after "$ cat fs.md", and the chunks' fields the jq filter keeps.
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "$ cat fs.md\n")
	if !ok {
		t.Fatal("the README has no \"$ cat fs.md\" example")
	}
	file, rest, ok := strings.Cut(rest, "$ bin/chunkkit chunk fs.md --tokenizer words --format jsonl | jq -c ")
	if !ok {
		t.Fatal("the README's example does not run chunkkit chunk fs.md --tokenizer words --format jsonl | jq -c")
	}
	_, rest, _ = strings.Cut(rest, "\n")
	want, _, _ := strings.Cut(rest, "```")

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fs.md"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	stdout, stderr, code := runCLI(t, "chunk", "fs.md", "--tokenizer", "words", "--format", "jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// jq -c '{id, context, embed_text, content_hash, source_start, source_end, line_start, line_end}'
	keys := []string{"id", "context", "embed_text", "content_hash", "source_start", "source_end", "line_start", "line_end"}
	var got strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		got.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				got.WriteString(",")
			}
			var v bytes.Buffer
			if err := json.Compact(&v, m[k]); err != nil {
				t.Fatal(err)
			}
			got.WriteString(`"` + k + `":` + v.String())
		}
		got.WriteString("}\n")
	}
	if diff := cmp.Diff(want, got.String()); diff != "" {
		t.Errorf("README example output (-README +chunkkit):\n%s", diff)
	}
}

// TestREADMEGoExampleIsExampleHeadingAware checks that the README's Go example is
// ExampleHeadingAware as it stands: every line of the README's snippet is a line of the
// example (its output lines as the example's "// Output:" comment has them).
func TestREADMEGoExampleIsExampleHeadingAware(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../../sdk/chunkers/example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "## Go\n\n```go\n")
	if !ok {
		t.Fatal("the README has no Go example under \"## Go\"")
	}
	snippet, _, _ := strings.Cut(rest, "```")
	have := map[string]bool{}
	for _, line := range strings.Split(string(example), "\n") {
		have[strings.TrimSpace(line)] = true
	}
	n := 0
	for _, line := range strings.Split(snippet, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == "}" || line == "log.Fatal(err)" {
			continue
		}
		if !have[line] {
			t.Errorf("README Go example line %q is not in ExampleHeadingAware", line)
		}
		n++
	}
	if n < 10 {
		t.Errorf("the README's Go example has only %d lines", n)
	}
}
