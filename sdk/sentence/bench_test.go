package sentence_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk/sentence"
)

// prose returns about size bytes of English prose with the things the rules look at:
// abbreviations, initials, numbers, URLs, quotes, ellipses, lists and paragraphs.
func prose(size int) string {
	paragraphs := []string{
		"Mr. Smith met Dr. Brown at 9 a.m. on Jan. 5 in St. Louis. They talked for an hour about " +
			"the new release, v1.2.3, which fixes a bug in the parser. \"It works!\" he said. " +
			"Then they left for lunch.",
		"The U.S. Army and the U.K. Navy trained together, e.g. in the desert, i.e. far away. " +
			"See Fig. 3 and No. 5 for details. Results improved by 3.14% over the baseline... " +
			"Nobody expected that.",
		"J. R. R. Tolkien wrote many books (see the list above.) His letters are at " +
			"https://example.com/tolkien/letters.html and can be ordered from " +
			"orders@example.com. Were they worth it? Yes! Most readers agree.",
		"Steps:\n1. Open the lid.\n2. Pour the tea slowly.\n3. Wait for about 3 minutes, " +
			"then drink it. Apples, pears, etc. are served on the side.",
	}
	var sb strings.Builder
	sb.Grow(size + 512)
	for i := 0; sb.Len() < size; i++ {
		if i > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(paragraphs[i%len(paragraphs)])
	}
	return sb.String()
}

func BenchmarkSplit(b *testing.B) {
	text := prose(1 << 20)
	texts := []string{text}
	s := sentence.Splitter{}
	ctx := context.Background()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	var n int
	for b.Loop() {
		ends, err := s.Split(ctx, texts)
		if err != nil {
			b.Fatal(err)
		}
		n = len(ends[0])
	}
	b.ReportMetric(float64(n), "sentences/op")
}

func BenchmarkEndsPathological(b *testing.B) {
	for name, text := range pathological() {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				sentence.Ends(text)
			}
		})
	}
}
