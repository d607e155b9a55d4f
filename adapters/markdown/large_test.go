package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// hostile makes inputs of about size bytes that once took goldmark, or this package, time
// quadratic in their size.
var hostile = []struct {
	name string
	make func(size int) string
}{
	{"a line of nested block quotes", func(n int) string { return strings.Repeat(">", n) }},
	{"a line of nested bullet lists", func(n int) string { return strings.Repeat("- ", n/2) + "x" }},
	{"a line of nested ordered lists", func(n int) string { return strings.Repeat("1. ", n/3) + "x" }},
	{"a staircase of ever deeper list items", staircase},
	{"a paragraph of link definitions", func(n int) string { return strings.Repeat("[a]: /u\n", n/8) }},
	{"link definitions with unclosed titles", func(n int) string { return strings.Repeat("[a]: /u '\n", n/10) }},
	{"fenced code blocks", func(n int) string { return strings.Repeat("```go\nx\n```\n", n/13) }},
	{"setext headings", func(n int) string { return strings.Repeat("a\n=\n", n/4) }},
	{"a long table", func(n int) string { return "a|b\n-|-\n" + strings.Repeat("1|2\n", n/4) }},
	{"a block quote with lazy lines", func(n int) string { return "> a\n" + strings.Repeat("lazy\n", n/5) }},
	{"one long line", func(n int) string { return strings.Repeat("word ", n/5) }},
}

// staircase is list items each indented one level deeper than the last, climbing back to the
// margin every 3,000 levels.
func staircase(size int) string {
	var sb strings.Builder
	for d := 0; sb.Len() < size; d = (d + 1) % 3000 {
		sb.WriteString(strings.Repeat("  ", d))
		sb.WriteString("- x\n")
	}
	return sb.String()
}

// TestHostileInputsParse parses every hostile input at 128 KB and checks the document: valid,
// no blank block. That parsing them takes linear time is measured by BenchmarkHostile
// (compare the two sizes with go tool benchstat), never asserted here: a timing assertion
// fails on a loaded machine, not on a slow algorithm.
func TestHostileInputsParse(t *testing.T) {
	t.Parallel()
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			doc, err := Parse([]byte(h.make(128<<10)), Options{})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if err := doc.Validate(); err != nil {
				t.Fatal(err)
			}
			if len(doc.Blocks) == 0 {
				t.Fatal("no blocks")
			}
			for i, b := range doc.Blocks {
				if strings.TrimSpace(b.Text) == "" {
					t.Fatalf("block %d is blank", i)
				}
			}
		})
	}
}

// BenchmarkHostile parses each hostile input at 128 KB and at 512 KB. Linear work takes 4× as
// long for the larger one; quadratic 16×:
//
//	go test -run '^$' -bench Hostile -count 10 ./adapters/markdown | tee hostile.txt
//	go tool benchstat -col /size hostile.txt
func BenchmarkHostile(b *testing.B) {
	for _, h := range hostile {
		for _, size := range []int{128 << 10, 512 << 10} {
			src := []byte(h.make(size))
			b.Run(fmt.Sprintf("input=%s/size=%dKiB", strings.ReplaceAll(h.name, " ", "-"), size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					if _, err := Parse(src, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
