package pretok_test

import (
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/internal/pretok"
)

// BenchmarkSplit splits about 1 MB made of the test inputs with each scanner and, for
// comparison, with regexp2's interpreter running the scanner's pattern.
func BenchmarkSplit(b *testing.B) {
	var sb strings.Builder
	for _, s := range seeds(b) {
		sb.WriteString(valid(s))
		sb.WriteByte('\n')
	}
	text := strings.Repeat(sb.String(), 1<<20/sb.Len()+1)
	for _, p := range patterns {
		b.Run("pattern="+p.name+"/engine=scanner", func(b *testing.B) {
			scan := scanner(b, p.src)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				split(scan, text)
			}
		})
		b.Run("pattern="+p.name+"/engine=regexp2", func(b *testing.B) {
			re := compile(b, p.src)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				regexPieces(b, re, text)
			}
		})
	}
}

// split splits text with scan and returns the number of pieces.
func split(scan pretok.Func, text string) int {
	n := 0
	for at := 0; at < len(text); n++ {
		at = scan(text, at)
	}
	return n
}
