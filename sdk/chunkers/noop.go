package chunkers

import (
	"context"
	"math"

	"github.com/chunkkit/chunkkit/sdk"
)

// Noop makes one body chunk per block that is not blank, with no parent links and no budget:
// the reference for "no chunking". Each chunk's content is its block's text trimmed of white
// space, and TokenCount is measured by Counter in one Count call. Counter is required; Noop is
// safe for concurrent use if Counter is.
type Noop struct {
	Counter sdk.TokenCounter
}

// Chunk implements sdk.Chunker.
func (n *Noop) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	const name = "noop chunker"
	l, err := newLayout(ctx, name, n.Counter, doc, nil)
	if err != nil {
		return nil, err
	}
	var drafts []*draft
	for i := range doc.Blocks {
		d := &draft{kind: sdk.ChunkBody, start: l.canon.Starts[i], end: l.blockEnd(i)}
		if d.trimmed(l.canon.Text) {
			drafts = append(drafts, d)
		}
	}
	drafts, err = verify(ctx, name, n.Counter, l, drafts, math.MaxInt)
	if err != nil {
		return nil, err
	}
	return finish(l, drafts, req), nil
}
