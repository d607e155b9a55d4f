package tiktoken_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

// longRuns are runs without a break in the pre-tokenizer's pattern: the inputs on which BPE
// implementations go quadratic.
var longRuns = []struct{ name, unit string }{
	{"one letter", "a"},
	{"one capital letter", "A"},
	{"a combining mark", "\u0301"},
	{"one CJK character", "語"},
	{"one emoji", "🦀"},
	{"spaces", " "},
	{"one symbol", "="},
}

// TestLinearBackendsCountLongRuns checks the backtrack and fast backends' answers on
// 80,000-unit runs: one boundary per token, on rune boundaries, the last at the end, and both
// backends agreeing. That it does so in linear time
// is measured by BenchmarkLongRuns (compare the two sizes with go tool benchstat), never
// asserted here: a timing assertion fails on a loaded machine, not on a slow algorithm. Under
// -short (make test's run with the race detector, which slows it ~9×) the runs are of 8,000
// units; make test then runs it at 80,000 without the race detector.
func TestLinearBackendsCountLongRuns(t *testing.T) {
	t.Parallel()
	units := 80_000
	if testing.Short() {
		units = 8_000
	}
	// p50k_base shares r50k_base's pattern.
	for _, enc := range []string{"cl100k_base", "o200k_base", "r50k_base"} {
		c, fast := counter(t, enc, tiktoken.Backtrack), counter(t, enc, tiktoken.Fast)
		for _, r := range longRuns {
			t.Run(fmt.Sprintf("%s on a run of %s", enc, r.name), func(t *testing.T) {
				texts := []string{strings.Repeat(r.unit, units)}
				counts, err := c.Count(context.Background(), texts)
				if err != nil {
					t.Fatal(err)
				}
				bounds, err := c.Boundaries(context.Background(), texts)
				if err != nil {
					t.Fatal(err)
				}
				if err := sdk.CheckBoundaries(texts, bounds); err != nil {
					t.Fatal(err)
				}
				if counts[0] != len(bounds[0]) || counts[0] == 0 {
					t.Errorf("Count = %d, %d boundaries", counts[0], len(bounds[0]))
				}
				want, err := fast.Boundaries(context.Background(), texts)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, bounds); diff != "" {
					t.Errorf("Boundaries (-fast +backtrack):\n%s", diff)
				}
			})
		}
	}
}

// BenchmarkLongRuns counts each long run at 20,000 and 80,000 units with the backtrack and
// fast backends.
// Linear work takes 4× as long for the longer run:
//
//	go test -run '^$' -bench LongRuns -count 10 ./plugins/tiktoken | tee runs.txt
//	go tool benchstat -col /units runs.txt
func BenchmarkLongRuns(b *testing.B) {
	for _, backend := range []tiktoken.Backend{tiktoken.Backtrack, tiktoken.Fast} {
		for _, enc := range []string{"cl100k_base", "o200k_base", "r50k_base"} {
			c := counter(b, enc, backend)
			for _, r := range longRuns {
				for _, n := range []int{20_000, 80_000} {
					b.Run(fmt.Sprintf("backend=%s/enc=%s/run=%s/units=%d", backend, enc, strings.ReplaceAll(r.name, " ", "-"), n), func(b *testing.B) {
						texts := []string{strings.Repeat(r.unit, n)}
						b.SetBytes(int64(len(texts[0])))
						for b.Loop() {
							if _, err := c.Count(context.Background(), texts); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}
