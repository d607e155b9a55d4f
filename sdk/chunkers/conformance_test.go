package chunkers_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// TestConformance runs the conformance kit on every built-in chunker with both in-process
// counters, at budgets 16, 64 and 512, without overlap and with a quarter of the budget. Under
// -short (make test's run with the race detector, which slows it ~7×) it runs budget 64 only;
// make test then runs it whole without the race detector.
func TestConformance(t *testing.T) {
	t.Parallel()
	counters := []sdk.TokenCounter{sdk.Words{}, sdk.Runes{}}
	budgets := []int{16, 64, 512}
	if testing.Short() {
		budgets = []int{64}
	}
	for _, counter := range counters {
		name := counter.(sdk.Namer).Name()
		t.Run("noop with "+name, func(t *testing.T) {
			t.Parallel()
			conformance.Chunker(t, func() sdk.Chunker { return &chunkers.Noop{Counter: counter} }, counter)
		})
		for _, maxTokens := range budgets {
			for _, overlap := range []int{chunkers.NoOverlap, maxTokens / 4} {
				cfg := fmt.Sprintf("max %d overlap %d with %s", maxTokens, max(overlap, 0), name)
				t.Run("heading-aware at "+cfg, func(t *testing.T) {
					t.Parallel()
					conformance.Chunker(t, func() sdk.Chunker {
						return &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: maxTokens, OverlapTokens: overlap}}
					}, counter)
				})
				t.Run("sections at "+cfg, func(t *testing.T) {
					t.Parallel()
					conformance.Chunker(t, func() sdk.Chunker {
						return &chunkers.Sections{Config: chunkers.Config{Counter: counter, MaxTokens: maxTokens, OverlapTokens: overlap}}
					}, counter)
				})
				t.Run("fixed-tokens at "+cfg, func(t *testing.T) {
					t.Parallel()
					conformance.Chunker(t, func() sdk.Chunker {
						return &chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: maxTokens, OverlapTokens: overlap}}
					}, counter)
				})
			}
		}
	}
}

// fuzzChunker feeds Markdown from the fuzzer through the Markdown adapter and a chunker and
// checks every invariant of the conformance kit on the result.
func fuzzChunker(f *testing.F, newChunker func(counter sdk.TokenCounter, maxTokens, overlap int) sdk.Chunker) {
	seeds := []string{
		"# T\n\npara one. para two.\n\n## S\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"```go\nfunc main() {}\n```\n\n### deep\n\ntext",
		"# a\n### b\n# c\n\n" + "word " + "word word word word word word word word word word word word",
		"中文句子。第二句！\n\n😀😀😀 👩‍👩‍👧 e\u0301",
		"   \n\n\t\n\n# \n\nx",
		"bad \xff\xfe utf8",
	}
	for _, s := range seeds {
		f.Add(s, uint8(8), uint8(2), true)
	}
	f.Fuzz(func(t *testing.T, src string, maxTokens, overlap uint8, words bool) {
		budget := int(maxTokens%64) + 2
		ov := int(overlap) % budget
		if ov == 0 {
			ov = chunkers.NoOverlap
		}
		var counter sdk.TokenCounter = sdk.Runes{}
		if words {
			counter = sdk.Words{}
		}
		doc, err := markdown.Parse([]byte(src), markdown.Options{ID: "fuzz"})
		if err != nil {
			// Invalid UTF-8 is refused by the adapter; the chunker must refuse it too.
			doc = &sdk.Document{ID: "fuzz", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: src}}}
		}
		c := newChunker(counter, budget, ov)
		req := conformance.Request()
		chunks, err := c.Chunk(context.Background(), req, doc)
		if err := conformance.CheckResult(context.Background(), doc, req, chunks, err, conformance.OptionsFor(c, counter)); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzFixedTokens(f *testing.F) {
	fuzzChunker(f, func(counter sdk.TokenCounter, maxTokens, overlap int) sdk.Chunker {
		return &chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: maxTokens, OverlapTokens: overlap}}
	})
}
