package markdown

import (
	"bytes"
	"iter"

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
	b := newBuilder(pieceText(norm, opts.InPlace), 1)
	textBlocks(b)
	doc.Blocks = b.blocks
	doc.Source = b.sourceMap(0, dropped)
	return doc, nil
}

// ParseTextParts is ParseText for large inputs, a piece at a time, as ParseParts is Parse: it
// returns the document without its blocks and source map, and parts, which yields the blocks
// ParseText would give, in order, in runs with their source map, reading each piece of src
// only when it is asked for. A piece is at least pieceBytes of src (0 means DefaultPieceBytes;
// a negative value, one piece) and ends after the next blank line, which no paragraph crosses,
// so the parts joined are exactly ParseText's blocks and source map.
//
// Errors are ParseText's and are returned by ParseTextParts itself; parts yields none. parts
// may be ranged over once, and src must not change until it is done.
func ParseTextParts(src []byte, opts Options, pieceBytes int) (*sdk.Document, iter.Seq2[sdk.DocumentPart, error], error) {
	if err := checkUTF8(src, opts.ID); err != nil {
		return nil, nil, err
	}
	doc := newDocument(opts)
	norm, dropped := normalize(src)
	if pieceBytes == 0 {
		pieceBytes = DefaultPieceBytes
	}
	p := &piecer{body: norm, dropped: dropped, size: pieceBytes, line: 1, inPlace: opts.InPlace}
	parts := func(yield func(sdk.DocumentPart, error) bool) {
		for !p.done() {
			if !yield(p.nextText(), nil) {
				return
			}
		}
	}
	return doc, parts, nil
}

// nextText reads the next piece of plain text and returns its blocks.
func (p *piecer) nextText() sdk.DocumentPart {
	end := len(p.body)
	if p.size > 0 && p.pos+p.size < len(p.body) {
		if cut := afterBlankLine(p.body, p.pos+p.size); cut >= 0 {
			end = cut
		}
	}
	p.finished = end == len(p.body)
	b := p.builder(p.pos, end)
	b.src = nil // plain text: no goldmark tree reads it
	textBlocks(b)
	return p.finish(b, end)
}

// textBlocks adds to b a paragraph for every run of non-blank lines of its text.
func textBlocks(b *builder) {
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
}

// afterBlankLine returns the offset of the line after the first blank line of body that
// starts at or after from, or -1 when there is none or nothing follows it.
func afterBlankLine(body []byte, from int) int {
	off := from
	if off > 0 && body[off-1] != '\n' {
		nl := bytes.IndexByte(body[off:], '\n')
		if nl < 0 {
			return -1
		}
		off += nl + 1
	}
	for off < len(body) {
		nl := bytes.IndexByte(body[off:], '\n')
		if nl < 0 {
			return -1
		}
		next := off + nl + 1
		if len(bytes.TrimSpace(body[off:next])) == 0 && next < len(body) {
			return next
		}
		off = next
	}
	return -1
}
