package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark v1.8.7 is quadratic in two places that hostile or generated input reaches. The
// code in this file keeps Parse linear; both workarounds change only how goldmark sees
// pathological input, never the text that lands in blocks.

// maxNesting is the deepest container nesting goldmark is shown: block quotes and list items
// opened on one line, or list items opened by indentation. goldmark re-reads the whole line for
// every open container, and recomputes the line's column for every container it opens, so a
// line of n ">" costs n² and a staircase of ever deeper list items costs n^1.5; real documents
// nest a handful of levels.
const maxNesting = 32

// maxIndent is the widest indentation, in columns, before which goldmark is shown a container
// marker. A list item needs at least two columns more than its parent, so this bounds nesting by
// indentation to about 2*maxNesting levels.
const maxIndent = 4 * maxNesting

// capNesting returns body with every container marker that would open nesting level
// maxNesting+1 on its line, or that sits after more than maxIndent columns of indentation,
// replaced by "x", so that goldmark reads the rest of that line as text. Offsets and lengths are
// unchanged, so node positions still index body. It returns body itself when no line is capped.
func capNesting(body []byte) []byte {
	out := body
	for start := 0; start < len(body); {
		end := start
		for end < len(body) && body[end] != '\n' {
			end++
		}
		if m := deepMarker(body[start:end]); m >= 0 {
			if len(out) > 0 && &out[0] == &body[0] {
				out = append([]byte(nil), body...)
			}
			out[start+m] = 'x'
		}
		start = end + 1
	}
	return out
}

// deepMarker returns the offset in line of the first container marker past the limits of
// capNesting, or -1. It over-approximates what goldmark would open (a marker inside indented
// code counts too), which only ever caps a line that is deep or indented past the limits anyway;
// thematic breaks such as "- - - -", which look like a run of bullets, are left alone.
func deepMarker(line []byte) int {
	depth, cols := 0, 0
	p := 0
	for {
		for p < len(line) && (line[p] == ' ' || line[p] == '\t') {
			if line[p] == '\t' {
				cols += 4 - cols%4
			} else {
				cols++
			}
			p++
		}
		if p >= len(line) {
			return -1
		}
		marker, next := p, 0
		switch c := line[p]; {
		case c == '>':
			next = p + 1
		case c == '-' || c == '+' || c == '*':
			if p+1 < len(line) && (line[p+1] == ' ' || line[p+1] == '\t') {
				next = p + 1
			}
		case c >= '0' && c <= '9':
			q := p
			for q < len(line) && q-p < 9 && line[q] >= '0' && line[q] <= '9' {
				q++
			}
			if q < len(line) && (line[q] == '.' || line[q] == ')') &&
				q+1 < len(line) && (line[q+1] == ' ' || line[q+1] == '\t') {
				next = q + 1
			}
		}
		if next == 0 {
			return -1
		}
		depth++
		if depth > maxNesting || cols > maxIndent {
			if isThematicBreak(line) {
				return -1
			}
			return marker
		}
		cols += next - p
		p = next
	}
}

// isThematicBreak reports whether line is three or more of one of "-", "*" or "_", with
// spaces or tabs between them.
func isThematicBreak(line []byte) bool {
	var mark byte
	n := 0
	for _, c := range line {
		switch {
		case c == ' ' || c == '\t':
		case (c == '-' || c == '*' || c == '_') && (mark == 0 || c == mark):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// linkRefWindow is how many paragraph lines goldmark's link reference transformer sees at
// once. It removes each definition it finds by copying the paragraph's remaining lines, so a
// paragraph of n definitions costs n²; fed windows, it costs n × linkRefWindow.
const linkRefWindow = 64

// linkRefTransformer is goldmark's LinkReferenceParagraphTransformer run over windows of a
// long paragraph's lines. It finds the same definitions, except that a definition whose title
// spans lines across a window boundary may end before its title; the lines then stay in the
// paragraph, so no text is lost either way.
type linkRefTransformer struct{}

func (linkRefTransformer) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	inner := parser.LinkReferenceParagraphTransformer
	n := p.Lines().Len()
	if n <= linkRefWindow {
		inner.Transform(p, reader, pc)
		return
	}
	parent := p.Parent()
	lines := append([]text.Segment(nil), p.Lines().Sliced(0, n)...)
	i, w := 0, linkRefWindow
	for i < n {
		hi := min(i+w, n)
		window := ast.NewParagraph()
		window.Lines().AppendAll(lines[i:hi])
		parent.InsertBefore(parent, p, window)
		inner.Transform(window, reader, pc)
		if window.Parent() != nil {
			// Lines are left, so the definitions have ended.
			i = hi - window.Lines().Len()
			parent.RemoveChild(parent, window)
			break
		}
		if hi == n {
			i = n
			break
		}
		// Every line was a definition, and the last one may go on past the window: take it
		// back and start the next window with it, or widen the window if it is all there is.
		last := p.PreviousSibling()
		k := last.Lines().Len()
		parent.RemoveChild(parent, last)
		if k >= hi-i {
			w *= 2
			continue
		}
		i = hi - k
		w = linkRefWindow
	}
	if i >= n {
		parent.RemoveChild(parent, p)
		return
	}
	var rest text.Segments
	rest.AppendAll(lines[i:])
	p.SetLines(&rest)
}
