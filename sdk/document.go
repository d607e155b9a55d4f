package sdk

import (
	"strings"
	"unicode/utf8"
)

// BlockKind names what a block is. The set is open: adapters may use kinds not listed here, and
// every chunker treats an unknown kind as prose.
type BlockKind string

// The block kinds that adapters produce.
const (
	KindHeading    BlockKind = "heading"
	KindParagraph  BlockKind = "paragraph"
	KindList       BlockKind = "list"
	KindTable      BlockKind = "table"
	KindCode       BlockKind = "code"
	KindQuote      BlockKind = "quote"
	KindCaption    BlockKind = "caption"
	KindFootnote   BlockKind = "footnote"
	KindImage      BlockKind = "image"
	KindPageHeader BlockKind = "page-header"
	KindPageFooter BlockKind = "page-footer"
)

// Separator joins block texts into a document's canonical text.
const Separator = "\n\n"

// Block is one unit of a parsed document: a heading, a paragraph, a table, ...
//
// Level is the heading level (1 is the outermost) and is meaningful for headings only. Page is
// 1-based; 0 means unknown. Attrs holds free-form attributes such as the OCR engine, a
// confidence, a bounding box or the source type (`text:section`); chunkers do not interpret them.
type Block struct {
	Kind  BlockKind      `json:"kind"`
	Text  string         `json:"text"`
	Level int            `json:"level,omitempty"`
	Page  int            `json:"page,omitempty"`
	Attrs map[string]any `json:"attrs,omitempty"`
}

// Document is a parsed document: identity, provenance and an ordered list of blocks.
//
// Its canonical text is the blocks' texts joined by Separator; every offset in a Chunk refers
// to it. A Document is read-only to chunkers: they never modify it.
type Document struct {
	ID       string         `json:"id"`
	TenantID string         `json:"tenant_id,omitempty"`
	CorpusID string         `json:"corpus_id,omitempty"`
	Title    string         `json:"title,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Blocks   []Block        `json:"blocks"`
	// Source maps the canonical text back to the input file, for adapters that parse text
	// (see SourceMap); nil when there is no such file or mapping. Stamp uses it to set every
	// chunk's SourceStart, SourceEnd, LineStart and LineEnd. It is not part of the JSON form.
	Source *SourceMap `json:"-"`
	// Footnotes, when set, is what a scan of the input found of the document's footnotes
	// before its blocks were made (ScanFootnotes): an adapter that yields the document in parts
	// sets it (markdown.ParseParts, and so markdown.Parse), so that chunkers.Sections reading
	// the parts holds no chunk waiting for a footnote or a reference the document does not have.
	// It describes the blocks as the adapter made them: whoever changes them sets it to nil.
	// nil means unknown. It is not part of the JSON form.
	Footnotes *FootnoteScan `json:"-"`
}

// DocumentPart is a run of consecutive blocks of a document, as an adapter that parses a large
// input a piece at a time yields them (for PartChunker): the document's blocks are its parts'
// blocks one after another. Source maps the part's blocks back to the input file, with the
// offsets of the whole document's canonical text; nil when there is no such mapping.
type DocumentPart struct {
	Blocks []Block
	Source *SourceMap
}

// Canonical is a document's canonical text and where each block starts in it.
type Canonical struct {
	// Text is the blocks' texts joined by Separator.
	Text string
	// Starts holds, for each block, the byte offset of its text in Text; the block ends at
	// Starts[i]+len(Blocks[i].Text).
	Starts []int
}

// Canonical returns the document's canonical text and the byte offset of every block in it.
func (d *Document) Canonical() Canonical {
	if len(d.Blocks) == 1 { // the block's text itself: a window of one huge block copies nothing
		return Canonical{Text: d.Blocks[0].Text, Starts: []int{0}}
	}
	n := 0
	for i, b := range d.Blocks {
		if i > 0 {
			n += len(Separator)
		}
		n += len(b.Text)
	}
	var sb strings.Builder
	sb.Grow(n)
	starts := make([]int, len(d.Blocks))
	for i, b := range d.Blocks {
		if i > 0 {
			sb.WriteString(Separator)
		}
		starts[i] = sb.Len()
		sb.WriteString(b.Text)
	}
	return Canonical{Text: sb.String(), Starts: starts}
}

// Validate reports the first problem that makes the document unusable for chunking: a block
// whose text is not valid UTF-8, or a heading whose level is below 1. The error is an
// *InputError that names the block and the byte offset, and matches ErrInvalidInput.
func (d *Document) Validate() error {
	for i, b := range d.Blocks {
		if off := InvalidUTF8At(b.Text); off >= 0 {
			return &InputError{Document: d.ID, Block: i, Offset: off, Field: "text", Problem: "invalid UTF-8"}
		}
		if b.Kind == KindHeading && b.Level < 1 {
			return &InputError{Document: d.ID, Block: i, Offset: -1, Field: "level",
				Problem: "heading level must be 1 or more, got " + itoa(b.Level)}
		}
	}
	return nil
}

// InvalidUTF8At returns the byte offset of the first byte of s that does not start a valid
// UTF-8 sequence, or -1 when s is valid UTF-8. Callers holding bytes check utf8.Valid first
// and convert only on the error path.
func InvalidUTF8At(s string) int {
	for off := 0; off < len(s); {
		r, size := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && size <= 1 {
			return off
		}
		off += size
	}
	return -1
}

// IsBlank reports whether s holds nothing but white space.
func IsBlank(s string) bool {
	return strings.TrimSpace(s) == ""
}
