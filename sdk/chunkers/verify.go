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
	kind         sdk.ChunkKind
	level        int
	start        int    // start of the range, overlap included
	body         int    // where the chunk's own text starts; start < body means overlap
	overlapEnd   int    // where the repeated text ends: the previous chunk's end
	end          int    // end of the range
	prefix       string // rendered text before the range, such as a repeated table header
	context      string // the chunk's Context
	parent       *draft
	path         []string
	overBudget   bool
	onlyHeadings bool   // the draft holds headings' text and nothing else
	holder       bool   // the draft holds a heading: later drafts of the section name it parent
	bare         bool   // a word that fits only without context: nothing joins it
	tokens       int    // the count of the draft's EmbedText
	replacedBy   *draft // the first piece of a draft verify re-split, for parent links
	// emitted says the draft was made a chunk, at position: a later window's chunks may
	// name it parent (see carry).
	emitted  bool
	position int
}

func (d *draft) content(text string) string { return d.prefix + text[d.start:d.end] }

func (d *draft) embedText(text string) string { return sdk.JoinContext(d.context, d.content(text)) }

// trimmed narrows the draft to exclude white space at both ends (for a draft with a prefix,
// only blank lines at its start) and reports whether any of the chunk's own text is left.
func (d *draft) trimmed(text string) bool {
	if d.prefix != "" {
		// A later part of a table or code block keeps its first line's indentation after
		// the repeated header: only whole blank lines go.
		for d.start < d.end && (text[d.start] == '\n' || text[d.start] == '\r') {
			d.start++
		}
		_, d.end = trim(text, d.start, d.end)
		if sdk.IsBlank(text[d.start:d.end]) {
			d.start = d.end
		}
	} else {
		d.start, d.end = trim(text, d.start, d.end)
	}
	d.body = min(max(d.body, d.start), d.end)
	_, bodyEnd := trim(text, d.body, d.end)
	return bodyEnd > d.body && !sdk.IsBlank(text[d.body:d.end])
}

// verify counts every draft's final EmbedText in one call and re-splits each body draft over
// maxTokens until all fit, counting only the new pieces in each further round.
func verify(ctx context.Context, name string, counter sdk.TokenCounter, l *layout, drafts []*draft, maxTokens int) ([]*draft, error) {
	pending := drafts
	for round := 0; len(pending) > 0; round++ {
		if round == maxVerifyRounds {
			return nil, fmt.Errorf("%w: %s: document %q: chunks still over %d tokens after %d re-splits; the counter's counts and boundaries disagree",
				sdk.ErrBadResponse, name, l.doc.ID, maxTokens, maxVerifyRounds)
		}
		counts, err := countDrafts(ctx, counter, l, pending)
		if err != nil {
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
			d.replacedBy = pieces[0]
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

// countDrafts counts the drafts' EmbedTexts in one call: as pieces of the texts the layout's
// Boundaries call sent, when it kept them (l.retained), so that a plugin receives only the
// contexts and separators; otherwise as whole strings with counter.Count.
func countDrafts(ctx context.Context, counter sdk.TokenCounter, l *layout, drafts []*draft) ([]int, error) {
	text := l.canon.Text
	if l.retained == nil {
		texts := make([]string, len(drafts))
		for i, d := range drafts {
			texts[i] = d.embedText(text)
		}
		counts, err := counter.Count(ctx, texts)
		if err != nil {
			return nil, err
		}
		return counts, sdk.CheckCounts(texts, counts)
	}
	items := make([][]sdk.Piece, len(drafts))
	lens := make([]int, len(drafts))
	for i, d := range drafts {
		var item []sdk.Piece
		if d.context != "" {
			item = append(item, sdk.LiteralPiece(d.context+sdk.ContextJoin))
			lens[i] += len(d.context) + len(sdk.ContextJoin)
		}
		if d.prefix != "" {
			item = append(item, sdk.LiteralPiece(d.prefix))
			lens[i] += len(d.prefix)
		}
		items[i] = l.pieces(item, d.start, d.end)
		lens[i] += d.end - d.start
	}
	counts, err := l.retained.CountPieces(ctx, items)
	if err != nil {
		return nil, err
	}
	if len(counts) != len(items) {
		return nil, fmt.Errorf("%w: %d counts for %d texts", sdk.ErrBadResponse, len(counts), len(items))
	}
	for i, c := range counts {
		if c < 0 || c != 0 && lens[i] == 0 {
			return nil, fmt.Errorf("%w: text %d of %d bytes counted %d tokens", sdk.ErrBadResponse, i, lens[i], c)
		}
	}
	return counts, nil
}

// resplit makes a body draft that counted over budget smaller: first by shortening its
// overlap by the excess, then by cutting its own text where words stay whole nearest the
// middle (at the middle token boundary only inside one word), then by dropping its context,
// and for a single token by dropping its rendered prefix. A single token over budget is an
// error.
func resplit(l *layout, d *draft, maxTokens int) ([]*draft, error) {
	text := l.canon.Text
	excess := d.tokens - maxTokens
	if d.start < d.body {
		c := *d
		keep := l.tokens(d.start, d.body) - excess - 1
		c.start, c.prefix = d.body, ""
		if keep > 0 {
			if o, ok := l.overlapStart(l.tailStart(d.body, keep, d.start), d.overlapEnd); ok && o.start > d.start {
				c.start, c.prefix = o.start, o.prefix
			}
		}
		c.trimmed(text)
		return []*draft{&c}, nil
	}
	if m := l.midCut(d.body, d.end); m >= 0 {
		a, b := *d, *d
		a.end, b.start, b.body = m, m, m
		b.onlyHeadings, b.holder = false, false
		var out []*draft
		for _, p := range []*draft{&a, &b} {
			if p.trimmed(text) {
				out = append(out, p)
			}
		}
		if d.holder && len(out) == 2 {
			b.parent = &a // the rest of a section's first chunk is the section's
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	if d.context != "" {
		c := *d
		c.context = ""
		return []*draft{&c}, nil
	}
	if d.prefix != "" {
		c := *d
		c.prefix = ""
		return []*draft{&c}, nil
	}
	return nil, fmt.Errorf("%w: the text %q at byte %d is %d tokens, more than the budget of %d tokens",
		sdk.ErrInvalidConfig, text[d.start:d.end], l.base+d.start, d.tokens, maxTokens)
}
