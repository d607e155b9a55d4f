package markdown

import (
	"strings"
	"testing"
	"time"
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

// TestHostileInputsParseInLinearTime compares the time to parse an input with the time to
// parse one four times as large: linear growth gives about 4×, quadratic 16×. The best of three
// runs is taken so that a busy machine does not fail the test.
func TestHostileInputsParseInLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test: skipped in -short mode")
	}
	const small = 128 << 10
	best := func(src []byte) time.Duration {
		fastest := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			if _, err := Parse(src, Options{}); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			fastest = min(fastest, time.Since(start))
		}
		return fastest
	}
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			tSmall := best([]byte(h.make(small)))
			tLarge := best([]byte(h.make(4 * small)))
			// A floor keeps timer noise on tiny durations from failing the test.
			if limit := 10*tSmall + 20*time.Millisecond; tLarge > limit {
				t.Errorf("parsing 4× the input took %v against %v: %.1f× longer, want under 10×",
					tLarge, tSmall, float64(tLarge)/float64(tSmall))
			}
		})
	}
}
