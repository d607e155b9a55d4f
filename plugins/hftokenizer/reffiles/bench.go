package reffiles

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

// What the HF benchmarks count, as tools/hf-golden/bench.mjs counts it (its README, "What
// bench.mjs measures"): the English files of a corpus up to CorpusBytes, each cut by
// CutPieces, one Count call per piece.
const (
	// CorpusBytes is where the English files of a corpus stop being added.
	CorpusBytes = 4_000_000
	// PieceBytes is the most bytes of a piece made of several parts.
	PieceBytes = 65_536
)

// ErrNoBenchText is returned by BenchTexts when there is nothing to count.
var ErrNoBenchText = errors.New("reffiles: no text to benchmark")

// BenchTexts returns the texts the HF benchmarks count and where they come from. corpus is a
// corpus built by ../shared/tools/build-corpus.sh (its MANIFEST.tsv rows under en-, in order,
// up to CorpusBytes) or a single text file; when corpus is "", the *.md files of Chroma's
// evaluation corpora under shared (the ../shared folder), or ErrNoBenchText.
func BenchTexts(corpus, shared string) (texts []string, source string, err error) {
	if corpus == "" {
		dir := filepath.Join(shared, "eval", "chroma", "corpora")
		names, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		if len(names) == 0 {
			return nil, "", fmt.Errorf("%w: no corpus named and %s holds no .md files: build one with ../shared/tools/build-corpus.sh /tmp/corpus and set CHUNKKIT_CORPUS=/tmp/corpus", ErrNoBenchText, dir)
		}
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				return nil, "", err
			}
			texts = append(texts, string(data))
		}
		return texts, dir, nil
	}
	info, err := os.Stat(corpus)
	if err != nil {
		return nil, "", err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(corpus)
		if err != nil {
			return nil, "", err
		}
		return []string{string(data)}, corpus, nil
	}
	manifest, err := os.ReadFile(filepath.Join(corpus, "MANIFEST.tsv"))
	if err != nil {
		return nil, "", fmt.Errorf("%s is a directory but not a corpus: %w", corpus, err)
	}
	total := 0
	for i, row := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		rel, _, _ := strings.Cut(row, "\t")
		if i == 0 || !strings.HasPrefix(rel, "en-") {
			continue // the header, or not English
		}
		data, err := os.ReadFile(filepath.Join(corpus, rel))
		if err != nil {
			return nil, "", err
		}
		texts = append(texts, string(data))
		if total += len(data); total >= CorpusBytes {
			break
		}
	}
	return texts, corpus, nil
}

// BenchPieces is BenchTexts cut by CutPieces: the pieces, their bytes in all, and where
// they come from.
func BenchPieces(corpus, shared string) (pieces []string, size int, source string, err error) {
	texts, source, err := BenchTexts(corpus, shared)
	if err != nil {
		return nil, 0, "", err
	}
	for _, t := range texts {
		for _, p := range CutPieces(t) {
			pieces = append(pieces, p)
			size += len(p)
		}
	}
	return pieces, size, source, nil
}

// CutPieces splits text at every "\n\n" and joins consecutive parts back while the piece
// stays within PieceBytes; a longer part is a piece alone. The pieces are substrings of text,
// and joining them with "\n\n" gives text back.
func CutPieces(text string) []string {
	var out []string
	start, end := 0, -1 // the piece being built is text[start:end]; none while end < 0
	at := 0
	for _, part := range strings.Split(text, "\n\n") {
		partStart, partEnd := at, at+len(part)
		at = partEnd + len("\n\n")
		if end >= 0 && partEnd-start <= PieceBytes {
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

// CountPieces is one benchmark op: every piece counted by c, one call per piece; it returns
// the sum of the counts.
func CountPieces(ctx context.Context, c sdk.TokenCounter, pieces []string) (int, error) {
	tokens := 0
	for i := range pieces {
		n, err := c.Count(ctx, pieces[i:i+1])
		if err != nil {
			return 0, err
		}
		tokens += n[0]
	}
	return tokens, nil
}

// BenchCount runs b's loop with CountPieces as the op, after one untimed warm-up op as
// bench.mjs runs, setting the bytes per op to size and reporting the tokens per op.
func BenchCount(b *testing.B, c sdk.TokenCounter, pieces []string, size int) {
	b.Helper()
	ctx := context.Background()
	if _, err := CountPieces(ctx, c, pieces); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	var tokens int
	for b.Loop() {
		var err error
		if tokens, err = CountPieces(ctx, c, pieces); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tokens), "tokens/op")
}
