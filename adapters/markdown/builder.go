package markdown

import (
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/chunkkit/chunkkit/sdk"
)

// region is a run of source lines that one top-level node owns: from the line where the node
// starts up to the line where the next one starts.
type region struct {
	node   ast.Node
	first  int  // first line, 0-based in the body
	merged bool // later nodes whose start could not be placed were folded in
}

// builder turns a goldmark tree into blocks by cutting the source into regions at the lines
// where top-level nodes start. Every line after the first node's start belongs to some
// region, which is what guarantees that no text is lost whatever the tree looks like.
type builder struct {
	src       []byte // lines.text as bytes, for goldmark accessors; nil in plain-text mode
	lines     lineIndex
	firstLine int // 1-based source line of body line 0
	blocks    []sdk.Block

	// segs maps the blocks' texts to the body, one segment per line, with Source an offset
	// of the body until sourceMap turns it into one of the input; canonLen is the length of
	// the canonical text of the blocks so far.
	segs     []sdk.SourceSegment
	canonLen int
	// prior says that blocks were emitted before this builder's (by the builder of an
	// earlier piece, see parts.go), so its first block follows a separator; srcBase is the
	// offset of text in the body, added to every segment's Source.
	prior   bool
	srcBase int
}

// newBuilder returns a builder for text whose line 0 is line firstLine of the source.
func newBuilder(text string, firstLine int) *builder {
	lines := newLineIndex(text)
	// At most one segment per line: sized once, the map costs no regrowth.
	return &builder{lines: lines, firstLine: firstLine, blocks: []sdk.Block{}, segs: make([]sdk.SourceSegment, 0, lines.count())}
}

// sourceMap returns the map of the blocks' texts to the input, given where the body starts
// in the normalized text and the bytes normalize dropped.
func (b *builder) sourceMap(bodyStart int, dropped []int) *sdk.SourceMap {
	for i := range b.segs {
		b.segs[i].Source = origin(dropped, bodyStart+b.segs[i].Source)
	}
	return &sdk.SourceMap{Segments: b.segs}
}

func (b *builder) build(root ast.Node) { b.buildUpTo(root, nil, b.lines.count()) }

// buildUpTo emits the blocks of root's top-level nodes before stop (nil: all of them), the
// last region ending before line end.
func (b *builder) buildUpTo(root, stop ast.Node, end int) {
	var regions []region
	for n := root.FirstChild(); n != nil && n != stop; n = n.NextSibling() {
		start := nodeStart(n)
		last := len(regions) - 1
		if start < 0 {
			if last >= 0 {
				regions[last].merged = true
			}
			continue
		}
		line := b.lines.lineOf(start)
		switch {
		case last >= 0 && line <= regions[last].first:
			regions[last].merged = true
		case last >= 0 && isLinkDef(n) && isLinkDef(regions[last].node) && !isFootnoteDef(n) && !isFootnoteDef(regions[last].node):
			// A run of definitions is one block; one block per "[x]: url" line is noise. A
			// footnote definition is a block of its own (see footnote).
		case last >= 0 && b.continuesFootnote(regions[last].node, n, line):
			// The footnote's lazy continuation: its region takes the paragraph in.
		default:
			regions = append(regions, region{node: n, first: line})
		}
	}

	if len(regions) == 0 {
		b.add(sdk.KindParagraph, 0, b.lines.span(0, end), nil)
		return
	}
	if regions[0].first > 0 {
		b.add(sdk.KindParagraph, 0, b.lines.span(0, regions[0].first), nil)
	}
	for i, r := range regions {
		to := end
		if i+1 < len(regions) {
			to = regions[i+1].first
		}
		b.region(r, to)
	}
}

// nodeStart returns the byte offset where n's first line is, or -1 when goldmark did not
// record one.
func nodeStart(n ast.Node) int {
	switch n.(type) {
	case *ast.Paragraph:
		// Link reference definitions that opened the paragraph were split off before it.
		if n.Lines().Len() > 0 {
			return n.Lines().At(0).Start
		}
	case *extast.Table:
		// The table keeps the position of the paragraph it was carved from; its header row
		// knows where the table starts.
		if h := n.FirstChild(); h != nil {
			return h.Pos()
		}
	}
	return n.Pos()
}

func isLinkDef(n ast.Node) bool {
	_, ok := n.(*ast.LinkReferenceDefinition)
	return ok
}

// isFootnoteDef reports whether n is a link reference definition that GitHub reads as a
// footnote definition: "[^label]: text" whose text goldmark takes for a destination (one word,
// a URL).
func isFootnoteDef(n ast.Node) bool {
	d, ok := n.(*ast.LinkReferenceDefinition)
	return ok && len(d.Label) > 1 && d.Label[0] == '^'
}

// continuesFootnote reports whether n, a top-level node that starts at body line line, is a
// paragraph that continues prev, the node before it, when prev is a footnote definition that
// goldmark read as a link reference definition: no blank line comes between them, so n is the
// footnote's lazy continuation, as GitHub reads it ("[^1]: one\nmore text" is one footnote).
func (b *builder) continuesFootnote(prev, n ast.Node, line int) bool {
	_, para := n.(*ast.Paragraph)
	return para && isFootnoteDef(prev) && line > 0 && !sdk.IsBlank(b.lines.span(line-1, line))
}

// region emits the blocks of region r, which ends before line to.
func (b *builder) region(r region, to int) {
	src := b.lines.span(r.first, to)
	if r.merged {
		// A node goldmark placed out of order was folded in: keep the text, drop the claim
		// about its structure except for the containers, whose text is the whole region anyway.
		switch r.node.(type) {
		case *ast.Heading, *ast.ThematicBreak:
			b.add(sdk.KindParagraph, r.first, src, nil)
			return
		}
	}
	switch n := r.node.(type) {
	case *ast.Heading:
		b.heading(n, r.first, to)
	case *ast.ThematicBreak:
		b.add(sdk.KindParagraph, r.first+1, b.lines.span(r.first+1, to), nil)
	case *ast.List:
		b.list(n, r.first, to)
	case *ast.FencedCodeBlock:
		var attrs map[string]any
		if lang := n.Language(b.src); len(lang) > 0 {
			attrs = map[string]any{AttrLanguage: string(lang)}
		}
		b.add(sdk.KindCode, r.first, src, attrs)
	case *ast.CodeBlock:
		b.addRaw(sdk.KindCode, r.first, strings.TrimRight(src, " \t\n"), b.lines.starts[r.first], nil, nil)
	case *extast.Table:
		b.add(sdk.KindTable, r.first, src, map[string]any{
			AttrColumns: len(n.Alignments),
			AttrRows:    bodyRows(n),
		})
	case *ast.Blockquote:
		b.add(sdk.KindQuote, r.first, src, nil)
	case *ast.HTMLBlock:
		b.add(sdk.KindParagraph, r.first, src, map[string]any{AttrHTML: true})
	case *ast.LinkReferenceDefinition:
		i := len(b.blocks)
		b.add(sdk.KindParagraph, r.first, src, map[string]any{AttrLinkDefinitions: true})
		b.footnote(i)
	case *ast.Paragraph:
		i := len(b.blocks)
		b.add(sdk.KindParagraph, r.first, src, nil)
		b.footnote(i)
	default:
		b.add(sdk.KindParagraph, r.first, src, nil)
	}
}

// footnote makes block i, a paragraph when there is one, a footnote block when its text
// starts with a footnote definition (sdk.FootnoteDefinition).
func (b *builder) footnote(i int) {
	if i >= len(b.blocks) {
		return // the region was blank
	}
	blk := &b.blocks[i]
	label := sdk.FootnoteDefinition(blk.Text)
	if label == "" {
		return
	}
	blk.Kind = sdk.KindFootnote
	if blk.Attrs == nil {
		blk.Attrs = map[string]any{}
	}
	blk.Attrs[AttrFootnoteLabel] = label
}

// heading emits heading n, which starts at line first, and any text its region holds after
// the heading's own lines.
func (b *builder) heading(n *ast.Heading, first, to int) {
	own := first + 1 // an ATX heading is one line
	if lines := n.Lines(); lines.Len() > 0 {
		start, stop := lines.At(0).Start, lines.At(lines.Len()-1).Stop
		if !isATX(b.lines.span(first, first+1)) {
			own = b.lines.lineOf(max(stop-1, start)) + 2 // content lines, then the underline
		}
		raw := b.lines.text[start:stop]
		if t := strings.TrimSpace(raw); t != "" {
			lead := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
			b.addRaw(sdk.KindHeading, first, t, start+lead, nil, nil)
			b.blocks[len(b.blocks)-1].Level = n.Level
		}
	}
	if own < to {
		b.add(sdk.KindParagraph, own, b.lines.span(own, to), nil)
	}
}

// isATX reports whether line opens an ATX heading: up to three spaces, one to six "#", then
// white space or the line's end. A setext heading's first line never does, or it would have
// been an ATX heading itself.
func isATX(line string) bool {
	line = strings.TrimLeft(line, " ")
	hashes := len(line) - len(strings.TrimLeft(line, "#"))
	if hashes < 1 || hashes > 6 {
		return false
	}
	return hashes == len(line) || line[hashes] == ' ' || line[hashes] == '\t' || line[hashes] == '\n'
}

// list emits one block per item of list n, which spans lines [first, to).
func (b *builder) list(n *ast.List, first, to int) {
	marker := string(n.Marker)
	var starts []int
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		line := first
		if len(starts) > 0 {
			if item.Pos() < 0 {
				continue
			}
			line = b.lines.lineOf(item.Pos())
			if line <= starts[len(starts)-1] || line >= to {
				continue
			}
		}
		starts = append(starts, line)
	}
	if len(starts) == 0 {
		starts = append(starts, first)
	}
	for i, from := range starts {
		end := to
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		b.add(sdk.KindList, from, b.lines.span(from, end), map[string]any{
			AttrOrdered: n.IsOrdered(),
			AttrMarker:  marker,
		})
	}
}

// add drops the leading blank lines of text, dedents the rest and appends it as a block, unless
// it is blank. text starts at body line line.
func (b *builder) add(kind sdk.BlockKind, line int, text string, attrs map[string]any) {
	for {
		first, rest, ok := strings.Cut(text, "\n")
		if !ok || !sdk.IsBlank(first) {
			break
		}
		text = rest
		line++
	}
	if line >= len(b.lines.starts) {
		return // nothing but blank lines
	}
	out, starts := dedent(text)
	b.addRaw(kind, line, out, b.lines.starts[line], starts, attrs)
}

// addRaw appends a block of text, which starts at body line line, unless it is blank. Line i
// of text is the body's text from offset at+starts[i] on; nil starts means that text is the
// body's text at offset at as it stands.
func (b *builder) addRaw(kind sdk.BlockKind, line int, text string, at int, starts []int, attrs map[string]any) {
	if sdk.IsBlank(text) {
		return
	}
	if attrs == nil {
		attrs = make(map[string]any, 1)
	}
	attrs[AttrLine] = b.firstLine + line
	if len(b.blocks) > 0 || b.prior {
		b.canonLen += len(sdk.Separator)
	}
	for i, off := 0, 0; off <= len(text); i++ { // line i of text starts at off
		n := strings.IndexByte(text[off:], '\n')
		if n < 0 {
			n = len(text) - off
		}
		src := b.srcBase + at + off
		if starts != nil {
			src = b.srcBase + at + starts[i]
		}
		if n > 0 {
			b.segs = append(b.segs, sdk.SourceSegment{Start: b.canonLen + off, Source: src, Len: n, Line: b.firstLine + line + i})
		}
		off += n + 1
	}
	b.canonLen += len(text)
	b.blocks = append(b.blocks, sdk.Block{Kind: kind, Text: text, Attrs: attrs})
}
