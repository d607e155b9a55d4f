package sdk_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestSourceMapLocate(t *testing.T) {
	t.Parallel()
	// Canonical "ab\n\ncd" from a file "# ab\n\n  cd\n": "ab" at 2 on line 1, "cd" at 8 on line 3.
	m := &sdk.SourceMap{Segments: []sdk.SourceSegment{{Start: 0, Source: 2, Len: 2, Line: 1}, {Start: 4, Source: 8, Len: 2, Line: 3}}}
	tests := []struct {
		name       string
		start, end int
		want       sdk.SourceRange
		ok         bool
	}{
		{"a whole segment maps to its bytes", 0, 2, sdk.SourceRange{2, 4, 1, 1}, true},
		{"part of a segment maps to part of its bytes", 1, 2, sdk.SourceRange{3, 4, 1, 1}, true},
		{"a range over the separator spans both lines", 0, 6, sdk.SourceRange{2, 10, 1, 3}, true},
		{"a range that starts in the separator starts at the next segment", 2, 5, sdk.SourceRange{8, 9, 3, 3}, true},
		{"the separator alone maps to nothing", 2, 4, sdk.SourceRange{}, false},
		{"an empty range maps to nothing", 1, 1, sdk.SourceRange{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := m.Locate(tc.start, tc.end)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Locate(%d, %d) = %+v, %v; want %+v, %v", tc.start, tc.end, got, ok, tc.want, tc.ok)
			}
		})
	}
	var none *sdk.SourceMap
	if _, ok := none.Locate(0, 1); ok {
		t.Errorf("a nil map located a range")
	}
}

func TestProvenance(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{
		ID:       "d",
		Metadata: map[string]any{"title": "T"},
		Blocks: []sdk.Block{ // canonical "a\n\nbb\n\nc"
			{Kind: sdk.KindParagraph, Text: "a", Attrs: map[string]any{sdk.AttrItem: 4}},
			{Kind: sdk.KindParagraph, Text: "bb", Attrs: map[string]any{sdk.AttrItem: 5}},
			{Kind: sdk.KindParagraph, Text: "c", Attrs: map[string]any{sdk.AttrItem: 6}},
		},
	}
	chunks := []sdk.Chunk{{Start: 0, End: 4}, {Start: 3, End: 8}, {Start: 7, End: 8}}
	sdk.Stamp(chunks, sdk.Request{}, doc)
	var items []any
	for _, c := range chunks {
		items = append(items, c.Metadata[sdk.MetaItems])
		if diff := cmp.Diff(doc.Metadata, c.Metadata[sdk.MetaDocument]); diff != "" {
			t.Errorf("chunk %s document metadata (-want +got):\n%s", c.ID, diff)
		}
		if c.LineStart != 0 {
			t.Errorf("chunk %s of a document without a source map has line %d", c.ID, c.LineStart)
		}
	}
	if diff := cmp.Diff([]any{[2]int{4, 5}, [2]int{5, 6}, [2]int{6, 6}}, items); diff != "" {
		t.Errorf("item ranges (-want +got):\n%s", diff)
	}
	chunks[0].Metadata[sdk.MetaDocument].(map[string]any)["title"] = "changed"
	if doc.Metadata["title"] != "T" || chunks[1].Metadata[sdk.MetaDocument].(map[string]any)["title"] != "T" {
		t.Errorf("a chunk's copy of the document metadata is shared")
	}
}

func TestProvenanceGivesAChunkTheEntriesOfItsPages(t *testing.T) {
	t.Parallel()
	pages := sdk.PageEntries{Key: "number", Entries: []map[string]any{{"number": 1}, {"number": 2}, {"number": 3}}}
	dropped := sdk.PageEntries{Key: "page", Entries: []map[string]any{{"text": "smudge", "page": 2}, {"text": "no page"}}}
	unordered := sdk.PageEntries{Key: "page", Entries: []map[string]any{{"page": 3}, {"page": 1}, {"page": 3}}}
	doc := &sdk.Document{
		ID:       "scan",
		Metadata: map[string]any{"pages": pages, "dropped": dropped, "unordered": unordered, "title": "T"},
		Blocks:   []sdk.Block{{Kind: sdk.KindParagraph, Text: "a"}},
	}
	chunks := []sdk.Chunk{{End: 1, PageStart: 1, PageEnd: 1}, {End: 1, PageStart: 2, PageEnd: 3}, {End: 1}}
	sdk.Stamp(chunks, sdk.Request{}, doc)
	want := []map[string]any{
		{"title": "T", "pages": sdk.PageEntries{Key: "number", Entries: []map[string]any{{"number": 1}}}, "dropped": sdk.PageEntries{Key: "page"},
			"unordered": sdk.PageEntries{Key: "page", Entries: []map[string]any{{"page": 1}}}},
		{"title": "T", "pages": sdk.PageEntries{Key: "number", Entries: []map[string]any{{"number": 2}, {"number": 3}}}, "dropped": sdk.PageEntries{Key: "page", Entries: []map[string]any{{"text": "smudge", "page": 2}}},
			"unordered": sdk.PageEntries{Key: "page", Entries: []map[string]any{{"page": 3}, {"page": 3}}}},
		{"title": "T", "pages": sdk.PageEntries{Key: "number"}, "dropped": sdk.PageEntries{Key: "page"}, "unordered": sdk.PageEntries{Key: "page"}},
	}
	for i, c := range chunks {
		if diff := cmp.Diff(want[i], c.Metadata[sdk.MetaDocument]); diff != "" {
			t.Errorf("chunk %d (pages %d-%d) document metadata (-want +got):\n%s", i, c.PageStart, c.PageEnd, diff)
		}
	}
	if len(doc.Metadata["pages"].(sdk.PageEntries).Entries) != 3 {
		t.Errorf("the document's page list changed: %v", doc.Metadata["pages"])
	}
	got, err := json.Marshal(chunks[1].Metadata[sdk.MetaDocument])
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"dropped":[{"page":2,"text":"smudge"}],"pages":[{"number":2},{"number":3}],"title":"T","unordered":[{"page":3},{"page":3}]}`; string(got) != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
	if got, _ := json.Marshal(chunks[2].Metadata[sdk.MetaDocument]); !strings.Contains(string(got), `"pages":[]`) {
		t.Errorf("a chunk without pages: JSON %s, want an empty page list", got)
	}
}

// TestProvenanceFindsPagesInOrderAsPagesDoes checks the entries Provenance gives chunks of a
// long ordered list (found by binary search) against PageEntries.Pages, on every page range.
func TestProvenanceFindsPagesInOrderAsPagesDoes(t *testing.T) {
	t.Parallel()
	var entries []map[string]any
	for n := 1; n <= 12; n++ {
		for range n % 3 { // pages with none, one or two entries
			entries = append(entries, map[string]any{"page": n})
		}
	}
	list := sdk.PageEntries{Key: "page", Entries: entries}
	doc := &sdk.Document{ID: "d", Metadata: map[string]any{"dropped": list}, Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: "a"}}}
	var chunks []sdk.Chunk
	for first := 0; first <= 13; first++ {
		for last := first; last <= 13; last++ {
			chunks = append(chunks, sdk.Chunk{End: 1, PageStart: first, PageEnd: last})
		}
		chunks = append(chunks, sdk.Chunk{End: 1, PageStart: first, PageEnd: math.MaxInt})
	}
	sdk.Stamp(chunks, sdk.Request{}, doc)
	for _, c := range chunks {
		want := list.Pages(c.PageStart, c.PageEnd)
		if diff := cmp.Diff(want, c.Metadata[sdk.MetaDocument].(map[string]any)["dropped"]); diff != "" {
			t.Errorf("pages %d-%d (-Pages +Provenance):\n%s", c.PageStart, c.PageEnd, diff)
		}
	}
}
