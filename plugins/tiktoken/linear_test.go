package tiktoken_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
)

// TestFastBackendIsLinearOnLongRuns times Count on runs without a break at two lengths, four
// times apart. Linear work takes about 4× as long, O(n log n) a little more, quadratic 16×;
// the bound, 10×, leaves room for noise on a loaded machine and for the race detector. The two
// lengths are timed in turns and each keeps its fastest try, which discards pauses caused by
// other work. The test does not run in parallel with the others, so that they do not add
// their load to one length and not the other.
func TestFastBackendIsLinearOnLongRuns(t *testing.T) {
	runs := []struct{ name, unit string }{
		{"one letter", "a"},
		{"one capital letter", "A"},
		{"a combining mark", "\u0301"},
		{"one CJK character", "語"},
		{"one emoji", "🦀"},
		{"spaces", " "},
		{"one symbol", "="},
	}
	const short, long, tries = 20_000, 80_000, 3
	// p50k_base shares r50k_base's pattern and merge code.
	for _, enc := range []string{"cl100k_base", "o200k_base", "r50k_base"} {
		c := counter(t, enc, tiktoken.Fast)
		for _, r := range runs {
			t.Run(fmt.Sprintf("%s on a run of %s", enc, r.name), func(t *testing.T) {
				shortText := []string{strings.Repeat(r.unit, short)}
				longText := []string{strings.Repeat(r.unit, long)}
				timeCount := func(texts []string) time.Duration {
					start := time.Now()
					if _, err := c.Count(context.Background(), texts); err != nil {
						t.Fatal(err)
					}
					return time.Since(start)
				}
				a, b := time.Duration(1<<63-1), time.Duration(1<<63-1)
				for range tries {
					a = min(a, timeCount(shortText))
					b = min(b, timeCount(longText))
				}
				if ratio := float64(b) / float64(a); ratio > 10 {
					t.Errorf("%d units took %v, %d units %v: %.1f× for 4× the input", short, a, long, b, ratio)
				} else {
					t.Logf("%d units: %v, %d units: %v (%.1f×)", short, a, long, b, ratio)
				}
			})
		}
	}
}
