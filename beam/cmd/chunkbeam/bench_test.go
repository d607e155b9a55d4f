package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chunkkit/chunkkit/pipeline"
)

// BenchmarkCorpus chunks the corpus's English Markdown ($CHUNKKIT_BEAM_CORPUS/en-md, built by
// ../shared/tools/build-corpus.sh) end to end, as a user runs each command: chunkbeam on Prism
// (its job server, loopback worker and plugins started by the run) at 1 and 2 documents at
// once, beside chunkkit chunk -j 1 and -j 2 on the same files with the same options. Each
// writes its JSONL to a file. Compare with benchstat -col /cmd.
func BenchmarkCorpus(b *testing.B) {
	corpus := os.Getenv("CHUNKKIT_BEAM_CORPUS")
	if corpus == "" {
		b.Skip("CHUNKKIT_BEAM_CORPUS is not set: build the corpus with ../shared/tools/build-corpus.sh DIR and set it to DIR")
	}
	dir := filepath.Join(corpus, "en-md")
	var size int64
	for in, err := range pipeline.Walk([]string{dir}, pipeline.WalkOptions{}) {
		if err != nil {
			b.Fatal(err)
		}
		st, err := os.Stat(in.Path)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	out := filepath.Join(b.TempDir(), "chunks.jsonl")
	for _, bc := range []struct {
		name string
		cmd  string
		args []string
	}{
		{"cmd=chunkbeam-j1", "chunkbeam", []string{"-j", "1", "--input", dir, "--output", out}},
		{"cmd=chunkbeam-j2", "chunkbeam", []string{"-j", "2", "--input", dir, "--output", out}},
		{"cmd=chunkkit-j1", "chunkkit", []string{"chunk", dir, "-j", "1", "--format", "jsonl", "--out", out}},
		{"cmd=chunkkit-j2", "chunkkit", []string{"chunk", dir, "-j", "2", "--format", "jsonl", "--out", out}},
	} {
		b.Run(bc.name, func(b *testing.B) { benchCommand(b, size, bc.cmd, bc.args...) })
	}
}

// BenchmarkOneDocument measures what a run costs besides the chunking: chunkbeam on Prism
// (job server, worker, plugin start) and chunkkit chunk (process and plugin start) on the
// shipped sample document (7 KB).
func BenchmarkOneDocument(b *testing.B) {
	const doc = "../../../testdata/sample.md"
	st, err := os.Stat(doc)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "chunks.jsonl")
	b.Run("cmd=chunkbeam", func(b *testing.B) { benchCommand(b, st.Size(), "chunkbeam", "--input", doc, "--output", out) })
	b.Run("cmd=chunkkit", func(b *testing.B) {
		benchCommand(b, st.Size(), "chunkkit", "chunk", doc, "--format", "jsonl", "--out", out)
	})
}

func benchCommand(b *testing.B, size int64, name string, args ...string) {
	b.SetBytes(size)
	for b.Loop() {
		cmd := exec.Command(filepath.Join(binDir, name), args...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %q: %v\n%s", name, args, err, msg)
		}
	}
}
