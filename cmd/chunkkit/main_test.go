package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Regenerate the golden files with: go test ./cmd/chunkkit -run TestChunkGolden -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestChunkGolden(t *testing.T) {
	for _, tc := range []struct {
		name   string
		golden string
		args   []string
	}{
		{"the sample chunks along its headings", "sample-heading.txt",
			[]string{"chunk", "../../testdata/sample.md", "--tokenizer", "words", "--max-tokens", "128", "--overlap-tokens", "16", "-n", "-1"}},
		{"the sample in fixed windows", "sample-fixed.txt",
			[]string{"chunk", "../../testdata/sample.md", "--tokenizer", "runes", "--strategy", "fixed", "--max-tokens", "256", "--overlap-tokens", "32", "-n", "6"}},
		{"the sample through the tiktoken plugin, the default tokenizer", "sample-tiktoken.txt",
			[]string{"chunk", "../../testdata/sample.md", "--max-tokens", "128", "--overlap-tokens", "16", "-n", "-1"}},
		{"the sample without chunking", "sample-noop.txt",
			[]string{"chunk", "../../testdata/sample.md", "--tokenizer", "words", "--strategy", "noop", "-n", "4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), stdout); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChunkJSONLCarriesEveryField(t *testing.T) {
	stdout, stderr, code := runCLI(t, "chunk", "../../testdata/sample.md", "--tokenizer", "words",
		"--format", "jsonl", "--tenant", "acme", "--corpus", "handbooks", "--acl", "staff,keepers", "--max-tokens", "64")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fields := []string{"id", "position", "parent_id", "kind", "level", "content", "token_count", "section_path",
		"section_title", "page_start", "page_end", "content_types", "start", "end", "tenant_id", "corpus_id",
		"document_id", "acl_labels", "metadata", "context", "embed_text", "content_hash",
		"source_start", "source_end", "line_start", "line_end"}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		for _, f := range fields {
			if _, ok := m[f]; !ok {
				t.Errorf("line %d has no %q", n+1, f)
			}
		}
		if m["tenant_id"] != "acme" || m["corpus_id"] != "handbooks" || !cmp.Equal(m["acl_labels"], []any{"staff", "keepers"}) {
			t.Errorf("line %d identity: %v %v %v", n+1, m["tenant_id"], m["corpus_id"], m["acl_labels"])
		}
		if tc := m["token_count"].(float64); m["kind"] == "body" && tc > 64 {
			t.Errorf("line %d: %v tokens over the budget of 64", n+1, tc)
		}
		n++
	}
	if n < 10 {
		t.Errorf("only %d chunks", n)
	}
}

func TestChunkRejectsBadInputClearly(t *testing.T) {
	dir := t.TempDir()
	badUTF8 := filepath.Join(dir, "bad.md")
	if err := os.WriteFile(badUTF8, []byte("# Title\n\nfine text\n\nbad \xff byte\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "notes.xyz")
	if err := os.WriteFile(odd, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"invalid UTF-8 names the file and the byte", []string{"chunk", badUTF8}, 1, []string{badUTF8, "invalid UTF-8", "byte 24"}},
		{"a missing file names it", []string{"chunk", filepath.Join(dir, "absent.md")}, 1, []string{"absent.md", "no such file"}},
		{"an unknown extension asks for --from", []string{"chunk", odd}, 1, []string{odd, "--from"}},
		{"an unknown tokenizer lists the known ones", []string{"chunk", "../../testdata/sample.md", "--tokenizer", "nope"}, 1, []string{`"nope"`, "known"}},
		{"an unknown strategy lists the known ones", []string{"chunk", "../../testdata/sample.md", "--tokenizer", "words", "--strategy", "nope"}, 1, []string{`"nope"`, "heading"}},
		{"overlap at the budget is refused", []string{"chunk", "../../testdata/sample.md", "--tokenizer", "words", "--max-tokens", "8", "--overlap-tokens", "8"}, 1, []string{"OverlapTokens (8) must be less than MaxTokens (8)"}},
		{"no file is a usage error", []string{"chunk"}, 2, []string{"want one FILE, DIR or -"}},
		{"--id with two documents is a usage error", []string{"chunk", "../../testdata/sample.md", "../../testdata/sample.md", "--id", "x"}, 2, []string{"--id names one document"}},
		{"standard input without --from asks for it", []string{"chunk", "-"}, 1, []string{"standard input", "--from"}},
		{"an unknown context mode lists the known ones", []string{"chunk", "../../testdata/sample.md", "--tokenizer", "words", "--context", "nope"}, 1, []string{`"nope"`, "title+path"}},
		{"an unknown command is a usage error", []string{"frobnicate"}, 2, []string{`unknown command "frobnicate"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			for _, s := range tc.contains {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q does not contain %q", stderr, s)
				}
			}
			if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
				t.Errorf("stderr holds a stack trace: %s", stderr)
			}
		})
	}
}

func jsonUnmarshal(line string, v any) error { return json.Unmarshal([]byte(line), v) }
