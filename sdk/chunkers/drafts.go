package chunkers

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// maxVerifyRounds bounds the verify-and-resplit loop. Each round halves the chunks that
// failed, so 64 rounds are never reached on real input; the bound turns a counter that
// contradicts itself into an error instead of a loop.
const maxVerifyRounds = 64

// draft is a chunk before verification: a range of the canonical text and where it belongs.
type draft struct {
	kind       sdk.ChunkKind
	level      int
	start      int    // start of the range, overlap included
	body       int    // where the chunk's own text starts; start < body means overlap
	overlapEnd int    // where the repeated text ends: the previous chunk's end
	end        int    // end of the range
	prefix     string // rendered text before the range, such as a repeated table header
	parent     *draft
	path       []string
	overBudget bool
	tokens     int
}

func (d *draft) content(text string) string { return d.prefix + text[d.start:d.end] }

// trimmed narrows the draft to exclude white space at both ends and reports whether any of
// the chunk's own text is left.
func (d *draft) trimmed(text string) bool {
	d.start, d.end = trim(text, d.start, d.end)
	d.body = min(max(d.body, d.start), d.end)
	_, bodyEnd := trim(text, d.body, d.end)
	return bodyEnd > d.body && !sdk.IsBlank(text[d.body:d.end])
}

// verify counts every draft's final content in one call and re-splits each body draft over
// maxTokens until all fit, counting only the new pieces in each further round.
func verify(ctx context.Context, name string, counter sdk.TokenCounter, l *layout, drafts []*draft, maxTokens int) ([]*draft, error) {
	text := l.canon.Text
	pending := drafts
	for round := 0; len(pending) > 0; round++ {
		if round == maxVerifyRounds {
			return nil, fmt.Errorf("%w: %s: document %q: chunks still over %d tokens after %d re-splits; the counter's counts and boundaries disagree",
				sdk.ErrBadResponse, name, l.doc.ID, maxTokens, maxVerifyRounds)
		}
		texts := make([]string, len(pending))
		for i, d := range pending {
			texts[i] = d.content(text)
		}
		counts, err := counter.Count(ctx, texts)
		if err != nil {
			return nil, fmt.Errorf("%s: counting chunks of document %q: %w", name, l.doc.ID, err)
		}
		if err := sdk.CheckCounts(texts, counts); err != nil {
			return nil, fmt.Errorf("%s: counting chunks of document %q: %w", name, l.doc.ID, err)
		}
		var replace map[*draft][]*draft
		var next []*draft
		for i, d := range pending {
			d.tokens = counts[i]
			if d.kind != sdk.ChunkBody || d.overBudget || d.tokens <= maxTokens {
				continue
			}
			pieces, err := resplit(l, d, maxTokens)
			if err != nil {
				return nil, fmt.Errorf("%s: document %q: %w", name, l.doc.ID, err)
			}
			if replace == nil {
				replace = make(map[*draft][]*draft)
			}
			replace[d] = pieces
			next = append(next, pieces...)
		}
		if replace != nil {
			out := make([]*draft, 0, len(drafts)+len(next))
			for _, d := range drafts {
				if pieces, ok := replace[d]; ok {
					out = append(out, pieces...)
				} else {
					out = append(out, d)
				}
			}
			drafts = out
		}
		pending = next
	}
	return drafts, nil
}

// resplit makes a body draft that counted over budget smaller: first by shortening its
// overlap by the excess, then by cutting its own text at the middle token boundary, and for a
// single token by dropping its rendered prefix. A single token over budget is an error.
func resplit(l *layout, d *draft, maxTokens int) ([]*draft, error) {
	text := l.canon.Text
	excess := d.tokens - maxTokens
	if d.start < d.body {
		c := *d
		keep := l.tokens(d.start, d.body) - excess - 1
		c.start = l.tailStart(d.body, keep, d.start)
		if keep <= 0 || c.start == d.start {
			c.start = d.body
		}
		c.trimmed(text)
		return []*draft{&c}, nil
	}
	if m := l.midToken(d.body, d.end); m >= 0 {
		a, b := *d, *d
		a.end, b.start, b.body = m, m, m
		var out []*draft
		for _, p := range []*draft{&a, &b} {
			if p.trimmed(text) {
				out = append(out, p)
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	if d.prefix != "" {
		c := *d
		c.prefix = ""
		return []*draft{&c}, nil
	}
	return nil, fmt.Errorf("%w: the text %q at byte %d is %d tokens, more than the budget of %d tokens",
		sdk.ErrInvalidConfig, text[d.start:d.end], d.start, d.tokens, maxTokens)
}

// finish turns verified drafts into chunks with positions, parent links and span details,
// then stamps identity and ACL fields from the request.
func finish(l *layout, drafts []*draft, req sdk.Request) []sdk.Chunk {
	pos := make(map[*draft]int, len(drafts))
	for i, d := range drafts {
		pos[d] = i
	}
	chunks := make([]sdk.Chunk, len(drafts))
	for i, d := range drafts {
		sp := l.span(d.start, d.end)
		kinds := sp.kinds
		meta := map[string]any{sdk.MetaKind: string(d.kind), sdk.MetaBlockKinds: kinds}
		if len(sp.bboxes) > 0 {
			meta[sdk.MetaBBoxes] = sp.bboxes
		}
		c := sdk.Chunk{
			Kind:         d.kind,
			Level:        d.level,
			Content:      d.content(l.canon.Text),
			TokenCount:   d.tokens,
			SectionPath:  d.path,
			PageStart:    sp.pageStart,
			PageEnd:      sp.pageEnd,
			ContentTypes: kinds,
			Start:        d.start,
			End:          d.end,
			Metadata:     meta,
		}
		if c.SectionPath == nil {
			c.SectionPath = []string{}
		}
		if n := len(d.path); n > 0 {
			c.SectionTitle = d.path[n-1]
		}
		if d.kind == sdk.ChunkHeading {
			meta[sdk.MetaLevel] = d.level
		}
		if n := min(d.overlapEnd, d.body) - d.start; n > 0 {
			meta[sdk.MetaOverlapBytes] = n
		}
		if d.prefix != "" {
			meta[sdk.MetaPrefix] = d.prefix
		}
		if d.overBudget {
			meta[sdk.MetaOverBudget] = true
		}
		chunks[i] = c
		if d.parent != nil {
			chunks[i].ParentID = sdk.ChunkID(l.doc.ID, pos[d.parent])
		}
	}
	sdk.Stamp(chunks, req, l.doc)
	return chunks
}
