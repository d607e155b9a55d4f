package sdk

import (
	"encoding/json"
	"maps"
	"sort"
)

// SourceMap maps a document's canonical text back to the input file it was parsed from, for
// adapters whose block texts are cut from a text file (adapters/markdown's Parse and
// ParseText). Each segment says that a run of canonical bytes is a run of the file's bytes on
// one line; what lies between segments (block separators, heading markers, indentation removed
// by dedenting, line endings) is the file's own and has no canonical position.
//
// The zero value maps nothing. A SourceMap is read-only once built and safe for concurrent use.
type SourceMap struct {
	// Segments are in canonical order, ascending in both the canonical text and the file,
	// each on one line of the file and none empty.
	Segments []SourceSegment
}

// SourceSegment says that canonical[Start:Start+Len] == file[Source:Source+Len], on the
// file's line Line (1-based).
type SourceSegment struct {
	Start  int
	Source int
	Len    int
	Line   int
}

// SourceRange is where a range of the canonical text is in the input file: the byte range
// [Start, End) and the 1-based lines LineStart to LineEnd, inclusive.
type SourceRange struct {
	Start, End         int
	LineStart, LineEnd int
}

// Locate returns the range of the file that canonical[start:end] comes from: from the file
// position of its first mapped byte to just after that of its last mapped byte. ok is false
// when no byte of the range is mapped (an empty range, or one of separators only).
//
// Within one line of the file the range is exact; over several lines file[Start:End] also
// holds what the canonical text leaves out between them (markers, indentation, CR of CRLF).
func (m *SourceMap) Locate(start, end int) (r SourceRange, ok bool) {
	if m == nil || start >= end {
		return r, false
	}
	segs := m.Segments
	// First segment that ends after start; last segment that starts before end.
	i := sort.Search(len(segs), func(i int) bool { return segs[i].Start+segs[i].Len > start })
	j := sort.Search(len(segs), func(i int) bool { return segs[i].Start >= end }) - 1
	if i >= len(segs) || j < 0 || i > j {
		return r, false
	}
	a, b := segs[i], segs[j]
	return SourceRange{
		Start:     a.Source + max(0, start-a.Start),
		End:       b.Source + min(b.Len, end-b.Start),
		LineStart: a.Line,
		LineEnd:   b.Line,
	}, true
}

// Metadata keys that Provenance sets.
const (
	// MetaItems holds, for a chunk of a document whose blocks carry AttrItem (doc2mark input),
	// the first and last item index its range touches, as [2]int.
	MetaItems = "items"
	// MetaDocument holds a copy of the document's Metadata (map[string]any), such as the
	// fields of a Markdown file's front matter; absent when the document has none.
	MetaDocument = "document"
)

// PageEntries is a Document.Metadata value that lists things by page, such as the page sizes
// and the blocks dropped for low confidence the OCR adapters record: every entry holds its
// 1-based page number (an int) under Key, or no page. Its JSON form is the list of entries.
//
// Provenance gives each chunk, in Metadata[MetaDocument], only the entries of the pages the
// chunk spans (PageStart to PageEnd; none for a chunk without pages, and an entry without a
// page in none), so that a chunk of a scan of thousands of pages does not carry a list of
// them all: copied whole, a 15,775-page TSV's page list made each JSONL line ~760 KB.
type PageEntries struct {
	Key     string
	Entries []map[string]any
}

// MarshalJSON writes the entries.
func (p PageEntries) MarshalJSON() ([]byte, error) {
	if p.Entries == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(p.Entries)
}

// Pages returns the entries of pages first to last, in order; they share their maps with p.
func (p PageEntries) Pages(first, last int) PageEntries {
	out := PageEntries{Key: p.Key}
	if first <= 0 {
		return out
	}
	for _, e := range p.Entries {
		if n, ok := e[p.Key].(int); ok && n >= first && n <= last {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}

// AttrItem is the block attribute holding the index of the input item the block comes from
// (an int), as adapters of item lists such as doc2mark's json_content set it.
const AttrItem = "item"

// Provenance fills in where each chunk comes from: SourceStart, SourceEnd, LineStart and
// LineEnd from doc.Source for the chunk's [Start, End); Metadata[MetaItems] from the AttrItem
// of the blocks that range touches; and Metadata[MetaDocument], a shallow copy of
// doc.Metadata per chunk, with its PageEntries narrowed to the chunk's pages. Chunks whose
// range maps to nothing keep zero positions (LineStart 0 means "no position"). Stamp calls it;
// a chunker that does not call Stamp may call it on its final output.
//
// Only canonical[Start:End] has a position: a rendered prefix (Metadata[MetaPrefix]) and the
// chunk's Context are not in the file, and overlap is, as part of [Start, End).
func Provenance(chunks []Chunk, doc *Document) {
	if doc.Source != nil {
		for i := range chunks {
			c := &chunks[i]
			if r, ok := doc.Source.Locate(c.Start, c.End); ok {
				c.SourceStart, c.SourceEnd, c.LineStart, c.LineEnd = r.Start, r.End, r.LineStart, r.LineEnd
			}
		}
	}
	locateItems(chunks, doc)
	if len(doc.Metadata) > 0 {
		var lists map[string]pageIndex
		for k, v := range doc.Metadata {
			if p, ok := v.(PageEntries); ok {
				if lists == nil {
					lists = map[string]pageIndex{}
				}
				lists[k] = newPageIndex(p)
			}
		}
		for i := range chunks {
			c := &chunks[i]
			if c.Metadata == nil {
				c.Metadata = map[string]any{}
			}
			m := maps.Clone(doc.Metadata)
			for k, x := range lists {
				m[k] = x.pages(c.PageStart, c.PageEnd)
			}
			c.Metadata[MetaDocument] = m
		}
	}
}

// pageIndex finds the entries of a PageEntries on a run of pages: by binary search when the
// entries are in page order, as the OCR adapters list them, so that the chunks of a document
// of thousands of pages do not each go through all of them; else one by one (Pages).
type pageIndex struct {
	list  PageEntries
	page  []int // each entry's page, when they are in order; nil otherwise
	order bool
}

func newPageIndex(p PageEntries) pageIndex {
	x := pageIndex{list: p, page: make([]int, len(p.Entries)), order: true}
	for i, e := range p.Entries {
		n, ok := e[p.Key].(int)
		if !ok || (i > 0 && n < x.page[i-1]) {
			return pageIndex{list: p}
		}
		x.page[i] = n
	}
	return x
}

// pages is x.list.Pages(first, last).
func (x pageIndex) pages(first, last int) PageEntries {
	if !x.order {
		return x.list.Pages(first, last)
	}
	out := PageEntries{Key: x.list.Key}
	if first <= 0 {
		return out
	}
	i := sort.SearchInts(x.page, first)
	j := sort.Search(len(x.page), func(k int) bool { return x.page[k] > last })
	if i < j {
		out.Entries = x.list.Entries[i:j:j]
	}
	return out
}

// locateItems sets Metadata[MetaItems] on chunks of documents whose blocks carry AttrItem.
func locateItems(chunks []Chunk, doc *Document) {
	if len(doc.Blocks) == 0 {
		return
	}
	if _, ok := doc.Blocks[0].Attrs[AttrItem].(int); !ok {
		return
	}
	// Block starts and ends in the canonical text, without building it.
	starts := make([]int, len(doc.Blocks))
	ends := make([]int, len(doc.Blocks))
	off := 0
	for i, b := range doc.Blocks {
		if i > 0 {
			off += len(Separator)
		}
		starts[i] = off
		off += len(b.Text)
		ends[i] = off
	}
	for ci := range chunks {
		c := &chunks[ci]
		first, last := -1, -1
		// Blocks that end after Start, up to the first that starts at or after End.
		for i := sort.SearchInts(ends, c.Start+1); i < len(doc.Blocks) && starts[i] < max(c.End, c.Start+1); i++ {
			item, ok := doc.Blocks[i].Attrs[AttrItem].(int)
			if !ok {
				continue
			}
			if first < 0 || item < first {
				first = item
			}
			last = max(last, item)
		}
		if first < 0 {
			continue
		}
		if c.Metadata == nil {
			c.Metadata = map[string]any{}
		}
		c.Metadata[MetaItems] = [2]int{first, last}
	}
}
