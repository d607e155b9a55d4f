package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// The overlap convention, shared by every budgeted chunker: a body chunk repeats at most
// OverlapTokens tokens from the end of the body chunk before it in the same section, fewer
// when the budget needs them, and the repeated text starts where a chunk may start — at a
// sentence, line or block start when one lies within those tokens, else at a word start, and
// inside a table or fenced code block at a line start with the table's header rows or the
// opening fence put before it as Metadata[sdk.MetaPrefix]. When no such start lies within the
// tokens, the chunk has no overlap.

// takeOverlap starts d, whose own text ends at end, with the tail of the previous chunk, and
// returns the tokens of the prefix it set.
func (p *packer) takeOverlap(d *draft, end int) int {
	floor := p.prev.start
	if p.ownOverlap {
		floor = p.prev.body
	}
	for k := p.overlap; k > 0; {
		s := p.l.tailStart(p.prev.end, k, floor)
		o, ok := p.l.overlapStart(s, p.prev.end)
		if !ok {
			return 0
		}
		excess := p.l.tokens(o.start, end) + o.prefixTok + p.curCtx.cost - p.maxTokens
		if excess <= 0 {
			d.start, d.overlapEnd, d.prefix = o.start, p.prev.end, o.prefix
			return o.prefixTok
		}
		k -= excess
	}
	return 0
}

// overlapAt is where an overlap starts and the prefix it needs.
type overlapAt struct {
	start     int
	prefix    string
	prefixTok int
}

// overlapStart moves s, the start of an overlap that ends at end, forward to where an overlap
// may start (see the convention above). It reports false when there is no such place before
// end.
func (l *layout) overlapStart(s, end int) (overlapAt, bool) {
	c := l.firstCut(s, end, true)
	if c < 0 {
		c = l.firstCut(s, end, false)
	}
	if c < 0 || c >= end {
		return overlapAt{}, false
	}
	i := l.blockAt(c)
	header, headerTok, hdrEnd, hasHeader := l.header(i)
	bs, _ := l.trimmed(i)
	if c < bs || c == bs && !l.laterPart(i) || !hasHeader && !isTableOrCode(l, i) {
		return overlapAt{start: c}, true
	}
	// Inside a table or code block: at a line start, after the header, with the header.
	from := c
	if hasHeader {
		from = max(c, hdrEnd)
	}
	if c = l.firstCut(from, end, true); c < 0 {
		return overlapAt{}, false
	}
	if !hasHeader || c >= l.blockEnd(i) {
		return overlapAt{start: c}, true
	}
	return overlapAt{start: c, prefix: header, prefixTok: headerTok}, true
}

func isTableOrCode(l *layout, i int) bool {
	k := l.doc.Blocks[i].Kind
	return k == sdk.KindTable || k == sdk.KindCode
}
