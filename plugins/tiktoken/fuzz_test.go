package tiktoken_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

// fuzzMaxBytes bounds the inputs FuzzBackendsAgree compares: the Reference backend is
// quadratic in the length of a piece.
const fuzzMaxBytes = 2048

// FuzzBackendsAgree checks, on any input, that the backtrack, fast and reference backends
// give the same counts and boundaries for every encoding, that the boundaries keep
// sdk.TokenCounter's contract, and that nothing panics. The golden cases seed it; run it with
// go test -run '^$' -fuzz FuzzBackendsAgree ./plugins/tiktoken.
func FuzzBackendsAgree(f *testing.F) {
	for _, g := range loadGolden(f) {
		f.Add(g.text)
	}
	f.Add("\t\n\t\n")
	f.Add(" \n \n \n")
	f.Add("x\x7fy")
	f.Add("'ſ 'K 'ﬆ")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > fuzzMaxBytes {
			text = text[:fuzzMaxBytes]
		}
		texts := []string{text}
		ctx := context.Background()
		for _, enc := range tiktoken.Encodings() {
			ref := counter(t, enc, tiktoken.Reference)
			refCounts, err := ref.Count(ctx, texts)
			if err != nil {
				t.Fatalf("%s: %v", ref.Name(), err)
			}
			refBounds, err := ref.Boundaries(ctx, texts)
			if err != nil {
				t.Fatalf("%s: %v", ref.Name(), err)
			}
			for _, backend := range []tiktoken.Backend{tiktoken.Backtrack, tiktoken.Fast} {
				c := counter(t, enc, backend)
				counts, err := c.Count(ctx, texts)
				if err != nil {
					t.Fatalf("%s: %v", c.Name(), err)
				}
				bounds, err := c.Boundaries(ctx, texts)
				if err != nil {
					t.Fatalf("%s: %v", c.Name(), err)
				}
				if counts[0] != refCounts[0] {
					t.Errorf("%s: Count %d, reference Count %d", c.Name(), counts[0], refCounts[0])
				}
				if diff := cmp.Diff(refBounds, bounds); diff != "" {
					t.Errorf("%s: Boundaries (-reference +%s):\n%s", enc, backend, diff)
				}
				if err := sdk.CheckBoundaries(texts, bounds); err != nil {
					t.Errorf("%s: %v", c.Name(), err)
				}
				if len(bounds[0]) != counts[0] {
					t.Errorf("%s: Count %d but %d boundaries", c.Name(), counts[0], len(bounds[0]))
				}
			}
		}
	})
}
