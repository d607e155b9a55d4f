package markdown

import (
	"iter"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// TestInPlaceGivesTheSameDocumentWithoutACopy parses every shipped Markdown document, and all
// of them joined, with and without Options.InPlace, whole and in parts, as Markdown and as
// plain text: the documents are the same, and the block texts of the InPlace ones are cut from
// the source itself (those the parser does not rebuild, as a dedented block), where without it
// none is.
func TestInPlaceGivesTheSameDocumentWithoutACopy(t *testing.T) {
	t.Parallel()
	type parser struct {
		name  string
		parse func(src []byte, opts Options) (*sdk.Document, error)
	}
	parsers := []parser{
		{"Parse", Parse},
		{"ParseText", ParseText},
	}
	for _, size := range []int{1, 4096, 0} {
		parsers = append(parsers,
			parser{"ParseParts", func(src []byte, opts Options) (*sdk.Document, error) {
				return joined(ParseParts(src, opts, size))
			}},
			parser{"ParseTextParts", func(src []byte, opts Options) (*sdk.Document, error) {
				return joined(ParseTextParts(src, opts, size))
			}})
	}
	cut, blocks := map[string]int{}, map[string]int{} // per parser, of the sources without CR
	for name, text := range partSources(t) {
		for _, p := range parsers {
			src := []byte(text)
			want, werr := p.parse(src, Options{ID: "doc"})
			got, gerr := p.parse(src, Options{ID: "doc", InPlace: true})
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("%s, %s: error %v, with InPlace %v", name, p.name, werr, gerr)
			}
			if werr != nil {
				continue
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s, %s: InPlace changes the document (-copy +InPlace):\n%s", name, p.name, diff)
			}
			if n := within(want.Blocks, src); n != 0 {
				t.Fatalf("%s, %s: %d block texts are cut from the source without InPlace, want none", name, p.name, n)
			}
			if !strings.Contains(text, "\r") { // CRLF is normalized into a copy, which the blocks are cut from
				cut[p.name] += within(got.Blocks, src)
				blocks[p.name] += len(got.Blocks)
			}
		}
	}
	for name, n := range blocks {
		if cut[name] < n*3/4 {
			t.Errorf("%s: %d of %d block texts are cut from the source with InPlace, want most", name, cut[name], n)
		}
	}
}

// joined returns the document of a ParseParts or ParseTextParts call with its parts joined.
func joined(doc *sdk.Document, parts iter.Seq2[sdk.DocumentPart, error], err error) (*sdk.Document, error) {
	if err != nil {
		return nil, err
	}
	doc.Blocks, doc.Source = []sdk.Block{}, &sdk.SourceMap{}
	for part, err := range parts {
		if err != nil {
			return nil, err
		}
		doc.Blocks = append(doc.Blocks, part.Blocks...)
		if part.Source != nil {
			doc.Source.Segments = append(doc.Source.Segments, part.Source.Segments...)
		}
	}
	if len(doc.Source.Segments) == 0 {
		doc.Source.Segments = nil
	}
	return doc, nil
}

// within returns how many of blocks have a text whose bytes lie in src's memory.
func within(blocks []sdk.Block, src []byte) int {
	if len(src) == 0 {
		return 0
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	hi := lo + uintptr(len(src))
	n := 0
	for _, b := range blocks {
		if b.Text == "" {
			continue
		}
		if p := uintptr(unsafe.Pointer(unsafe.StringData(b.Text))); p >= lo && p < hi {
			n++
		}
	}
	return n
}
