package chunkers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// fixedConfigs are the FixedTokens configurations the window tests compare at: budgets of 3,
// 16 and 512 words and 16 cl100k tokens, with the default overlap, none (and the title as
// context), and one of most of the budget.
func fixedConfigs(t *testing.T) []*chunkers.FixedTokens {
	t.Helper()
	var out []*chunkers.FixedTokens
	add := func(counter sdk.TokenCounter, budget int) {
		out = append(out,
			&chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: min(64, budget-1)}},
			&chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: chunkers.NoOverlap, Context: chunkers.ContextTitle}},
			&chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: budget - 1}})
	}
	for _, budget := range []int{3, 16, 512} {
		add(sdk.Words{}, budget)
	}
	add(cl100kCounter(t), 16)
	return out
}

func fixedName(f *chunkers.FixedTokens) string {
	return fmt.Sprintf("%s/max=%d/overlap=%d/context=%s", counterName(f.Counter), f.MaxTokens, f.OverlapTokens, f.Context)
}

// TestFixedTokensWindowsGiveTheWholeDocumentsChunks holds FixedTokens' windows (ChunkSeq, and
// Chunk through it) to the chunks of the whole document measured at once, with windows of a
// byte (a window at every block) and of a few kilobytes, and ChunkParts reading the Markdown
// adapter's ParseParts to Chunk of the document Parse gives.
func TestFixedTokensWindowsGiveTheWholeDocumentsChunks(t *testing.T) {
	exhaustive(t)
	t.Parallel()
	docs := windowDocs(t)
	sources := windowSources(t)
	windows := 0
	for _, c := range fixedConfigs(t) {
		whole := *c
		whole.WindowBytes = -1
		for _, size := range []int{1, 4096} {
			counted := &calls{TokenCounter: c.Counter}
			small := *c
			small.Counter, small.WindowBytes = counted, size
			for _, doc := range docs {
				if (size == 1 || c.MaxTokens-c.OverlapTokens < 4) && chunkers.TextBytes(doc.Blocks) > 64<<10 {
					continue // a window a block, or a chunk every token or two, over the joined documents: slow, and no stronger
				}
				want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
				if err != nil {
					t.Fatalf("%s: %s: %v", fixedName(c), doc.ID, err)
				}
				counted.n.Store(0)
				got, err := small.Chunk(context.Background(), conformance.Request(), doc)
				if err != nil {
					t.Fatalf("%s: %s: windows of %d bytes: %v", fixedName(c), doc.ID, size, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("%s: %s: windows of %d bytes differ from the whole document (-whole +windows):\n%s", fixedName(c), doc.ID, size, diff)
				}
				windows += int(counted.n.Load())
			}
		}
		if c.MaxTokens != 16 || c.OverlapTokens == c.MaxTokens-1 {
			continue
		}
		checkPartsGiveTheWhole(t, fixedName(c), sources, &whole, [][2]int{{1, 1}, {4096, 4096}, {1, 0}}, func(window int) sdk.PartChunker {
			pc := *c
			pc.WindowBytes = window
			return &pc
		})
	}
	if windows < 1000 {
		t.Fatalf("%d windows in all: the test compares too little", windows)
	}
	t.Logf("%d windows compared", windows)
}

// TestFixedTokensLargeDocumentIsChunkedAWindowAtATime: the counter is never asked to measure
// much more than a window, and the windows give the whole document's chunks.
func TestFixedTokensLargeDocumentIsChunkedAWindowAtATime(t *testing.T) {
	t.Parallel()
	var blocks []sdk.Block
	for i := 0; len(blocks) < 20000; i++ {
		blocks = append(blocks, para(fmt.Sprintf("Paragraph %d says %s.", i, strings.Repeat("more ", i%40))))
	}
	doc := &sdk.Document{ID: "big", Title: "Big", Blocks: blocks}
	m := &measuring{TokenCounter: sdk.Words{}}
	f := &chunkers.FixedTokens{Config: chunkers.Config{Counter: m, MaxTokens: 128, OverlapTokens: 16}, WindowBytes: 64 << 10}
	got, err := f.Chunk(context.Background(), conformance.Request(), doc)
	if err := conformance.CheckResult(context.Background(), doc, conformance.Request(), got, err, conformance.OptionsFor(f, sdk.Words{})); err != nil {
		t.Fatal(err)
	}
	whole := *f
	whole.Counter, whole.WindowBytes = sdk.Words{}, -1
	checkWhole(t, &whole, doc, got)
	if m.calls < 10 || m.maxBytes > 3*(64<<10) {
		t.Errorf("%d Boundaries calls, the largest of %d bytes, for %d blocks at 64 KiB a window", m.calls, m.maxBytes, len(blocks))
	}
}

// TestNoopWindowsGiveTheWholeDocumentsChunks holds Noop's windows (ChunkSeq, and ChunkParts
// over ParseParts) to its chunks of the whole document at once.
func TestNoopWindowsGiveTheWholeDocumentsChunks(t *testing.T) {
	exhaustive(t)
	t.Parallel()
	whole := &chunkers.Noop{Counter: sdk.Words{}, WindowBytes: -1}
	for _, doc := range windowDocs(t) {
		want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 4096} {
			got, err := (&chunkers.Noop{Counter: sdk.Words{}, WindowBytes: size}).Chunk(context.Background(), conformance.Request(), doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: windows of %d bytes differ from the whole document (-whole +windows):\n%s", doc.ID, size, diff)
			}
		}
	}
	checkPartsGiveTheWhole(t, "noop", windowSources(t), whole, [][2]int{{1, 1}, {4096, 4096}, {1, 0}}, func(window int) sdk.PartChunker {
		return &chunkers.Noop{Counter: sdk.Words{}, WindowBytes: window}
	})
}
