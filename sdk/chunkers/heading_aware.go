package chunkers

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/sentence"
)

// HeadingAware chunks a document along its heading tree within an exact token budget.
//
// Every heading becomes a heading chunk whose parent is the nearest enclosing heading of a
// lower level (a skipped level still parents to the heading above it). Body blocks accumulate
// under their heading until the next would exceed MaxTokens; body chunks' parent is their
// heading chunk. The next body chunk of the same section starts with the last OverlapTokens
// tokens of the previous one, cut at a token boundary; there is no overlap across a heading.
// A block over budget is split at sentence boundaries, and a sentence still too large at token
// boundaries. A table or code block that fits is never split; one that does not is split at
// line boundaries, and each later part starts with the table's header rows (or the code
// block's opening fence), recorded in Metadata[sdk.MetaPrefix]. Every chunk's content is that
// prefix followed by canonical[Start:End], trimmed of white space at both ends.
//
// Counter is required. The zero values of the other fields mean the documented defaults.
// HeadingAware makes one Boundaries call and one Count call per document, plus a further Count
// for the rare chunk whose verified count exceeds its estimate; such a chunk is re-split,
// never emitted over budget. It is safe for concurrent use if its Counter and Sentences are.
type HeadingAware struct {
	Config
	// HeadingChunks emits every heading as a heading chunk of its own, the parent of its
	// section's chunks.
	HeadingChunks bool
}

// Chunk implements sdk.Chunker.
func (h *HeadingAware) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	const name = "heading-aware chunker"
	maxTokens, overlap, err := h.check(name)
	if err != nil {
		return nil, err
	}
	l, err := newLayout(ctx, name, h.Counter, doc, func(b sdk.Block) bool { return b.Kind != sdk.KindHeading })
	if err != nil {
		return nil, err
	}
	s := splitter{l: l, maxTokens: maxTokens, overlap: overlap, keepTables: h.KeepTablesWhole, sentences: h.Sentences}
	units, err := s.units(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: document %q: %w", name, doc.ID, err)
	}
	p := packer{l: l, maxTokens: maxTokens, overlap: overlap}
	var stack []*draft
	for i, b := range doc.Blocks {
		if b.Kind != sdk.KindHeading {
			for _, u := range units[i] {
				p.add(u)
			}
			continue
		}
		if sdk.IsBlank(b.Text) {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].level >= b.Level {
			stack = stack[:len(stack)-1]
		}
		hd := &draft{kind: sdk.ChunkHeading, level: b.Level, start: l.canon.Starts[i], end: l.blockEnd(i)}
		hd.trimmed(l.canon.Text)
		title := l.canon.Text[hd.start:hd.end]
		if len(stack) > 0 {
			hd.parent = stack[len(stack)-1]
		}
		hd.path = append(pathOf(hd.parent), title)
		stack = append(stack, hd)
		p.section(hd)
	}
	p.flush()
	drafts, err := verify(ctx, name, h.Counter, l, p.out, maxTokens)
	if err != nil {
		return nil, err
	}
	return finish(l, drafts, req), nil
}

func pathOf(d *draft) []string {
	if d == nil {
		return nil
	}
	return append([]string(nil), d.path...)
}

// unit is a piece of a body block that packing never splits.
type unit struct {
	start, end int
	block      int
	header     string // a later part of a split table or code block starts with this text
	headerTok  int
	overBudget bool // a table kept whole over budget by KeepTablesWhole
}

// splitter cuts body blocks into units that fit the budget.
type splitter struct {
	l          *layout
	maxTokens  int
	overlap    int
	keepTables bool
	sentences  sdk.SentenceSplitter
}

// delimiterRow matches a GFM table's delimiter row, such as "|---|:--:|".
var delimiterRow = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// units returns, per block, the units of its text: the whole block when it fits; rows or lines
// for a table or code block that does not; sentences, then token windows, for other blocks.
// All oversized prose blocks go to the sentence splitter in one call.
func (s *splitter) units(ctx context.Context) ([][]unit, error) {
	l := s.l
	out := make([][]unit, len(l.doc.Blocks))
	var prose []int
	for i, b := range l.doc.Blocks {
		if l.ends[i] == nil {
			continue
		}
		start, end := trim(l.canon.Text, l.canon.Starts[i], l.blockEnd(i))
		switch {
		case l.tokens(start, end) <= s.maxTokens:
			out[i] = []unit{{start: start, end: end, block: i}}
		case b.Kind == sdk.KindTable && s.keepTables:
			out[i] = []unit{{start: start, end: end, block: i, overBudget: true}}
		case b.Kind == sdk.KindTable || b.Kind == sdk.KindCode:
			out[i] = s.lines(i, start, end)
		default:
			prose = append(prose, i)
		}
	}
	if len(prose) == 0 {
		return out, nil
	}
	texts := make([]string, len(prose))
	for k, i := range prose {
		texts[k] = l.doc.Blocks[i].Text
	}
	sentences := s.sentences
	if sentences == nil {
		sentences = sentence.Splitter{}
	}
	ends, err := sentences.Split(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("splitting sentences: %w", err)
	}
	if len(ends) != len(texts) {
		return nil, fmt.Errorf("%w: sentence splitter answered %d texts for %d", sdk.ErrBadResponse, len(ends), len(texts))
	}
	for k, i := range prose {
		base, prev := l.canon.Starts[i], 0
		for _, e := range append(ends[k], len(texts[k])) {
			if e <= prev || e > len(texts[k]) {
				continue
			}
			out[i] = append(out[i], s.windows(i, base+prev, base+e, "", 0)...)
			prev = e
		}
	}
	return out, nil
}

// lines cuts a table or code block at line ends. Later parts repeat the header: a table's
// header and delimiter rows, or a code block's opening fence.
func (s *splitter) lines(i, start, end int) []unit {
	text := s.l.canon.Text
	var cuts []int // line ends, newline included
	for off := start; off < end; {
		nl := strings.IndexByte(text[off:end], '\n')
		if nl < 0 {
			cuts = append(cuts, end)
			break
		}
		off += nl + 1
		cuts = append(cuts, off)
	}
	headerLines := 0
	first := text[start:cuts[0]]
	switch kind := s.l.doc.Blocks[i].Kind; {
	case kind == sdk.KindTable && len(cuts) > 1 && delimiterRow.MatchString(text[cuts[0]:cuts[1]]):
		headerLines = 2
	case kind == sdk.KindTable:
		headerLines = 1
	case strings.HasPrefix(strings.TrimSpace(first), "```") || strings.HasPrefix(strings.TrimSpace(first), "~~~"):
		headerLines = 1
	}
	header, headerTok := "", 0
	if headerLines > 0 && headerLines < len(cuts) {
		header = text[start:cuts[headerLines-1]]
		headerTok = s.l.tokens(start, cuts[headerLines-1])
		if headerTok > s.maxTokens/2 {
			header, headerTok = "", 0
		}
	}
	var out []unit
	prev := start
	for k, c := range cuts {
		if k < headerLines-1 && header != "" {
			continue // the header rows travel as one unit
		}
		h := header
		if prev == start {
			h = ""
		}
		out = append(out, s.windows(i, prev, c, h, headerTok)...)
		prev = c
	}
	return out
}

// windows returns [a, b) as one unit when it fits beside the overlap, else cut into windows of
// as many tokens as fit, at token boundaries.
func (s *splitter) windows(i, a, b int, header string, headerTok int) []unit {
	l := s.l
	if l.tokens(a, b)+headerTok <= s.maxTokens {
		return []unit{{start: a, end: b, block: i, header: header, headerTok: headerTok}}
	}
	w := max(1, s.maxTokens-s.overlap-headerTok)
	var out []unit
	lo, _ := slices.BinarySearch(l.all, a+1)
	prev := a
	for k := lo + w - 1; k < len(l.all) && l.all[k] < b; k += w {
		if l.all[k] > prev {
			out = append(out, unit{start: prev, end: l.all[k], block: i, header: header, headerTok: headerTok})
			prev = l.all[k]
		}
	}
	out = append(out, unit{start: prev, end: b, block: i, header: header, headerTok: headerTok})
	return out
}

// packer accumulates units into body drafts, section by section.
type packer struct {
	l         *layout
	maxTokens int
	overlap   int
	// ownOverlap takes overlap only from the previous chunk's own text, never from the
	// overlap that chunk repeats, so overlap never cascades over short chunks.
	ownOverlap bool
	out        []*draft
	parent     *draft   // the parent of the section's body drafts, nil for none
	path       []string // the section path of the section's body drafts
	cur        *draft
	curTok     int // prefix tokens of cur
	prev       *draft
}

// section starts the section under heading h, which it emits first.
func (p *packer) section(h *draft) {
	p.flush()
	p.out = append(p.out, h)
	p.open(h, h.path)
}

// open closes the chunk being packed and starts a section whose body drafts have parent and
// path; no overlap reaches back into the section before.
func (p *packer) open(parent *draft, path []string) {
	p.flush()
	p.parent, p.path, p.prev = parent, path, nil
}

func (p *packer) add(u unit) {
	if c := p.cur; c != nil && !c.overBudget && !u.overBudget && p.l.tokens(c.start, u.end)+p.curTok <= p.maxTokens {
		c.end = u.end
		return
	}
	p.flush()
	d := &draft{kind: sdk.ChunkBody, start: u.start, body: u.start, end: u.end, parent: p.parent,
		path: slices.Clone(p.path), overBudget: u.overBudget}
	p.curTok = 0
	switch {
	case u.header != "":
		d.prefix, p.curTok = u.header, u.headerTok
	case p.prev != nil && p.overlap > 0 && !u.overBudget:
		// Take as many of the previous chunk's last tokens as fit, up to the overlap.
		floor := p.prev.start
		if p.ownOverlap {
			floor = p.prev.body
		}
		for k := p.overlap; k > 0; {
			s := p.l.tailStart(p.prev.end, k, floor)
			excess := p.l.tokens(s, u.end) - p.maxTokens
			if excess <= 0 {
				d.start, d.overlapEnd = s, p.prev.end
				break
			}
			k -= excess
		}
	}
	p.cur = d
}

// fits reports whether units, all of one block, would join the chunk being packed.
func (p *packer) fits(units []unit) bool {
	c := p.cur
	if c == nil || c.overBudget || len(units) == 0 {
		return false
	}
	for _, u := range units {
		if u.overBudget || u.header != "" {
			return false
		}
	}
	return p.l.tokens(c.start, units[len(units)-1].end)+p.curTok <= p.maxTokens
}

func (p *packer) flush() {
	if p.cur != nil && p.cur.trimmed(p.l.canon.Text) {
		p.out = append(p.out, p.cur)
		p.prev = p.cur
	}
	p.cur = nil
}
