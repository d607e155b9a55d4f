package chunkers

import (
	"strings"
)

// oneLine returns s with every run of white space that holds a line break turned into one
// space, so a multi-line heading or title renders on the context's one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// contexter renders the contexts of one document under one mode and budget.
type contexter struct {
	l     *layout
	mode  ContextMode
	limit int // the most tokens a context may take: a quarter of the budget
	cache map[string]rendered
}

// rendered is a context line and the tokens a chunk spends on it, sdk.ContextJoin included.
type rendered struct {
	text string
	cost int
}

func newContexter(l *layout, mode ContextMode, maxTokens int) *contexter {
	return &contexter{l: l, mode: mode, limit: maxTokens / 4, cache: map[string]rendered{}}
}

// render returns the context of a chunk under the heading path, and what it costs. The parts
// are the title (unless the mode leaves it out, it is empty, or it equals the path's first
// heading) and the headings of the path; while the parts cost more than the limit, the first
// is dropped, and when even the last alone costs more, the context is empty.
func (c *contexter) render(path []string) rendered { return c.renderHeld(path, false) }

// renderHeld is render, leaving out the path's last heading when held: for a chunk whose text
// starts with that heading.
func (c *contexter) renderHeld(path []string, held bool) rendered {
	if c.mode == ContextNone {
		return rendered{}
	}
	key := strings.Join(path, "\x00")
	if held {
		key += "\x01"
	}
	if r, ok := c.cache[key]; ok {
		return r
	}
	var parts []string
	title := oneLine(c.l.doc.Title)
	if (c.mode == ContextTitlePath || c.mode == ContextTitle) && title != "" && (len(path) == 0 || oneLine(path[0]) != title) {
		parts = append(parts, title)
	}
	if held && len(path) > 0 {
		path = path[:len(path)-1]
	}
	if c.mode == ContextTitlePath || c.mode == ContextPath {
		for _, p := range path {
			if p = oneLine(p); p != "" {
				parts = append(parts, p)
			}
		}
	}
	var r rendered
	for k := range parts {
		cost := (len(parts) - k - 1) * c.l.arrowTok
		for _, p := range parts[k:] {
			cost += c.tokensOf(p)
		}
		if cost <= c.limit {
			r = rendered{text: strings.Join(parts[k:], ContextSeparator), cost: cost + c.l.sepTok}
			break
		}
	}
	c.cache[key] = r
	return r
}

// tokensOf returns the measured tokens of a context part, or an upper bound (its bytes) for a
// part that was not measured.
func (c *contexter) tokensOf(part string) int {
	if n, ok := c.l.textTok[part]; ok {
		return n
	}
	return len(part)
}

// reserve returns what a chunk under the heading path spends on its context at most: the
// cost of its context, or of the context of a chunk that starts with the path's heading,
// which can be the larger when the heading alone is too long to fit.
func (c *contexter) reserve(path []string) int {
	return max(c.render(path).cost, c.renderHeld(path, true).cost)
}
