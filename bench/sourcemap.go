package bench

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/sdk"
)

// SourceMap maps byte offsets of a document's canonical text to code point offsets of the
// file the document was parsed from, so that chunk offsets can be compared with an evaluation
// set's references. It is built by NewSourceMap and read-only after.
type SourceMap struct {
	segs   []segment // in canonical order, ascending in both texts
	points []int32   // points[i] is the code point offset of source byte i; len(source)+1 entries
}

// segment says that canonical[canon:canon+n] == source[src:src+n].
type segment struct {
	canon, src, n int
}

// NewSourceMap aligns doc's canonical text with source, the text doc was parsed from (after
// the line-ending normalization that Python's text mode and chunkkit's adapters both do). It
// works for every adapter whose block texts are the source's lines as written less
// indentation, heading markers and trailing white space — adapters/markdown's Parse and
// ParseText: each line of each block is looked up in source after the previous one, the first
// line of a block on or after the source line named by Block.Attrs[markdown.AttrLine] when
// the block has one (a heading's first line at the last match in its source line, past its
// "#" markers).
//
// It returns an error naming the block and line when a line cannot be found: the document's
// text is then not cut from source as written, and offsets cannot be mapped exactly.
func NewSourceMap(source string, doc *sdk.Document) (*SourceMap, error) {
	canon := doc.Canonical()
	lineStarts := []int{0}
	for i := 0; i < len(source); i++ {
		if source[i] == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	m := &SourceMap{}
	cursor := 0
	for bi, b := range doc.Blocks {
		if line, ok := b.Attrs[markdown.AttrLine].(int); ok && line >= 1 && line <= len(lineStarts) {
			cursor = max(cursor, lineStarts[line-1])
		}
		off := canon.Starts[bi]
		for li, line := range strings.SplitAfter(b.Text, "\n") {
			text := strings.TrimSuffix(line, "\n")
			at := -1
			if li == 0 && b.Kind == sdk.KindHeading {
				end := len(source)
				if nl := strings.IndexByte(source[cursor:], '\n'); nl >= 0 {
					end = cursor + nl
				}
				if i := strings.LastIndex(source[cursor:end], text); i >= 0 {
					at = cursor + i
				}
			}
			if at < 0 {
				if i := strings.Index(source[cursor:], text); i >= 0 {
					at = cursor + i
				}
			}
			if at < 0 {
				return nil, fmt.Errorf("bench: document %q block %d line %d: %q is not in the source after byte %d", doc.ID, bi, li+1, text, cursor)
			}
			if len(text) > 0 {
				m.segs = append(m.segs, segment{canon: off, src: at, n: len(text)})
			}
			cursor = at + len(text)
			off += len(line)
		}
	}
	m.points = make([]int32, len(source)+1)
	n := int32(-1) // index of the rune holding byte i
	for i := 0; i < len(source); i++ {
		if utf8.RuneStart(source[i]) {
			n++
		}
		m.points[i] = n
	}
	m.points[len(source)] = n + 1
	return m, nil
}

// Span maps the canonical byte range [start, end) to code points of the source: from the
// source position of the first mapped byte at or after start to just after the source
// position of the last mapped byte before end. Bytes between blocks (separators, markup in
// the source) have no position of their own; a chunk's range starts and ends at block text
// because chunks are trimmed of white space. An empty or unmapped range gives an empty span.
func (m *SourceMap) Span(start, end int) Span {
	// First segment whose end is after start.
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].canon+m.segs[i].n > start })
	// Last segment that starts before end.
	j := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].canon >= end }) - 1
	if i >= len(m.segs) || j < 0 || i > j {
		return Span{}
	}
	a, b := m.segs[i], m.segs[j]
	from := a.src + max(0, start-a.canon)
	to := b.src + min(b.n, end-b.canon)
	return Span{int(m.points[from]), int(m.points[to-1]) + 1}
}
