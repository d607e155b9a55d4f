package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/beam/internal/testbin"
)

// binDir holds chunkkit, chunkbeam and the plugins, with their manifest.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, cleanup, err := testbin.Setup("./cmd/chunkbeam")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer cleanup()
	binDir = dir
	return m.Run()
}

const shippedCorpus = "../../../bench/corpus/corpora"

// command runs one of the built commands and returns its standard output and error.
func command(t *testing.T, name string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, name), args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, errOut.Bytes())
	}
	return out.String(), errOut.String()
}

// sortedLines returns the lines of text, sorted.
func sortedLines(text string) []string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	slices.Sort(lines)
	return lines
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestThePipelineOnPrismWritesWhatChunkWrites runs the example binary as a user would, on
// Prism (the default runner), and compares its output line for line (order aside) with
// chunkkit chunk's on the same documents and options.
func TestThePipelineOnPrismWritesWhatChunkWrites(t *testing.T) {
	for _, tc := range []struct {
		name       string
		input      string
		chunk      []string // chunkkit chunk's inputs
		chunkArgs  []string // options of both
		beamExtras []string
	}{
		{"a directory, walked as chunk DIR walks it", shippedCorpus, []string{shippedCorpus}, []string{"--max-tokens", "200", "--overlap-tokens", "20"}, nil},
		{"a glob, IDs relative to its folder", shippedCorpus + "/*.txt", []string{shippedCorpus, "--include", "*.txt"}, []string{"--strategy", "fixed", "--max-tokens", "100", "--tenant", "acme", "--acl", "staff,keepers"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "chunks.jsonl")
			_, stderr := command(t, "chunkbeam", append(append([]string{"--input", tc.input, "--output", out}, tc.chunkArgs...), tc.beamExtras...)...)
			want, _ := command(t, "chunkkit", append(append([]string{"chunk", "--format", "jsonl"}, tc.chunk...), tc.chunkArgs...)...)
			if len(sortedLines(want)) == 0 {
				t.Fatal("chunkkit chunk wrote nothing")
			}
			if diff := cmp.Diff(sortedLines(want), sortedLines(readFile(t, out))); diff != "" {
				t.Errorf("chunkbeam's lines differ from chunkkit chunk's (-chunk +chunkbeam):\n%s", diff)
			}
			summary := regexp.MustCompile(`chunkbeam: (\d+) documents .* → (\d+) chunks .* 0 dead letters, 0 retries`)
			if m := summary.FindStringSubmatch(stderr); m == nil || m[2] != fmt.Sprint(len(sortedLines(want))) {
				t.Errorf("no summary with %d chunks and no dead letter on standard error:\n%s", len(sortedLines(want)), stderr)
			}
		})
	}
}

func TestThePipelineReadsAJSONLStreamAndWritesDeadLetters(t *testing.T) {
	dir := t.TempDir()
	stream := filepath.Join(dir, "docs.jsonl")
	lines := []string{
		`{"id": "a", "text": "# A\n\nThe first document."}`,
		`not a document`,
		`{"id": "b", "text": "{\"content\": [", "format": "doc2mark"}`,
		`{"path": "../../../testdata/sample.md", "tenant": "harbor"}`,
	}
	if err := os.WriteFile(stream, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "chunks.jsonl")
	_, stderr := command(t, "chunkbeam", "--from", "jsonl", "--input", stream, "--output", out, "--max-tokens", "128")
	// chunk --keep-going writes the chunks of the documents it could chunk.
	cmd := exec.Command(filepath.Join(binDir, "chunkkit"), "chunk", "--from", "jsonl", stream, "--keep-going", "--max-tokens", "128")
	want, _ := cmd.Output() // exit 1: two documents failed
	if len(sortedLines(string(want))) == 0 {
		t.Fatal("chunkkit chunk wrote nothing")
	}
	if diff := cmp.Diff(sortedLines(string(want)), sortedLines(readFile(t, out))); diff != "" {
		t.Errorf("chunks differ from chunk --keep-going's (-chunk +chunkbeam):\n%s", diff)
	}
	dead := sortedLines(readFile(t, filepath.Join(dir, "chunks.dead-letters.jsonl")))
	if len(dead) != 2 || !strings.Contains(dead[0], `"reason":"`+stream+`: the line \"not a document\": not a document object`) ||
		!strings.Contains(dead[1], `"document_id":"b"`) {
		t.Errorf("dead letters, want the bad line and document b:\n%s", strings.Join(dead, "\n"))
	}
	if !strings.Contains(stderr, "2 dead letters") || !strings.Contains(stderr, "chunks.dead-letters.jsonl") {
		t.Errorf("standard error does not report the 2 dead letters and their file:\n%s", stderr)
	}
}

// TestARunLeavesNothingInTheTemporaryFolder runs chunkbeam on Prism with $TMPDIR set to an
// empty folder, which must be empty again afterwards: Beam's loopback mode leaves a file there
// for each run unless chunkbeam gives the run a folder of its own (package tmpdir).
func TestARunLeavesNothingInTheTemporaryFolder(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "chunks.jsonl")
	cmd := exec.Command(filepath.Join(binDir, "chunkbeam"), "--input", "../../../testdata/sample.md", "--output", out)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chunkbeam: %v\n%s", err, msg)
	}
	if len(sortedLines(readFile(t, out))) == 0 {
		t.Fatal("chunkbeam wrote no chunk")
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if len(names) > 0 {
		t.Errorf("chunkbeam left %v in $TMPDIR", names)
	}
}

// flagHelp returns each flag's help block (the lines flag.PrintDefaults writes for it) from
// a command's -h output.
func flagHelp(usage string) map[string]string {
	help := map[string]string{}
	name := ""
	for _, line := range strings.Split(usage, "\n") {
		if strings.HasPrefix(line, "  -") {
			name = strings.Fields(line)[0][1:]
			help[name] = line
			continue
		}
		if name != "" && strings.HasPrefix(line, "    \t") {
			help[name] += "\n" + line
		}
	}
	return help
}

// TestChunkingFlagsAreChunksFlags holds the example's chunking flags to chunkkit chunk's: same
// names, types, defaults and help.
func TestChunkingFlagsAreChunksFlags(t *testing.T) {
	chunkHelp := func(name string, args ...string) map[string]string {
		cmd := exec.Command(filepath.Join(binDir, name), args...)
		out, _ := cmd.CombinedOutput() // -h exits 0 or 2, as the flag package decides
		return flagHelp(string(out))
	}
	chunk, beam := chunkHelp("chunkkit", "chunk", "-h"), chunkHelp("chunkbeam", "-h")
	shared := []string{"tokenizer", "strategy", "max-tokens", "overlap-tokens", "context", "heading-chunks", "pack-sections",
		"sentences", "split-level", "tenant", "corpus", "acl", "timeout", "min-confidence", "include", "exclude"}
	for _, name := range shared {
		if chunk[name] == "" {
			t.Errorf("chunkkit chunk has no --%s any more: update the list", name)
			continue
		}
		if diff := cmp.Diff(chunk[name], beam[name]); diff != "" {
			t.Errorf("--%s (-chunk +chunkbeam):\n%s", name, diff)
		}
	}
}

func TestGlobRootAndIDs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ glob, root, path, id string }{
		{"docs/*.md", "docs", "docs/a.md", "a.md"},
		{"docs/**/*.md", "docs", "docs/x/a.md", "x/a.md"},
		{"gs://bucket/corpus/*/*.md", "gs://bucket/corpus", "gs://bucket/corpus/en/a.md", "en/a.md"},
		{"*.md", "", "a.md", "a.md"},
		{"docs/one.md", "docs", "docs/one.md", "one.md"},
		{"docs/[ab].md", "docs", "/elsewhere/a.md", "/elsewhere/a.md"},
	} {
		if got := globRoot(tc.glob); got != tc.root {
			t.Errorf("globRoot(%q) = %q, want %q", tc.glob, got, tc.root)
		}
		if got := relativeID(tc.root, tc.path); got != tc.id {
			t.Errorf("relativeID(%q, %q) = %q, want %q", tc.root, tc.path, got, tc.id)
		}
	}
}
