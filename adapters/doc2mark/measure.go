package doc2mark

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// measurer is doc2mark's length function: code points, or tokens from a counter.
type measurer struct {
	tokens  bool
	counter sdk.TokenCounter
}

// lengths measures every text, with one Count call in token mode.
func (m measurer) lengths(ctx context.Context, texts []string) ([]int, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	if !m.tokens {
		out := make([]int, len(texts))
		for i, t := range texts {
			out[i] = pyLen(t)
		}
		return out, nil
	}
	counts, err := m.counter.Count(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("doc2mark: counting %d texts: %w", len(texts), err)
	}
	if err := sdk.CheckCounts(texts, counts); err != nil {
		return nil, fmt.Errorf("doc2mark: counting %d texts: %w", len(texts), err)
	}
	return counts, nil
}

// boundaries returns the token end offsets of every text, with one Boundaries call.
func (m measurer) boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	bounds, err := m.counter.Boundaries(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("doc2mark: token boundaries of %d texts: %w", len(texts), err)
	}
	if err := sdk.CheckBoundaries(texts, bounds); err != nil {
		return nil, fmt.Errorf("doc2mark: token boundaries of %d texts: %w", len(texts), err)
	}
	return bounds, nil
}
