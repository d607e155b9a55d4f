package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
)

// chunkJSONL runs chunkkit chunk with args and --format jsonl and decodes its chunks.
func chunkJSONL(t *testing.T, args ...string) []sdk.Chunk {
	t.Helper()
	args = append([]string{"chunk", "--format", "jsonl", "--tokenizer", "words"}, args...)
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("chunkkit %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	var chunks []sdk.Chunk
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var c sdk.Chunk
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	if len(chunks) == 0 {
		t.Fatalf("chunkkit %s wrote no chunks", strings.Join(args, " "))
	}
	return chunks
}

func documentIDs(chunks []sdk.Chunk) []string {
	var ids []string
	for _, c := range chunks {
		if len(ids) == 0 || ids[len(ids)-1] != c.DocumentID {
			ids = append(ids, c.DocumentID)
		}
	}
	return ids
}

func TestDocumentIDs(t *testing.T) {
	abs, err := filepath.Abs("../../testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	// The same file however it is spelt on the command line.
	t.Chdir("../../testdata")
	for _, path := range []string{"sample.md", "./sample.md", abs, "../testdata/./sample.md"} {
		chunks := chunkJSONL(t, path)
		if got := documentIDs(chunks); !cmp.Equal(got, []string{"sample.md"}) || chunks[0].ID != "sample.md#0" {
			t.Errorf("%s: document IDs %q, first chunk %q; want [sample.md] and sample.md#0", path, got, chunks[0].ID)
		}
	}
	if got := documentIDs(chunkJSONL(t, "sample.md", "--id", "handbook/v2")); !cmp.Equal(got, []string{"handbook/v2"}) {
		t.Errorf("--id handbook/v2 gives document IDs %q", got)
	}
	src, err := os.ReadFile("sample.md")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(t.Context(), []string{"chunk", "-", "--from", "md", "--tokenizer", "words", "--format", "jsonl"}, bytes.NewReader(src), &out, &errOut); code != 0 {
		t.Fatalf("chunk -: exit %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), `{"id":"stdin#0",`) {
		t.Errorf("standard input's first chunk is %.60s…, want the ID stdin#0", out.String())
	}
	// The format may be named by its extension, as a user who knows the file's is likely to.
	var named bytes.Buffer
	if code := run(t.Context(), []string{"chunk", "-", "--from", "markdown", "--tokenizer", "words", "--format", "jsonl"}, bytes.NewReader(src), &named, &errOut); code != 0 {
		t.Fatalf("chunk - --from markdown: exit %d: %s", code, errOut.String())
	}
	if named.String() != out.String() {
		t.Errorf("--from markdown gives other chunks than --from md")
	}
}

func TestDocumentIDsOfADirectory(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.md", "a/one.md", "a/two.txt", "notes.xyz"} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("# "+name+"\n\nSome text about "+name+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"a/one.md", "a/two.txt", "b.md"} // lexical, relative to the directory; notes.xyz has no format
	for _, arg := range []string{dir, dir + "/", filepath.Join(dir, ".")} {
		if got := documentIDs(chunkJSONL(t, arg)); !cmp.Equal(got, want) {
			t.Errorf("%s: document IDs %q, want %q", arg, got, want)
		}
	}
}

// TestRechunkingIsStable chunks the same file twice, under two spellings of its path, and
// wants the same IDs and content hashes: a pipeline upserts by ID and skips known hashes.
func TestRechunkingIsStable(t *testing.T) {
	a := chunkJSONL(t, "../../testdata/sample.md", "--max-tokens", "64")
	b := chunkJSONL(t, "./../../testdata/sample.md", "--max-tokens", "64")
	type key struct{ ID, Hash string }
	keys := func(cs []sdk.Chunk) []key {
		var out []key
		for _, c := range cs {
			out = append(out, key{c.ID, c.ContentHash})
		}
		return out
	}
	if diff := cmp.Diff(keys(a), keys(b)); diff != "" {
		t.Errorf("re-chunking changed IDs or hashes (-first +second):\n%s", diff)
	}
	seen := map[string]bool{}
	for _, c := range a {
		sum := sha256.Sum256([]byte(c.EmbedText))
		if c.ContentHash != hex.EncodeToString(sum[:]) || c.EmbedText == "" {
			t.Errorf("chunk %s: content_hash %q is not the SHA-256 of its embed_text %q", c.ID, c.ContentHash, c.EmbedText)
		}
		if seen[c.ID] {
			t.Errorf("chunk ID %s twice", c.ID)
		}
		seen[c.ID] = true
	}
}

// TestJSONLSourcePositions checks the positions the JSONL gives against the file, for
// Markdown and plain text, with CRLF endings too.
func TestJSONLSourcePositions(t *testing.T) {
	src, err := os.ReadFile("../../testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	crlf := filepath.Join(dir, "crlf.md")
	if err := os.WriteFile(crlf, []byte(strings.ReplaceAll(string(src), "\n", "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		args []string
	}{
		{"Markdown", "../../testdata/sample.md", nil},
		{"Markdown with CRLF endings", crlf, nil},
		{"plain text", "../../testdata/sample.md", []string{"--from", "txt"}},
		{"Markdown in small chunks with overlap", "../../testdata/sample.md", []string{"--max-tokens", "24", "--overlap-tokens", "6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, err := os.ReadFile(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			chunks := chunkJSONL(t, append([]string{tc.path}, tc.args...)...)
			conformance.SourceMapping(t, file, chunks)
		})
	}
}
