package markdown

import (
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v3"

	"github.com/chunkkit/chunkkit/sdk"
)

// Keys of the Block.Attrs and Document.Metadata entries this package sets.
const (
	// AttrLine holds the 1-based line of the source where the block starts (int). Lines are
	// counted in the input as given, front matter included.
	AttrLine = "line"
	// AttrOrdered holds whether a list item belongs to an ordered list (bool).
	AttrOrdered = "ordered"
	// AttrMarker holds a list item's marker character: "-", "*" or "+" for bullet lists, "."
	// or ")" for ordered lists (string).
	AttrMarker = "marker"
	// AttrLanguage holds a fenced code block's language, the first word of its info string
	// (string). It is absent when the fence names none.
	AttrLanguage = "language"
	// AttrColumns holds a table's column count, the cells of its delimiter row (int).
	AttrColumns = "columns"
	// AttrRows holds a table's body row count; the header and delimiter rows are not counted
	// (int).
	AttrRows = "rows"
	// AttrHTML is true on a paragraph block that is a raw HTML block in the source.
	AttrHTML = "html"
	// AttrLinkDefinitions is true on a paragraph block made of link reference definitions
	// ("[label]: /url"), kept so that their URLs stay searchable.
	AttrLinkDefinitions = "link_definitions"
	// AttrFootnoteLabel holds a footnote definition's label, "1" for "[^1]: ...", on its
	// KindFootnote block (string); it is the key chunkers.Sections reads.
	AttrFootnoteLabel = "footnote_label"
	// MetaFrontMatter holds a document's YAML front matter, the lines between its "---"
	// delimiters as written (string). It is absent when the document has none.
	MetaFrontMatter = "front_matter"
)

// Options says who a parsed document is and where it belongs. The zero value is valid: the
// document then has no ID, tenant or corpus.
type Options struct {
	// ID becomes Document.ID and names the document in errors.
	ID string
	// TenantID becomes Document.TenantID.
	TenantID string
	// CorpusID becomes Document.CorpusID.
	CorpusID string
	// Title becomes Document.Title. When empty, Parse uses the text of the first level-1
	// heading, and ParseText leaves the title empty.
	Title string
	// InPlace says that src is the parser's to keep: nothing writes to it for as long as the
	// document's blocks, and what is made of them, are used. The parsers then cut the blocks'
	// texts from src itself rather than from a copy of it (a copy of each piece, for
	// ParseParts and ParseTextParts), which saves the size of src in memory: one 50 MB
	// paragraph or table is held once, not twice. pipeline sets it for the files it reads.
	InPlace bool
}

// Parse reads CommonMark with GitHub tables into a Document, one block per top-level
// construct. Block texts are the source as written, so inline markup, escapes and URLs stay:
//
//   - ATX and setext headings become KindHeading blocks holding the heading's inline content
//     without its "#" markers or underline, with Level 1 to 6.
//   - Paragraphs become KindParagraph blocks.
//   - Each top-level list item becomes a KindList block holding the item with its marker and
//     nested items, with AttrOrdered and AttrMarker.
//   - Fenced and indented code blocks become KindCode blocks holding the whole block as written,
//     fences included, with AttrLanguage when the fence names one.
//   - Tables become KindTable blocks holding all their rows, with AttrColumns and AttrRows.
//   - Block quotes become KindQuote blocks with their ">" markers.
//   - HTML blocks become KindParagraph blocks with AttrHTML, and runs of link reference
//     definitions become KindParagraph blocks with AttrLinkDefinitions.
//   - A footnote definition, "[^label]: text" as GitHub writes them, becomes a KindFootnote
//     block of its own with AttrFootnoteLabel (and AttrLinkDefinitions when its text is one
//     word, which goldmark reads as a link reference definition); its lazy continuation lines
//     are in it, and an indented paragraph after a blank line is a code block of its own, as
//     CommonMark reads it.
//   - Thematic breaks are dropped: they hold no text.
//
// Every block carries AttrLine; Page is 0 (unknown). A block's text is trimmed of trailing
// white space and of the indentation of its first line (removed from every line as far as the
// line has it); indented code keeps its indentation so that it stays code. Blocks that would be
// blank are left out, so empty input gives a document with no blocks and no error.
//
// Line endings are normalized to "\n" and a leading byte order mark is dropped. Leading YAML
// front matter goes to Document.Metadata instead of a block: as written under
// MetaFrontMatter, and when it is a YAML mapping, each of its top-level fields under its own
// name (so "title" and "description" reach every chunk, see sdk.MetaDocument). A front matter
// "title" that is a string is the document's title unless opts.Title is set. Front matter that
// is not a valid YAML mapping keeps only MetaFrontMatter.
//
// Document.Source maps every block's text back to src (see sdk.SourceMap), so that chunks
// carry their byte and line range in src.
//
// Parse returns an *sdk.InputError matching sdk.ErrInvalidInput, with Block -1 and the byte
// offset of the first bad byte, when src is not valid UTF-8. It takes time linear in len(src)
// and does not keep src. To stay linear it reads block quotes and list items nested more than
// 32 deep on one line, or opened after more than 128 columns of indentation, as text of the
// block that encloses them; the text still lands in that block.
func Parse(src []byte, opts Options) (*sdk.Document, error) {
	doc, parts, err := ParseParts(src, opts, -1) // one piece: one part
	if err != nil {
		return nil, err
	}
	for part := range parts {
		doc.Blocks, doc.Source = part.Blocks, part.Source
	}
	return doc, nil
}

func newDocument(opts Options) *sdk.Document {
	return &sdk.Document{
		ID:       opts.ID,
		TenantID: opts.TenantID,
		CorpusID: opts.CorpusID,
		Title:    opts.Title,
	}
}

// newParser returns a goldmark parser that finds block structure only. Block texts are cut
// from the source, so inline parsing would be wasted work; the table extension's paragraph
// transformer is all of GFM tables that block structure needs, without nodes for their rows
// (tableTransformer). The link reference transformer is goldmark's, made linear (see
// linkRefTransformer). A parser is built per call because goldmark parsers are configured once
// and we keep no package state.
func newParser() parser.Parser { return newParserWith(tableTransformer{}) }

// newParserWith is newParser with tables as the table paragraph transformer.
func newParserWith(tables parser.ParagraphTransformer) parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(
			// The priorities are goldmark's own for these two.
			util.Prioritized(linkRefTransformer{}, 100),
			util.Prioritized(tables, 200),
		),
	)
}

// frontMatterFields returns the top-level fields of YAML front matter fm, or an empty map when
// fm is not a YAML mapping with string keys. Values are as the YAML decoder gives them (string,
// int, float64, bool, []any, map[string]any, ...).
func frontMatterFields(fm string) map[string]any {
	var fields map[string]any
	if err := yaml.Unmarshal([]byte(fm), &fields); err != nil || fields == nil {
		return map[string]any{}
	}
	return fields
}
