package bench

import (
	"fmt"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// SourceMap maps byte offsets of a document's canonical text to code point offsets of the
// file the document was parsed from, so that chunk offsets can be compared with an evaluation
// set's references. It is the document's own sdk.SourceMap (which adapters/markdown's Parse
// and ParseText build) read in code points. It is built by NewSourceMap and read-only after.
type SourceMap struct {
	source *sdk.SourceMap
	points []int32 // points[i] is the code point offset of source byte i; len(source)+1 entries
}

// NewSourceMap returns the map of doc, parsed from source (after the line-ending
// normalization that Python's text mode and chunkkit's adapters both do). It returns an
// error when doc has no source map (its loader is not a text adapter).
func NewSourceMap(source string, doc *sdk.Document) (*SourceMap, error) {
	if doc.Source == nil {
		return nil, fmt.Errorf("bench: document %q has no source map: its loader does not map block texts back to the file", doc.ID)
	}
	m := &SourceMap{source: doc.Source, points: make([]int32, len(source)+1)}
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
// position of the last mapped byte before end (see sdk.SourceMap.Locate). Bytes between
// blocks (separators, markup in the source) have no position of their own; a chunk's range
// starts and ends at block text because chunks are trimmed of white space. An empty or
// unmapped range gives an empty span.
func (m *SourceMap) Span(start, end int) Span {
	r, ok := m.source.Locate(start, end)
	if !ok || r.End > len(m.points)-1 {
		return Span{}
	}
	return Span{int(m.points[r.Start]), int(m.points[r.End-1]) + 1}
}
