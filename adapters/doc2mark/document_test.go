package doc2mark_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func TestToDocumentMapsEveryItemType(t *testing.T) {
	t.Parallel()
	src := `{"pages": 3, "producer": "doc2mark", "content": [
	 {"type": "text:title", "content": "Report", "page": 1, "level": 1},
	 {"type": "text:section", "content": "Scope", "page": 1},
	 {"type": "text:section", "content": "Details", "level": 3},
	 {"type": "text:section", "content": "Odd", "level": 0},
	 {"type": "text:normal", "content": "Body [^1]", "page": 2, "position_y": 40.5},
	 {"type": "text:list", "content": "1. first", "marker": "1.", "list_level": 1},
	 {"type": "text:caption", "content": "Figure 1"},
	 {"type": "text:footnote", "content": "[^1]: The note."},
	 {"type": "text:footnote", "content": "1. Raw PDF footnote"},
	 {"type": "text:image_description", "content": "<image_ocr_result> scanned words </image_ocr_result>", "page": 3},
	 {"type": "text:header", "content": "ACME"},
	 {"type": "text:footer", "content": "Page 1", "page": 0},
	 {"type": "table", "content": "| a |\n| - |\n| 1 |"},
	 {"type": "image", "content": "QUJD", "mime_type": "image/jpeg", "bbox": [1, 2]},
	 {"type": "image", "content": "REVG"},
	 {"type": "text:equation", "content": "E = mc^2"}
	]}`
	doc, err := doc2mark.Parse([]byte(src), doc2mark.Options{ID: "r", TenantID: "t", CorpusID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	src2 := func(typ string, more map[string]any) map[string]any {
		m := map[string]any{doc2mark.AttrSourceType: typ}
		for k, v := range more {
			m[k] = v
		}
		return m
	}
	want := &sdk.Document{
		ID: "r", TenantID: "t", CorpusID: "c", Title: "Report",
		Metadata: map[string]any{doc2mark.MetaPages: 3, doc2mark.MetaExtra: map[string]any{"producer": "doc2mark"}},
		Blocks: []sdk.Block{
			{Kind: sdk.KindHeading, Text: "Report", Level: 1, Page: 1, Attrs: src2("text:title", map[string]any{doc2mark.AttrLevel: 1})},
			{Kind: sdk.KindHeading, Text: "Scope", Level: 2, Page: 1, Attrs: src2("text:section", nil)},
			{Kind: sdk.KindHeading, Text: "Details", Level: 3, Attrs: src2("text:section", map[string]any{doc2mark.AttrLevel: 3})},
			{Kind: sdk.KindHeading, Text: "Odd", Level: 2, Attrs: src2("text:section", map[string]any{doc2mark.AttrLevel: 0})},
			{Kind: sdk.KindParagraph, Text: "Body [^1]", Page: 2, Attrs: src2("text:normal", map[string]any{doc2mark.AttrPositionY: 40.5})},
			{Kind: sdk.KindList, Text: "1. first", Attrs: src2("text:list", map[string]any{doc2mark.AttrMarker: "1.", doc2mark.AttrListLevel: 1})},
			{Kind: sdk.KindCaption, Text: "Figure 1", Attrs: src2("text:caption", nil)},
			{Kind: sdk.KindFootnote, Text: "[^1]: The note.", Attrs: src2("text:footnote", map[string]any{doc2mark.AttrFootnoteLabel: "1"})},
			{Kind: sdk.KindFootnote, Text: "1. Raw PDF footnote", Attrs: src2("text:footnote", nil)},
			{Kind: sdk.KindImage, Text: "scanned words", Page: 3, Attrs: src2("text:image_description", nil)},
			{Kind: sdk.KindPageHeader, Text: "ACME", Attrs: src2("text:header", nil)},
			{Kind: sdk.KindPageFooter, Text: "Page 1", Attrs: src2("text:footer", map[string]any{doc2mark.AttrPage: 0})},
			{Kind: sdk.KindTable, Text: "| a |\n| - |\n| 1 |", Attrs: src2("table", nil)},
			{Kind: sdk.KindImage, Text: "[image: image/jpeg]", Attrs: src2("image", map[string]any{
				doc2mark.AttrData: "QUJD", doc2mark.AttrMimeType: "image/jpeg", doc2mark.AttrExtra: map[string]any{"bbox": []any{1.0, 2.0}}})},
			{Kind: sdk.KindImage, Text: "[image]", Attrs: src2("image", map[string]any{doc2mark.AttrData: "REVG"})},
			{Kind: sdk.KindParagraph, Text: "E = mc^2", Attrs: src2("text:equation", nil)},
		},
	}
	for i := range want.Blocks {
		want.Blocks[i].Attrs[sdk.AttrItem] = i
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
	if err := doc.Validate(); err != nil {
		t.Errorf("the document is not valid: %v", err)
	}
}

func TestOptionsTitleWinsOverTheFirstTitleItem(t *testing.T) {
	t.Parallel()
	doc, err := doc2mark.Parse([]byte(`[{"type": "text:title", "content": "From the item"}]`), doc2mark.Options{Title: "Given"})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Given" {
		t.Errorf("Title = %q, want %q", doc.Title, "Given")
	}
}

func TestFootnoteLabelKeyIsTheOneSectionsReads(t *testing.T) {
	t.Parallel()
	if doc2mark.AttrFootnoteLabel != chunkers.AttrFootnoteLabel {
		t.Errorf("AttrFootnoteLabel = %q, chunkers.AttrFootnoteLabel = %q: Sections would not see the labels",
			doc2mark.AttrFootnoteLabel, chunkers.AttrFootnoteLabel)
	}
}
