package hftokenizer_test

// BenchmarkHF is the Go side of tools/hf-golden/bench.mjs, which measures HuggingFace
// tokenizers' Rust core on the same files and text: the names line up
// (BenchmarkHF/file=NAME/impl=go-inprocess here, impl=hf-rust-napi there, impl=go-plugin in
// bench/plugins_test.go), so `go tool benchstat -col /impl` puts them side by side. bench/hf.sh
// runs all three; by hand:
//
//	make hf-files
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench '^BenchmarkHF$' -count 10 ./plugins/hftokenizer
//
// The text, cut exactly as bench.mjs cuts it (tools/hf-golden/README.md, "What bench.mjs
// measures"): CHUNKKIT_CORPUS names a corpus built by ../shared/tools/build-corpus.sh (its
// English files, MANIFEST.tsv paths starting "en-", in manifest order until they hold
// 4,000,000 bytes) or a single text file. Unset, the benchmark takes Chroma's evaluation
// corpora, ../shared/eval/chroma/corpora/*.md (208 KB), and skips when ../shared is not
// there. Each text is split at "\n\n" and the parts joined back into pieces of at most 65,536
// bytes; one op counts every piece with its own Count call, as bench.mjs makes one encode call
// per piece. The counter is the MatchSpecial view, because HF's encode matches added tokens in
// the text; on the build corpus both views count the same (testdata/corpus.json). Without
// `make hf-files` it skips.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
)

const (
	// corpusEnv names the corpus (or text file) BenchmarkHF reads.
	corpusEnv = "CHUNKKIT_CORPUS"
	// corpusBytes is where BenchmarkHF stops adding a corpus's English files, as bench.mjs.
	corpusBytes = 4_000_000
	// pieceBytes is the most bytes of a piece made of several parts, as bench.mjs.
	pieceBytes = 65_536
)

func BenchmarkHF(b *testing.B) {
	texts, source := benchTexts(b)
	var pieces []string
	for _, t := range texts {
		pieces = append(pieces, cutPieces(t)...)
	}
	size := 0
	for _, p := range pieces {
		size += len(p)
	}
	b.Logf("%d texts, %d pieces, %d bytes from %s", len(texts), len(pieces), size, source)
	root := filepath.Join("..", "..")
	if _, err := os.Stat(reffiles.NPMPath(root, reffiles.NPM[0])); err != nil {
		b.Skipf("the npm reference files are not installed, run `make hf-files`: %v", err)
	}
	files, err := reffiles.All(root, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, f := range files {
		b.Run("file="+f.Name+"/impl=go-inprocess", func(b *testing.B) {
			tok, err := hftokenizer.Load(f.Path)
			if err != nil {
				b.Fatal(err)
			}
			c := tok.MatchSpecial()
			op := func() int {
				tokens := 0
				for i := range pieces {
					n, err := c.Count(ctx, pieces[i:i+1])
					if err != nil {
						b.Fatal(err)
					}
					tokens += n[0]
				}
				return tokens
			}
			op() // the warm-up op bench.mjs runs too
			b.SetBytes(int64(size))
			var tokens int
			for b.Loop() {
				tokens = op()
			}
			b.ReportMetric(float64(tokens), "tokens/op")
		})
	}
}

// benchTexts returns the texts BenchmarkHF counts and where they come from.
func benchTexts(b *testing.B) ([]string, string) {
	b.Helper()
	path := os.Getenv(corpusEnv)
	if path == "" {
		dir := filepath.Join("..", "..", "..", "shared", "eval", "chroma", "corpora")
		names, err := filepath.Glob(filepath.Join(dir, "*.md"))
		if err != nil || len(names) == 0 {
			b.Skipf("%s is not set and %s holds no .md files: build a corpus with ../shared/tools/build-corpus.sh /tmp/corpus and set %s=/tmp/corpus", corpusEnv, dir, corpusEnv)
		}
		var texts []string
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			texts = append(texts, string(data))
		}
		return texts, dir
	}
	info, err := os.Stat(path)
	if err != nil {
		b.Fatalf("%s: %v", corpusEnv, err)
	}
	if !info.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return []string{string(data)}, path
	}
	manifest, err := os.ReadFile(filepath.Join(path, "MANIFEST.tsv"))
	if err != nil {
		b.Fatalf("%s=%s is a directory but not a corpus: %v", corpusEnv, path, err)
	}
	var texts []string
	total := 0
	for i, row := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		rel, _, _ := strings.Cut(row, "\t")
		if i == 0 || !strings.HasPrefix(rel, "en-") {
			continue // the header, or not English
		}
		data, err := os.ReadFile(filepath.Join(path, rel))
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, string(data))
		if total += len(data); total >= corpusBytes {
			break
		}
	}
	return texts, path
}

// cutPieces splits text at every "\n\n" and joins consecutive parts back while the piece
// stays within pieceBytes; a longer part is a piece alone. The pieces are substrings of text,
// and joining them with "\n\n" gives text back.
func cutPieces(text string) []string {
	var out []string
	start, end := 0, -1 // the piece being built is text[start:end]; none while end < 0
	at := 0
	for _, part := range strings.Split(text, "\n\n") {
		partStart, partEnd := at, at+len(part)
		at = partEnd + len("\n\n")
		if end >= 0 && partEnd-start <= pieceBytes {
			end = partEnd
			continue
		}
		if end >= 0 {
			out = append(out, text[start:end])
		}
		start, end = partStart, partEnd
	}
	return append(out, text[start:end])
}

func TestCutPieces(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", pieceBytes)
	half := strings.Repeat("y", pieceBytes/2)
	tests := []struct {
		name, text string
		want       []string
	}{
		{"an empty text is one empty piece", "", []string{""}},
		{"short parts join into one piece", "a\n\nb\n\nc", []string{"a\n\nb\n\nc"}},
		{"a part longer than a piece stands alone", "a\n\n" + big + "x\n\nb", []string{"a", big + "x", "b"}},
		{"two halves and the separator overflow by two bytes", half + "\n\n" + half, []string{half, half}},
		{"a piece may be exactly pieceBytes", half[2:] + "\n\n" + half, []string{half[2:] + "\n\n" + half}},
		{"three newlines leave one in the next part", "a\n\n\nb", []string{"a\n\n\nb"}},
		{"empty parts count their separators", "\n\n\n\n", []string{"\n\n\n\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cutPieces(tt.text)
			if len(got) != len(tt.want) {
				t.Fatalf("%d pieces of %v bytes, want %d", len(got), lens(got), len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("piece %d: %d bytes %.20q, want %d bytes %.20q", i, len(got[i]), got[i], len(tt.want[i]), tt.want[i])
				}
			}
			if joined := strings.Join(got, "\n\n"); joined != tt.text {
				t.Errorf("joined pieces are not the text: %d bytes, want %d", len(joined), len(tt.text))
			}
		})
	}
}

func lens(ss []string) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = len(s)
	}
	return out
}
