package conformance

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// refChunker is the reference chunker the kit's own tests pass: one heading chunk per heading
// block, and every other non-blank block cut at token boundaries into body chunks of at most
// cut tokens, each starting overlap tokens before the previous one ends. It makes one
// Boundaries call and one Count call per document.
type refChunker struct {
	counter sdk.TokenCounter
	// cut is how many tokens a body chunk takes; budget is what Budget reports. They differ
	// only in tests of a chunker that breaks its promise.
	cut, budget, overlap int
	// unbudgeted hides Budget: the chunker then promises nothing.
	unbudgeted bool
}

// budgetedRef is refChunker with its Budget method.
type budgetedRef struct{ refChunker }

// Budget returns the budget and the overlap.
func (r budgetedRef) Budget() (maxTokens, overlapTokens int) { return r.budget, r.overlap }

func newRef(counter sdk.TokenCounter, maxTokens, overlap int) sdk.Chunker {
	return budgetedRef{refChunker{counter: counter, cut: maxTokens, budget: maxTokens, overlap: overlap}}
}

func (r refChunker) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	if err := doc.Validate(); err != nil {
		return nil, fmt.Errorf("refChunker: %w", err)
	}
	canon := doc.Canonical()
	texts := make([]string, len(doc.Blocks))
	for i, b := range doc.Blocks {
		texts[i] = b.Text
	}
	bounds, err := r.counter.Boundaries(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("refChunker: %w", err)
	}
	var (
		chunks  []sdk.Chunk
		path    []string
		levels  []int
		parents []int // chunk index of each heading on path
	)
	for i, b := range doc.Blocks {
		if sdk.IsBlank(b.Text) {
			continue
		}
		start := canon.Starts[i]
		if b.Kind == sdk.KindHeading {
			for len(levels) > 0 && levels[len(levels)-1] >= b.Level {
				path, levels, parents = path[:len(path)-1], levels[:len(levels)-1], parents[:len(parents)-1]
			}
			c := sdk.Chunk{Kind: sdk.ChunkHeading, Level: b.Level, Content: b.Text, Start: start, End: start + len(b.Text),
				SectionTitle: b.Text, PageStart: b.Page, PageEnd: b.Page, ContentTypes: []string{string(b.Kind)},
				Metadata: map[string]any{sdk.MetaKind: string(sdk.ChunkHeading), sdk.MetaLevel: b.Level}}
			if len(parents) > 0 {
				c.ParentID = sdk.ChunkID(doc.ID, parents[len(parents)-1])
			}
			path, levels, parents = append(path, b.Text), append(levels, b.Level), append(parents, len(chunks))
			c.SectionPath = append([]string(nil), path...)
			chunks = append(chunks, c)
			continue
		}
		ends := bounds[i]
		prevBodyEnd := -1
		for k := 0; k < len(ends); {
			from := k - r.overlap
			if prevBodyEnd < 0 || from < 0 {
				from = k
			}
			to := min(max(from+r.cut, k+1), len(ends))
			lo := 0
			if from > 0 {
				lo = ends[from-1]
			}
			hi := ends[to-1]
			k = to
			if sdk.IsBlank(b.Text[lo:hi]) {
				continue
			}
			c := sdk.Chunk{Kind: sdk.ChunkBody, Content: b.Text[lo:hi], Start: start + lo, End: start + hi,
				PageStart: b.Page, PageEnd: b.Page, ContentTypes: []string{string(b.Kind)},
				Metadata: map[string]any{sdk.MetaKind: string(sdk.ChunkBody)}}
			if prevBodyEnd >= 0 && lo < prevBodyEnd {
				c.Metadata[sdk.MetaOverlapBytes] = prevBodyEnd - lo
			}
			prevBodyEnd = hi
			if len(path) > 0 {
				c.SectionPath = append([]string(nil), path...)
				c.SectionTitle = path[len(path)-1]
				c.ParentID = sdk.ChunkID(doc.ID, parents[len(parents)-1])
			}
			chunks = append(chunks, c)
		}
	}
	contents := make([]string, len(chunks))
	for i, c := range chunks {
		contents[i] = c.Content
	}
	counts, err := r.counter.Count(ctx, contents)
	if err != nil {
		return nil, fmt.Errorf("refChunker: %w", err)
	}
	for i := range chunks {
		chunks[i].TokenCount = counts[i]
	}
	sdk.Stamp(chunks, req, doc)
	return chunks, nil
}
