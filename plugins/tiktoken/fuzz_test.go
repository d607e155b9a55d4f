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

// FuzzBackendsAgree checks, on any input, that both backends give the same counts and
// boundaries for every encoding, that the boundaries keep sdk.TokenCounter's contract, and
// that nothing panics. The golden cases seed it; run it with
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
			fast, ref := counter(t, enc, tiktoken.Fast), counter(t, enc, tiktoken.Reference)
			fastCounts, err := fast.Count(ctx, texts)
			if err != nil {
				t.Fatalf("%s: %v", fast.Name(), err)
			}
			refCounts, err := ref.Count(ctx, texts)
			if err != nil {
				t.Fatalf("%s: %v", ref.Name(), err)
			}
			fastBounds, err := fast.Boundaries(ctx, texts)
			if err != nil {
				t.Fatalf("%s: %v", fast.Name(), err)
			}
			refBounds, err := ref.Boundaries(ctx, texts)
			if err != nil {
				t.Fatalf("%s: %v", ref.Name(), err)
			}
			if fastCounts[0] != refCounts[0] {
				t.Errorf("%s: fast Count %d, reference Count %d", enc, fastCounts[0], refCounts[0])
			}
			if diff := cmp.Diff(refBounds, fastBounds); diff != "" {
				t.Errorf("%s: Boundaries (-reference +fast):\n%s", enc, diff)
			}
			if err := sdk.CheckBoundaries(texts, fastBounds); err != nil {
				t.Errorf("%s: %v", fast.Name(), err)
			}
			if len(fastBounds[0]) != fastCounts[0] {
				t.Errorf("%s: Count %d but %d boundaries", fast.Name(), fastCounts[0], len(fastBounds[0]))
			}
		}
	})
}
