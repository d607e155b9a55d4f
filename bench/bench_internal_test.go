package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shippedText returns the shipped corpus's documents joined, and its questions' texts.
func shippedText(b *testing.B) (string, []string) {
	b.Helper()
	paths, err := filepath.Glob(filepath.Join("corpus", CorporaDir, "*.md"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no shipped corpus: %v", err)
	}
	var sb strings.Builder
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(src)
		sb.WriteString("\n\n")
	}
	set, err := LoadEvalSet("corpus", DefaultLoaders())
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for _, q := range set.Questions {
		qs = append(qs, q.Text)
	}
	return sb.String(), qs
}

func BenchmarkNewSourceMap(b *testing.B) {
	text, _ := shippedText(b)
	doc, err := LoadMarkdown([]byte(text), "all")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := NewSourceMap(text, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBM25 indexes the shipped corpus's paragraphs and answers every question; bytes
// are the indexed text.
func BenchmarkBM25(b *testing.B) {
	text, questions := shippedText(b)
	paragraphs := strings.Split(text, "\n\n")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ix := NewBM25(paragraphs)
		for _, q := range questions {
			ix.Search(q, DefaultK)
		}
	}
}
