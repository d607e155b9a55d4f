package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

// decodeChunks reads JSONL chunks.
func decodeChunks(t *testing.T, jsonl string) []sdk.Chunk {
	t.Helper()
	var out []sdk.Chunk
	sc := bufio.NewScanner(strings.NewReader(jsonl))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c sdk.Chunk
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%v: %.80s", err, sc.Text())
		}
		out = append(out, c)
	}
	return out
}

// withoutIDs blanks the fields that carry the document ID, which differs between a file
// chunked by itself (its base name) and under a directory (its relative path).
func withoutIDs(chunks []sdk.Chunk) []sdk.Chunk {
	out := make([]sdk.Chunk, len(chunks))
	for i, c := range chunks {
		c.ID, c.DocumentID = "", ""
		if c.ParentID != "" {
			c.ParentID = "parent#" + c.ParentID[strings.LastIndexByte(c.ParentID, '#')+1:]
		}
		out[i] = c
	}
	return out
}

func TestChunkDirGivesTheChunksOfOneRunPerFile(t *testing.T) {
	dir := "../../bench/corpus/corpora"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []sdk.Chunk
	for _, e := range entries {
		want = append(want, withoutIDs(chunkJSONL(t, filepath.Join(dir, e.Name()), "--max-tokens", "64"))...)
	}
	for _, j := range []string{"1", "2", "7"} {
		t.Run("with -j "+j, func(t *testing.T) {
			got := chunkJSONL(t, dir, "--max-tokens", "64", "-j", j)
			if diff := cmp.Diff(want, withoutIDs(got)); diff != "" {
				t.Errorf("chunk DIR differs from one chunk FILE per file (-want +got):\n%s", diff)
			}
			if got[0].DocumentID != entries[0].Name() {
				t.Errorf("first document ID %q, want %q", got[0].DocumentID, entries[0].Name())
			}
		})
	}
}

func TestChunkDefaultsToJSONLForSeveralDocumentsAndWritesOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "chunks.jsonl")
	stdout, stderr, code := runCLI(t, "chunk", "../../bench/corpus/corpora", "--tokenizer", "words", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("with --out, standard output holds %.100q", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if chunks := decodeChunks(t, string(data)); len(chunks) < 13 {
		t.Errorf("--out holds %d chunks", len(chunks))
	}
	// Text output of several documents ends with the totals, per corpus.
	stdout, stderr, code = runCLI(t, "chunk", "../../bench/corpus/corpora/tea-guide.md", "../../testdata/sample.md", "--tokenizer", "words", "--format", "text", "-n", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "tea-guide.md: ") || !strings.Contains(stdout, "sample.md: ") || !strings.Contains(stdout, "\n2 documents, ") {
		t.Errorf("text output of two documents:\n%s", stdout)
	}
}

// The --out file is never read as an input: named as a FILE it is refused before os.Create
// empties it (the run read it empty, and wrote over the document), and below a DIR, or named
// by a stream's "path", the run leaves it out, saying so, rather than chunk what it is writing,
// whether the file is there before the run or made by it. (Read, it is empty until the first 256 KiB of
// output are flushed; the text output names every document read, even one without chunks.)
func TestChunkOutIsNeverAnInput(t *testing.T) {
	dir := t.TempDir()
	doc, out := filepath.Join(dir, "doc.md"), filepath.Join(dir, "a.md")
	if err := os.WriteFile(doc, []byte("# Doc\n\nbody"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "chunk", doc, "--out", filepath.Join(dir, ".", "doc.md"))
	if data, _ := os.ReadFile(doc); code != 2 || !strings.Contains(stderr, "is the input "+doc+": it would be emptied before it is read") || string(data) != "# Doc\n\nbody" {
		t.Errorf("--out FILE: exit %d, stderr %q, the file now %q; want 2, the error, the file as it was", code, stderr, data)
	}
	// A folder given as --out, an input or not, is os.Create's error, named as --out's.
	if _, stderr, code := runCLI(t, "chunk", dir, "--out", dir); code != 1 || !strings.Contains(stderr, "--out: open "+dir+": is a directory") {
		t.Errorf("--out DIR: exit %d, stderr %q; want 1 and --out's error", code, stderr)
	}
	stream := filepath.Join(dir, "docs.jsonl")
	if err := os.WriteFile(stream, []byte(fmt.Sprintf("{\"path\": %q}\n{\"path\": %q}\n", out, doc)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct{ what, arg, from, doc, outDoc, note string }{
		{"DIR, the --out file made by the run", dir, "", "doc.md: ", "a.md: ", out},
		{"DIR, the --out file there before it", dir, "", "doc.md: ", "a.md: ", out},
		{"a stream naming the --out file", stream, "jsonl", "docs.jsonl:2: ", "docs.jsonl:1: ", out + " (" + stream + ":1)"},
	} {
		args := []string{"chunk", run.arg, "--tokenizer", "words", "--format", "text", "--out", out}
		if run.from != "" {
			args = append(args, "--from", run.from)
		}
		stdout, stderr, code := runCLI(t, args...)
		if code != 0 || stdout != "" {
			t.Fatalf("%s: exit %d, stderr %q", run.what, code, stderr)
		}
		if want := "chunkkit chunk: left out " + run.note + ", the --out file: the run is writing it.\n"; stderr != want {
			t.Errorf("%s: stderr %q, want %q", run.what, stderr, want)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), run.doc+"2 blocks") || strings.Contains(string(data), run.outDoc) || strings.Contains(string(data), "2 documents") {
			t.Errorf("%s: the output\n%s\nwant %s's only, not %s's", run.what, data, run.doc, run.outDoc)
		}
	}
}

// jsonlDocs returns n small documents as a JSONL stream, each naming its corpus.
func jsonlDocs(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		text := fmt.Sprintf("# Note %d\n\nThis is note number %d. It has two sentences.", i, i)
		b, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("note-%05d", i), "text": text, "corpus": fmt.Sprintf("c%d", i%3)})
		lines[i] = string(b)
	}
	return lines
}

// TestChunkStreamsAJSONLStreamInOrder feeds 10,000 documents through a pipe and reads the
// output as it comes: the first document's chunks must be out before the last document is
// written (so memory is bounded by the documents in flight), and every document comes out
// once, in input order.
func TestChunkStreamsAJSONLStreamInOrder(t *testing.T) {
	const n = 10_000
	docs := jsonlDocs(n)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	firstOut := make(chan struct{})
	go func() {
		defer inW.Close()
		for i, d := range docs {
			if i == n-1 {
				select {
				case <-firstOut:
				case <-time.After(30 * time.Second):
					t.Error("no chunk was written before the last document was read")
				}
			}
			if _, err := io.WriteString(inW, d+"\n"); err != nil {
				return
			}
		}
	}()
	code := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		code <- run(context.Background(), []string{"chunk", "-", "--from", "jsonl", "--tokenizer", "words", "-j", "2"}, inR, outW, &errOut)
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	next, seen := 0, 0
	for sc.Scan() {
		var c sdk.Chunk
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if seen == 0 {
			close(firstOut)
		}
		seen++
		want := fmt.Sprintf("note-%05d", next)
		if c.DocumentID != want {
			if c.DocumentID != fmt.Sprintf("note-%05d", next+1) {
				t.Fatalf("chunk %d is of %s, want %s or the next", seen, c.DocumentID, want)
			}
			next++
		}
		if c.CorpusID != fmt.Sprintf("c%d", next%3) {
			t.Fatalf("%s: corpus %q", c.DocumentID, c.CorpusID)
		}
	}
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s", c, errOut.String())
	}
	if next != n-1 {
		t.Errorf("the last chunk is of document %d, want %d", next, n-1)
	}
}

func TestChunkKeepGoingRecordsFailuresAndGoesOn(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "# A\n\nfirst")
	write("b.json", "{not json")
	write("c.md", "# C\n\nthird")
	write("d.md", "# D\n\nbad \xff byte")

	_, stderr, code := runCLI(t, "chunk", dir, "--tokenizer", "words")
	if code != 1 || !strings.Contains(stderr, "b.json") || !strings.Contains(stderr, "--keep-going records failures and goes on") {
		t.Errorf("without --keep-going: exit %d, %q; want 1 naming b.json and saying how to go on", code, stderr)
	}
	if first, _, _ := strings.Cut(stderr, "\n"); !strings.HasPrefix(first, "chunkkit: "+filepath.Join(dir, "b.json")+": invalid input") || strings.Count(first, "chunkkit: ") != 1 {
		t.Errorf("the error is %q, want one chunkkit: before the file and its problem", first)
	}

	stdout, stderr, code := runCLI(t, "chunk", dir, "--tokenizer", "words", "--keep-going")
	if code != 1 {
		t.Errorf("--keep-going with failures: exit %d, want 1", code)
	}
	if got := documentIDs(decodeChunks(t, stdout)); !cmp.Equal(got, []string{"a.md", "c.md"}) {
		t.Errorf("documents written: %q, want a.md and c.md", got)
	}
	for _, want := range []string{"2 of 4 documents failed", "document 2: " + filepath.Join(dir, "b.json"), "document 4: " + filepath.Join(dir, "d.md"), "invalid UTF-8"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("summary lacks %q:\n%s", want, stderr)
		}
	}
}

// In a stream's failures the line comes first: a "path" that cannot be read names the line
// that gave it (the open error alone named only the file), and a document ID that an earlier
// line has already is refused, naming that line, rather than giving its chunks the IDs of the
// earlier document's.
func TestChunkStreamFailuresNameTheLine(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.md")
	if err := os.WriteFile(a, []byte("# A\n\nfirst"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.md")
	stream := filepath.Join(dir, "docs.jsonl")
	lines := fmt.Sprintf("{\"id\": \"a\", \"path\": %q}\n{\"path\": %q}\n{\"id\": \"a\", \"text\": \"# again\"}\n{\"id\": \"b\", \"text\": \"# B\"}\n", a, missing)
	if err := os.WriteFile(stream, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "chunk", stream, "--from", "jsonl", "--tokenizer", "words", "--keep-going")
	if got := documentIDs(decodeChunks(t, stdout)); code != 1 || !cmp.Equal(got, []string{"a", "b"}) {
		t.Errorf("exit %d, documents %q; want 1, a and b", code, got)
	}
	for _, want := range []string{
		"2 of 4 documents failed",
		"document 2: " + stream + ":2: open " + missing + ": no such file or directory",
		"document 3: " + stream + `:3: document ID "a" is already line 1's`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("summary lacks %q:\n%s", want, stderr)
		}
	}

	// Across the streams of one run, too.
	second := filepath.Join(dir, "more.jsonl")
	if err := os.WriteFile(second, []byte(`{"id": "c", "text": "# C"}`+"\n"+`{"id": "b", "text": "# B again"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runCLI(t, "chunk", stream, second, "--from", "jsonl", "--tokenizer", "words", "--keep-going")
	if got := documentIDs(decodeChunks(t, stdout)); code != 1 || !cmp.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("two streams: exit %d, documents %q; want 1, a, b and c", code, got)
	}
	if want := "document 6: " + second + `:2: document ID "b" is already ` + stream + `:4's`; !strings.Contains(stderr, want) {
		t.Errorf("two streams: summary lacks %q:\n%s", want, stderr)
	}
}

// A directory is chunked whole though files of its walk share an extension with a format
// they are not in: a package.json or a corpus's MANIFEST.tsv is left out and named on standard
// error, not read as doc2mark or Tesseract (which failed the run), and so is a tree of them,
// named up to a limit and then counted; a malformed one is still read, and fails.
func TestChunkDirLeavesOutFilesNotInTheirExtensionsFormat(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "# A\n\nfirst")
	write("MANIFEST.tsv", "path\tbytes\na.md\t12\n")
	write("package.json", `{"name": "docs", "version": "1.0.0"}`)
	write("content.json", `{"pages": 1, "content": [{"type": "text:normal", "content": "from doc2mark"}]}`)

	stdout, stderr, code := runCLI(t, "chunk", dir, "--tokenizer", "words")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q; want 0", code, stderr)
	}
	if got := documentIDs(decodeChunks(t, stdout)); !cmp.Equal(got, []string{"a.md", "content.json"}) {
		t.Errorf("documents written: %q, want a.md and content.json", got)
	}
	for _, want := range []string{
		"left out " + filepath.Join(dir, "MANIFEST.tsv") + ", its first line is neither Tesseract's TSV header",
		"left out " + filepath.Join(dir, "package.json") + `, a JSON object without json_content's "content" field; its fields: "name", "version". Give the file by itself to read it as doc2mark anyway`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	// Named by itself, the file is read in its extension's format, and fails as such.
	if _, stderr, code := runCLI(t, "chunk", filepath.Join(dir, "package.json"), "--tokenizer", "words"); code != 1 || !strings.Contains(stderr, `no "content" list of items`) {
		t.Errorf("package.json by itself: exit %d, %q; want 1 and doc2mark's error", code, stderr)
	}

	for i := range 12 {
		write(fmt.Sprintf("node_modules/p%02d/package.json", i), `{"name": "p"}`)
	}
	_, stderr, code = runCLI(t, "chunk", dir, "--tokenizer", "words")
	if code != 0 || strings.Count(stderr, "left out ") != leftOutShown+1 || !strings.Contains(stderr, "left out 14 in all (10 named above): 14 files not in their extension's format") {
		t.Errorf("a tree of package.json files: exit %d, stderr:\n%s\nwant 0, %d named and the count", code, stderr, leftOutShown)
	}

	write("broken.json", `{"content": [`)
	if _, stderr, code := runCLI(t, "chunk", dir, "--tokenizer", "words"); code != 1 || !strings.Contains(stderr, "broken.json") {
		t.Errorf("malformed JSON: exit %d, %q; want 1 naming broken.json", code, stderr)
	}
}

// A directory's walk reads a link to a file as the file but does not follow a link to a
// directory, here one that loops back up: it is named on standard error, with how to chunk what
// it links to, and the run goes on (with --from too, where it failed the run as a directory
// read as a file). A directory given as a link is walked. The notes share the limit of the
// left-out files, and the count at the end says which are which.
func TestChunkDirLeavesOutLinksToDirectories(t *testing.T) {
	outer := t.TempDir()
	for name, s := range map[string]string{"docs/a.md": "# A\n\nfirst", "other/b.md": "# B\n\nsecond"} {
		p := filepath.Join(outer, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs := filepath.Join(outer, "docs")
	for link, target := range map[string]string{"docs/loop": ".", "docs/b.md": "../other/b.md", "other.link": "other"} {
		if err := os.Symlink(target, filepath.Join(outer, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, from := range [][]string{nil, {"--from", "md"}} {
		stdout, stderr, code := runCLI(t, append([]string{"chunk", docs, "--tokenizer", "words"}, from...)...)
		if code != 0 {
			t.Fatalf("chunk DIR %q: exit %d, stderr %q; want 0", from, code, stderr)
		}
		if got := documentIDs(decodeChunks(t, stdout)); !cmp.Equal(got, []string{"a.md", "b.md"}) {
			t.Errorf("chunk DIR %q: documents %q, want a.md and b.md (the linked file)", from, got)
		}
		want := "chunkkit chunk: left out " + filepath.Join(docs, "loop") + ", a symbolic link to a directory: a walk does not follow them"
		if !strings.Contains(stderr, want) || strings.Count(stderr, "left out") != 1 {
			t.Errorf("chunk DIR %q: stderr\n%s\nwant one note: %s", from, stderr, want)
		}
	}
	stdout, stderr, code := runCLI(t, "chunk", filepath.Join(outer, "other.link"), "--tokenizer", "words")
	if got := documentIDs(decodeChunks(t, stdout)); code != 0 || !cmp.Equal(got, []string{"b.md"}) {
		t.Errorf("chunk LINK-TO-DIR: exit %d, documents %q, stderr %q; want 0 and b.md", code, got, stderr)
	}

	var buf bytes.Buffer
	left := &leftOut{w: &buf}
	left.note("package.json", pipeline.FormatDoc2mark, "not json_content")
	for i := range leftOutShown {
		left.linkedDir(fmt.Sprintf("link%d", i))
	}
	left.done()
	if got, want := strings.Count(buf.String(), "left out "), leftOutShown+1; got != want {
		t.Errorf("%d notes, want %d:\n%s", got, want, &buf)
	}
	if want := "chunkkit chunk: left out 11 in all (10 named above): 1 file not in their extension's format and 10 symbolic links to directories\n"; !strings.HasSuffix(buf.String(), want) {
		t.Errorf("notes:\n%s\nwant them to end with %q", &buf, want)
	}
}

// TestLeftOutNotesClearTheProgressLine: a note recorded by the walk is written by the run's
// goroutine on a line of its own, the progress line cleared first, and the progress line is
// shown again at the next document.
func TestLeftOutNotesClearTheProgressLine(t *testing.T) {
	var stderr bytes.Buffer
	prog := newRunProgress(&stderr, "always", func() int64 { return 0 })
	left := &leftOut{w: &stderr}
	prog.update(pipeline.Result{Bytes: 10})
	left.note("docs/package.json", pipeline.FormatDoc2mark, "not json_content")
	left.flush(prog)
	prog.update(pipeline.Result{Bytes: 10})
	left.flush(prog) // nothing recorded: nothing written
	prog.done()
	left.done()
	got := regexp.MustCompile(`[0-9.]+ MB/s`).ReplaceAllString(stderr.String(), "R MB/s")
	want := "\r\033[K1 documents, 0.0 MB, R MB/s\r\033[K" +
		"chunkkit chunk: left out docs/package.json, not json_content. Give the file by itself to read it as doc2mark anyway; --exclude leaves it out quietly.\n" +
		"\r\033[K2 documents, 0.0 MB"
	if !strings.HasPrefix(got, want) {
		t.Errorf("standard error:\n%q\nwant it to begin\n%q", got, want)
	}
}

func TestChunkRefusesBadCorpusArguments(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"-j 0", []string{"-j", "0", "../../testdata/sample.md"}, "-j must be 1 or more"},
		{"--id with a directory", []string{"--id", "x", "../../bench/corpus/corpora"}, "--id names one document"},
		{"standard input twice", []string{"--from", "md", "-", "-"}, "read once only"},
		{"a bad glob", []string{"--include", "[", "../../bench"}, "bad pattern"},
		{"an unknown --from", []string{"--from", "pdf", "x.pdf"}, `unknown --from "pdf"`},
		{"a negative timeout", []string{"--timeout", "-1s", "x.md"}, "--timeout must be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, append([]string{"chunk", "--tokenizer", "words"}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
	_, stderr, code := runCLI(t, "chunk", "--tokenizer", "words", t.TempDir())
	if code != 1 || !strings.Contains(stderr, "no file below it to chunk") {
		t.Errorf("an empty directory: exit %d, %q", code, stderr)
	}
}

// TestChunkInterruptedWritesWhatIsDoneAndExits130 runs the real binary on a stream that stops
// half way, interrupts it, and checks what a shell sees: exit 130 (143 for SIGTERM), the chunks
// of the documents done, and no plugin left running.
func TestChunkInterruptedWritesWhatIsDoneAndExits130(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "chunkkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "chunk", "-", "--from", "jsonl", "-j", "2") // the tiktoken plugin
			cmd.Env = append(os.Environ(), "CHUNKKIT_PLUGIN_DIR="+pluginDir)
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for _, d := range jsonlDocs(20) {
				io.WriteString(in, d+"\n")
			}
			// Standard input stays open: the run waits for more documents until the signal.
			sc := bufio.NewScanner(out)
			var ids []string
			for len(ids) < 20 && sc.Scan() {
				var c sdk.Chunk
				if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
					t.Fatal(err)
				}
				if len(ids) == 0 || ids[len(ids)-1] != c.DocumentID {
					ids = append(ids, c.DocumentID)
				}
			}
			plugins := childrenOf(cmd.Process.Pid)
			if len(plugins) == 0 {
				t.Fatal("no plugin process under the running chunkkit")
			}
			cmd.Process.Signal(sig)
			for sc.Scan() {
			}
			err = cmd.Wait()
			in.Close()
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
				t.Errorf("exit %d (%v), want %d; stderr:\n%s", code, err, 128+int(sig), errOut.String())
			}
			if len(ids) != 20 || ids[19] != "note-00019" {
				t.Errorf("documents written before the signal: %q", ids)
			}
			if !strings.Contains(errOut.String(), "interrupted after 20 documents") {
				t.Errorf("stderr: %s", errOut.String())
			}
			deadline := time.Now().Add(5 * time.Second)
			for _, pid := range plugins {
				for processAlive(pid) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if processAlive(pid) {
					t.Errorf("plugin %d still runs after chunkkit exited", pid)
				}
			}
		})
	}
}

// childrenOf returns the PIDs whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		var child int
		if _, err := fmt.Sscan(e.Name(), &child); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		var ppid int
		if len(fields) > 1 {
			fmt.Sscan(fields[1], &ppid)
		}
		if ppid == pid {
			out = append(out, child)
		}
	}
	return out
}

// processAlive reports whether pid runs and is not a zombie.
func processAlive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// TestChunkEndsADocumentWhosePluginIsStoppedAtTheTimeout stops the tiktoken plugin with SIGSTOP
// in the middle of a stream: the document whose call meets it ends at --timeout with an error
// naming it and the plugin, and with --keep-going the run goes on with the other documents on a
// new plugin process.
func TestChunkEndsADocumentWhosePluginIsStoppedAtTheTimeout(t *testing.T) {
	docs := jsonlDocs(3)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		code <- run(context.Background(), []string{"chunk", "-", "--from", "jsonl", "-j", "1", "--keep-going", "--timeout", "2s"}, inR, outW, &errOut)
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	io.WriteString(inW, docs[0]+"\n")
	if !sc.Scan() {
		t.Fatalf("no chunk of the first document; stderr: %s", errOut.String())
	}
	var stopped []int
	for _, pid := range childrenOf(os.Getpid()) {
		if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil && strings.HasPrefix(string(comm), "chunkkit-tiktok") {
			if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			stopped = append(stopped, pid)
		}
	}
	if len(stopped) == 0 {
		t.Fatal("no tiktoken plugin process under the test to stop")
	}
	defer func() {
		for _, pid := range stopped {
			syscall.Kill(pid, syscall.SIGCONT)
		}
	}()
	start := time.Now()
	io.WriteString(inW, docs[1]+"\n"+docs[2]+"\n")
	inW.Close()
	var ids []string
	for sc.Scan() {
		var c sdk.Chunk
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.DocumentID)
	}
	c := <-code
	took := time.Since(start)
	if c != 1 {
		t.Errorf("exit %d, want 1 (a document failed)", c)
	}
	// At -j 1 the second document is parsed and chunked while the third waits on the plugin,
	// so either may be the one whose call meets the stopped process first; the other runs on
	// the new process.
	failed := "standard input:2"
	if !cmp.Equal(ids, []string{"note-00002"}) {
		failed = "standard input:3"
		if !cmp.Equal(ids, []string{"note-00001"}) {
			t.Errorf("documents written after the stop: %q, want one of note-00001 and note-00002", ids)
		}
	}
	for _, want := range []string{"1 of 3 documents failed", failed, "--timeout 2s", `plugin "tiktoken"`, "deadline"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	if took > 30*time.Second {
		t.Errorf("the run took %s after the stop", took)
	}
}

func TestChunkProgressLine(t *testing.T) {
	_, stderr, code := runCLI(t, "chunk", "../../bench/corpus/corpora", "--tokenizer", "words", "--progress", "always", "--out", filepath.Join(t.TempDir(), "out.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	last := stderr[strings.LastIndex(strings.TrimRight(stderr, "\n"), "\r")+1:]
	if !strings.HasPrefix(last, "\x1b[K13 documents, ") || !strings.Contains(last, " MB/s") || !strings.HasSuffix(last, "\n") {
		t.Errorf("final progress line %q, want the 13 documents with MB/s, ending the line", last)
	}
	_, stderr, _ = runCLI(t, "chunk", "../../bench/corpus/corpora", "--tokenizer", "words", "--out", filepath.Join(t.TempDir(), "out.jsonl"))
	if stderr != "" {
		t.Errorf("--progress auto on a buffer (not a terminal) wrote %q", stderr)
	}
}

// The text output of a document whose chunks come in several parts (Options.Stream, as every
// run has) counts all its blocks and chunks and previews the first -n, as JSONL has them.
func TestChunkTextOfALargeDocumentCountsEveryPart(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	for i := range 700 {
		fmt.Fprintf(&sb, "# Section %d\n\n%s\n\n", i, strings.Repeat("alpha beta gamma. ", 12))
	}
	path := filepath.Join(t.TempDir(), "big.md")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"chunk", path, "--tokenizer", "words", "--max-tokens", "24", "--overlap-tokens", "0"}
	jsonl, stderr, code := runCLI(t, append(args, "--format", "jsonl")...)
	if code != 0 {
		t.Fatalf("--format jsonl: exit %d: %s", code, stderr)
	}
	chunks := decodeChunks(t, jsonl)
	if len(chunks) <= 2*256 {
		t.Fatalf("%d chunks: too few to come in several parts", len(chunks))
	}
	for _, n := range []int{-1, 5} {
		text, stderr, code := runCLI(t, append(args, "-n", strconv.Itoa(n))...)
		if code != 0 {
			t.Fatalf("-n %d: exit %d: %s", n, code, stderr)
		}
		if want := fmt.Sprintf("%s: 1400 blocks, %d chunks", path, len(chunks)); !strings.HasPrefix(text, want) {
			t.Errorf("-n %d: text starts %q, want %q", n, firstLine(text), want)
		}
		if !strings.Contains(text, "blocks: heading 700, paragraph 700\n") {
			t.Errorf("-n %d: no block tally of 700 headings and 700 paragraphs in\n%s", n, firstLines(text, 4))
		}
		shown := len(chunks)
		if n >= 0 {
			shown = n
			if want := fmt.Sprintf("… %d more (-n -1 shows all)\n", len(chunks)-n); !strings.HasSuffix(text, want) {
				t.Errorf("-n %d: text does not end %q", n, want)
			}
		}
		previews := 0
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, " tok  ") {
				previews++
			}
		}
		if previews != shown {
			t.Errorf("-n %d: %d chunks previewed, want %d", n, previews, shown)
		}
	}
}

func firstLine(s string) string { return firstLines(s, 1) }

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
