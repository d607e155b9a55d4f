package markdown

import (
	"github.com/chunkkit/chunkkit/sdk"
)

// ParseText reads plain text into a Document: every run of non-blank lines becomes one
// KindParagraph block, and blank lines (empty or white space only) separate them. Block texts
// are dedented and trimmed as in Parse and carry AttrLine. Line endings are normalized to "\n"
// and a leading byte order mark is dropped; nothing is treated as markup, and Title is
// opts.Title.
//
// ParseText returns an *sdk.InputError matching sdk.ErrInvalidInput, with Block -1 and the byte
// offset of the first bad byte, when src is not valid UTF-8. It takes time linear in len(src).
func ParseText(src []byte, opts Options) (*sdk.Document, error) {
	if err := checkUTF8(src, opts.ID); err != nil {
		return nil, err
	}
	doc := newDocument(opts)
	norm, dropped := normalize(src)
	b := newBuilder(string(norm), 1)
	n := b.lines.count()
	start := -1 // first line of the current run, or -1 between runs
	for i := 0; i < n; i++ {
		blank := sdk.IsBlank(b.lines.span(i, i+1))
		switch {
		case !blank && start < 0:
			start = i
		case blank && start >= 0:
			b.add(sdk.KindParagraph, start, b.lines.span(start, i), nil)
			start = -1
		}
	}
	if start >= 0 {
		b.add(sdk.KindParagraph, start, b.lines.span(start, n), nil)
	}
	doc.Blocks = b.blocks
	doc.Source = b.sourceMap(0, dropped)
	return doc, nil
}
