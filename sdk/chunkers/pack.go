package chunkers

import (
	"slices"

	"github.com/chunkkit/chunkkit/sdk"
)

// packer accumulates units into body drafts, section by section: each unit joins the chunk
// being packed while the chunk's EmbedText (context, separator, prefix and text) fits the
// budget, and otherwise starts the next chunk, with an overlap into the one before.
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
	ctx        rendered // the context of the section's body drafts
	headCtx    rendered // the context of a draft that starts with the section's heading
	cur        *draft
	curTok     int      // prefix tokens of cur
	curCtx     rendered // the context of cur
	prev       *draft
}

// section starts the section under heading chunk h (HeadingChunks), which it emits first.
func (p *packer) section(h *draft, ctx rendered) {
	p.flush()
	p.out = append(p.out, h)
	p.open(h, h.path, ctx)
}

// contexts returns the contexts of a section with path under cx: that of its chunks, and that
// of a chunk that starts with the section's heading, which leaves the heading out because the
// chunk's text holds it.
func contexts(cx *contexter, path []string) (ctx, headCtx rendered) {
	return cx.render(path), cx.renderHeld(path, true)
}

// open closes the chunk being packed and starts a section whose body drafts have parent,
// path and context; no overlap reaches back into the section before.
func (p *packer) open(parent *draft, path []string, ctx rendered) {
	p.flush()
	p.parent, p.path, p.ctx, p.headCtx, p.prev = parent, path, ctx, ctx, nil
}

// openFolded starts a section whose heading is a unit that comes next. A chunk that holds
// nothing but headings stays open, so the heading joins it: a heading with no text of its
// own before the next one travels with that one's text instead of making a chunk alone.
func (p *packer) openFolded(parent *draft, path []string, cx *contexter) {
	if p.cur == nil || !p.cur.onlyHeadings {
		p.flush()
	}
	p.ctx, p.headCtx = contexts(cx, path)
	p.parent, p.path, p.prev = parent, path, nil
}

func (p *packer) add(u unit) {
	if c := p.cur; c != nil && !c.overBudget && !c.bare && !u.overBudget && !u.fresh && p.l.tokens(c.start, u.end)+p.curTok+p.curCtx.cost <= p.maxTokens {
		c.end = u.end
		if u.heading && c.onlyHeadings {
			c.path = slices.Clone(p.path) // its context stays: the chunk holds every heading since
		} else if !u.heading {
			c.onlyHeadings = false
		}
		return
	}
	p.flush()
	p.curCtx = p.ctx
	switch {
	case u.bare:
		p.curCtx = rendered{}
	case u.heading:
		p.curCtx = p.headCtx
	}
	d := &draft{kind: sdk.ChunkBody, start: u.start, body: u.start, end: u.end, parent: p.parent,
		path: slices.Clone(p.path), context: p.curCtx.text, overBudget: u.overBudget, onlyHeadings: u.heading, bare: u.bare}
	p.curTok = 0
	switch {
	case u.header != "":
		d.prefix, p.curTok = u.header, u.headerTok
	case p.prev != nil && p.overlap > 0 && !u.overBudget:
		p.curTok = p.takeOverlap(d, u.end)
	}
	p.cur = d
}

// fits reports whether units, all of one block, would join the chunk being packed.
func (p *packer) fits(units []unit) bool {
	c := p.cur
	if c == nil || c.overBudget || c.bare || len(units) == 0 {
		return false
	}
	for _, u := range units {
		if u.overBudget || u.header != "" {
			return false
		}
	}
	return p.l.tokens(c.start, units[len(units)-1].end)+p.curTok+p.curCtx.cost <= p.maxTokens
}

func (p *packer) flush() {
	if p.cur != nil && p.cur.trimmed(p.l.canon.Text) {
		p.out = append(p.out, p.cur)
		p.prev = p.cur
	}
	p.cur = nil
}
