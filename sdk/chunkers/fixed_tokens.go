package chunkers

import (
	"context"

	"github.com/chunkkit/chunkkit/sdk"
)

// FixedTokens cuts the canonical text into windows of MaxTokens tokens, each starting
// OverlapTokens tokens before the previous one ended, at token boundaries and ignoring the
// document's structure and words: the baseline the bench compares structured chunkers against.
// Every chunk is a body chunk with no parent, and Content == canonical[Start:End] trimmed of
// white space. Its Context is empty by default (ContextNone); ContextTitle and ContextTitlePath
// give the document's title, and ContextPath nothing, as FixedTokens knows no headings. Counter is
// required; zero MaxTokens and OverlapTokens mean 512 and 64 (NoOverlap means none); Sentences
// and KeepTablesWhole are not read. Calls and verification are as for HeadingAware.
type FixedTokens struct {
	Config
}

// KeepsWords reports false: FixedTokens cuts at token boundaries wherever they fall.
func (f *FixedTokens) KeepsWords() bool { return false }

// Chunk implements sdk.Chunker.
func (f *FixedTokens) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	const name = "fixed-tokens chunker"
	maxTokens, overlap, err := f.check(name)
	if err != nil {
		return nil, err
	}
	l, err := newLayout(ctx, name, f.Counter, doc, func(sdk.Block) bool { return true })
	if err != nil {
		return nil, err
	}
	cx := newContexter(l, f.contextMode(ContextNone), maxTokens)
	title := cx.render(nil) // FixedTokens knows no sections: a context is the title at most
	all := l.all
	startOf := func(i int) int {
		if i == 0 {
			return 0
		}
		return all[i-1]
	}
	var drafts []*draft
	var prev *draft
	for i := 0; i < len(all); {
		// The window is tokens i..j; separators between blocks count too, so shrink to fit.
		j := min(i+maxTokens, len(all)) - 1
		for j > i && l.tokens(startOf(i), all[j])+title.cost > maxTokens {
			j--
		}
		d := &draft{kind: sdk.ChunkBody, start: startOf(i), body: startOf(i), end: all[j], context: title.text}
		if prev != nil && prev.end > d.start {
			d.body, d.overlapEnd = prev.end, prev.end
		}
		if d.trimmed(l.canon.Text) {
			drafts = append(drafts, d)
			prev = d
		}
		if j == len(all)-1 {
			break
		}
		i = max(i+1, j+1-overlap)
	}
	drafts, err = verify(ctx, name, f.Counter, l, drafts, maxTokens)
	if err != nil {
		return nil, err
	}
	return finish(l, drafts, req), nil
}
