package chunkers_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// piecesOnly is a counter with the Retainer ability that refuses whole texts in Count: the
// chunkers must count their final chunks as pieces of what Boundaries was sent. It records
// every text it built from pieces.
type piecesOnly struct {
	t *testing.T
	sdk.TokenCounter

	mu    sync.Mutex
	built map[string]bool
}

func (p *piecesOnly) Count(ctx context.Context, texts []string) ([]int, error) {
	p.t.Errorf("Count called with %d texts; want CountPieces", len(texts))
	return p.TokenCounter.Count(ctx, texts)
}

func (p *piecesOnly) RetainBoundaries(ctx context.Context, texts []string) ([][]int, sdk.Retained, error) {
	bounds, err := p.TokenCounter.Boundaries(ctx, texts)
	return bounds, retainedFunc(func(ctx context.Context, items [][]sdk.Piece) ([]int, error) {
		built, err := sdk.Build(texts, items)
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		for _, s := range built {
			p.built[s] = true
		}
		p.mu.Unlock()
		return p.TokenCounter.Count(ctx, built)
	}), err
}

type retainedFunc func(ctx context.Context, items [][]sdk.Piece) ([]int, error)

func (f retainedFunc) CountPieces(ctx context.Context, items [][]sdk.Piece) ([]int, error) {
	return f(ctx, items)
}

// TestChunkersCountTheirChunksAsPiecesOfTheBlocks checks, on the conformance kit's hard
// documents, that a counter able to keep its Boundaries texts is asked to count the chunks as
// pieces of them, that those pieces rebuild every chunk's EmbedText exactly, and that the chunks
// equal those made through a plain counter.
func TestChunkersCountTheirChunksAsPiecesOfTheBlocks(t *testing.T) {
	t.Parallel()
	for _, strategy := range []string{chunkers.StrategyHeading, chunkers.StrategySections, chunkers.StrategyFixed} {
		for _, maxTokens := range []int{16, 200} {
			t.Run(fmt.Sprintf("%s at %d tokens", strategy, maxTokens), func(t *testing.T) {
				t.Parallel()
				for _, tc := range conformance.Documents() {
					plain, err := chunkers.New(strategy, chunkers.Options{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: maxTokens}})
					if err != nil {
						t.Fatal(err)
					}
					p := &piecesOnly{t: t, TokenCounter: sdk.Words{}, built: map[string]bool{}}
					viaPieces, err := chunkers.New(strategy, chunkers.Options{Config: chunkers.Config{Counter: p, MaxTokens: maxTokens}})
					if err != nil {
						t.Fatal(err)
					}
					want, wantErr := plain.Chunk(context.Background(), sdk.Request{}, tc.Doc)
					got, err := viaPieces.Chunk(context.Background(), sdk.Request{}, tc.Doc)
					if wantErr != nil || err != nil {
						if fmt.Sprint(wantErr) != fmt.Sprint(err) {
							t.Errorf("%s: error %v through pieces, %v plain", tc.Name, err, wantErr)
						}
						continue
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s: chunks counted as pieces differ (-want +got):\n%s", tc.Name, diff)
					}
					for _, c := range got {
						if !p.built[c.EmbedText] {
							t.Errorf("%s: chunk %d's embed_text was never counted as pieces: %.60q", tc.Name, c.Position, c.EmbedText)
						}
					}
				}
			})
		}
	}
}
