package doc2mark

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// Keys of the Block.Attrs and Document.Metadata entries that Parse sets.
const (
	// AttrSourceType holds the item's doc2mark type, such as "text:section" (string). Every
	// block has it.
	AttrSourceType = "source_type"
	// AttrLevel holds the item's "level" as given (int), on any item that has one.
	AttrLevel = "level"
	// AttrPositionY holds the item's "position_y" (float64).
	AttrPositionY = "position_y"
	// AttrMarker holds a list item's "marker" (string).
	AttrMarker = "marker"
	// AttrListLevel holds a list item's "list_level" (int).
	AttrListLevel = "list_level"
	// AttrMimeType holds an image's "mime_type" (string).
	AttrMimeType = "mime_type"
	// AttrPage holds the item's "page" (int) when it is below 1, which Block.Page cannot say.
	AttrPage = "page"
	// AttrFootnoteLabel holds a footnote's label (string), "1" for "[^1]: text"; the same key
	// as chunkers.AttrFootnoteLabel, which the Sections chunker reads.
	AttrFootnoteLabel = "footnote_label"
	// AttrData holds an image item's content, its base64 data (string).
	AttrData = "data"
	// AttrExtra holds the item's keys that have no attribute of their own, decoded from JSON
	// (map[string]any).
	AttrExtra = "extra"
	// MetaPages holds the wrapper's "pages" (int).
	MetaPages = "pages"
	// MetaExtra holds the wrapper's keys other than "pages" and "content", decoded from JSON
	// (map[string]any).
	MetaExtra = "extra"
)

// Options says who a parsed document is and where it belongs. The zero value is valid.
type Options struct {
	// ID becomes Document.ID and names the document in errors.
	ID string
	// TenantID becomes Document.TenantID.
	TenantID string
	// CorpusID becomes Document.CorpusID.
	CorpusID string
	// Title becomes Document.Title. When empty, the content of the first text:title item is
	// used.
	Title string
}

// Parse reads doc2mark's json_content (see ParseContent) into a Document with one block per
// item, in order; see ToDocument for the mapping. Errors are those of ParseContent, with
// Document set to opts.ID.
func Parse(data []byte, opts Options) (*sdk.Document, error) {
	c, err := ParseContent(data)
	if err != nil {
		var ie *sdk.InputError
		if errors.As(err, &ie) {
			ie.Document = opts.ID
		}
		return nil, err
	}
	return ToDocument(c, opts), nil
}

// ToDocument maps parsed json_content to a Document, one block per item, in order, keeping
// every item's text:
//
//	text:title              heading, Level 1
//	text:section            heading, Level = the item's "level" when it is 1 or more, else 2
//	text:normal             paragraph
//	text:list               list (AttrMarker, AttrListLevel)
//	text:caption            caption
//	text:footnote           footnote (AttrFootnoteLabel when the content is "[^label]: text")
//	text:image_description  image; Text is the content without its <image_ocr_result> tags,
//	                        trimmed, as doc2mark renders it
//	text:header             page-header
//	text:footer             page-footer
//	table                   table
//	image                   image; Text is "[image]" or "[image: MIME]", the base64 content
//	                        is in Attrs[AttrData] (AttrMimeType)
//	any other type          paragraph
//
// Text is the item's content as given, except for the two image types. Every block has
// Attrs[AttrSourceType] and Attrs[sdk.AttrItem], the index of its item (so chunks carry
// Metadata[sdk.MetaItems], their item range); the item's other keys go to the attributes named in the constants
// (AttrLevel, AttrPositionY, ...) and to Attrs[AttrExtra]. Page is the item's page when it is
// 1 or more; a smaller one goes to Attrs[AttrPage]. The wrapper's page count and other keys go
// to Metadata. ToDocument does not keep c.
func ToDocument(c *Content, opts Options) *sdk.Document {
	doc := &sdk.Document{
		ID:       opts.ID,
		TenantID: opts.TenantID,
		CorpusID: opts.CorpusID,
		Title:    opts.Title,
		Blocks:   make([]sdk.Block, 0, len(c.Items)),
	}
	if c.Pages != nil || len(c.Extra) > 0 {
		doc.Metadata = map[string]any{}
		if c.Pages != nil {
			doc.Metadata[MetaPages] = *c.Pages
		}
		if len(c.Extra) > 0 {
			doc.Metadata[MetaExtra] = decodeAll(c.Extra)
		}
	}
	for i := range c.Items {
		it := &c.Items[i]
		if doc.Title == "" && it.Type == TypeTitle {
			doc.Title = it.Content
		}
		b := toBlock(it)
		b.Attrs[sdk.AttrItem] = i
		doc.Blocks = append(doc.Blocks, b)
	}
	return doc
}

// ImagePlaceholder is the text of the block of an image item: "[image]", or "[image: MIME]"
// when the item names its MIME type. The image data itself is in the block's Attrs[AttrData].
func ImagePlaceholder(mimeType string) string {
	if mimeType == "" {
		return "[image]"
	}
	return "[image: " + mimeType + "]"
}

func toBlock(it *Item) sdk.Block {
	b := sdk.Block{Kind: sdk.KindParagraph, Text: it.Content, Attrs: map[string]any{AttrSourceType: it.Type}}
	switch it.Type {
	case TypeTitle:
		b.Kind, b.Level = sdk.KindHeading, 1
	case TypeSection:
		b.Kind, b.Level = sdk.KindHeading, 2
		if it.Level != nil && *it.Level >= 1 {
			b.Level = *it.Level
		}
	case TypeList:
		b.Kind = sdk.KindList
	case TypeCaption:
		b.Kind = sdk.KindCaption
	case TypeFootnote:
		b.Kind = sdk.KindFootnote
		if label, ok := footnoteDefinition(it.Content); ok {
			b.Attrs[AttrFootnoteLabel] = label
		}
	case TypeImageDescription:
		b.Kind, b.Text = sdk.KindImage, render(it)
	case TypeHeader:
		b.Kind = sdk.KindPageHeader
	case TypeFooter:
		b.Kind = sdk.KindPageFooter
	case TypeTable:
		b.Kind = sdk.KindTable
	case TypeImage:
		mime := ""
		if it.MimeType != nil {
			mime = *it.MimeType
		}
		b.Kind, b.Text = sdk.KindImage, ImagePlaceholder(mime)
		b.Attrs[AttrData] = it.Content
	}
	if it.Page != nil {
		if *it.Page >= 1 {
			b.Page = *it.Page
		} else {
			b.Attrs[AttrPage] = *it.Page
		}
	}
	if it.Level != nil {
		b.Attrs[AttrLevel] = *it.Level
	}
	if it.PositionY != nil {
		b.Attrs[AttrPositionY] = *it.PositionY
	}
	if it.Marker != nil {
		b.Attrs[AttrMarker] = *it.Marker
	}
	if it.ListLevel != nil {
		b.Attrs[AttrListLevel] = *it.ListLevel
	}
	if it.MimeType != nil {
		b.Attrs[AttrMimeType] = *it.MimeType
	}
	if len(it.Extra) > 0 {
		b.Attrs[AttrExtra] = decodeAll(it.Extra)
	}
	return b
}

// decodeAll decodes raw JSON values; they were checked when parsed, so none fails.
func decodeAll(raw map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(raw))
	for k, v := range maps.All(raw) {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			x = strings.TrimSpace(string(v))
		}
		out[k] = x
	}
	return out
}
