package markdown

import (
	"bytes"
	"iter"
	"strings"
	"unsafe"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultPieceBytes is the source ParseParts parses at least in one piece (unless the input
// ends first) before it cuts at the next heading where it may.
const DefaultPieceBytes = 256 << 10

// ParseParts is Parse for large inputs, a piece at a time: it returns the document without its
// blocks and source map, and parts, which yields the blocks Parse would give, in order, in
// runs (sdk.DocumentPart) with their source map, parsing each piece of src only when it is
// asked for. Joined, the parts' blocks and source segments are exactly Parse's, and the
// document is Parse's but for Blocks and Source, and Footnotes, which ParseParts sets from a
// scan of src (sdk.ScanFootnotes: the labels its footnote blocks may define and reference); so
// an sdk.PartChunker that reads parts as they come never holds the whole document, and
// goldmark's tree is of one piece at a time.
//
// A piece is at least pieceBytes of src (0 means DefaultPieceBytes; a negative value, one
// piece) and ends before a line that opens after a blank line at the margin with an ATX
// heading, a letter or a non-ASCII character, where nothing Markdown can hold open goes on
// across it: ParseParts parses each piece with that line and cuts there only when goldmark
// reads the line as the start of a heading or paragraph of the outermost level, else it takes
// in more. When the document takes its title from its first level-1 heading, the pieces up to
// that heading are parsed before ParseParts returns; when that heading is far in (more than
// four pieces), or there is none while some line might be one, they are parsed again as parts
// asks for them rather than held.
//
// A piece that ends with a large table (one of over 16 pieces) whose rows only the table can
// hold (lines that open no block, such as those starting with "|", up to a blank line or the
// end) has
// those rows counted rather than handed to goldmark, which keeps a record of every line of a
// run without a blank line: the blocks are the same (see largeTable).
//
// Errors are Parse's and are returned by ParseParts itself; parts yields none. parts may be
// ranged over once, and src must not change until it is done.
func ParseParts(src []byte, opts Options, pieceBytes int) (*sdk.Document, iter.Seq2[sdk.DocumentPart, error], error) {
	if err := checkUTF8(src, opts.ID); err != nil {
		return nil, nil, err
	}
	doc := newDocument(opts)
	norm, dropped := normalize(src)
	bodyStart, fmLines := 0, 0
	if bytes.HasPrefix(norm, []byte("---")) {
		// Only the front matter is kept as a string: the body is made into strings a piece
		// at a time.
		fm, lines, body, ok := frontMatter(inPlaceString(norm)) // a view for this call: fm is cloned
		if ok {
			fm = strings.Clone(fm)
			doc.Metadata = frontMatterFields(fm)
			if t, ok := doc.Metadata["title"].(string); ok && doc.Title == "" {
				doc.Title = strings.TrimSpace(t)
			}
			doc.Metadata[MetaFrontMatter] = fm
			bodyStart, fmLines = len(norm)-len(body), lines
		}
	}
	// The blocks' texts are cut from the body: what it has of footnotes bounds what they do.
	doc.Footnotes = sdk.ScanFootnotes(inPlaceString(norm[bodyStart:])) // it keeps copies
	if pieceBytes == 0 {
		pieceBytes = DefaultPieceBytes
	}
	newPiecer := func() *piecer {
		return &piecer{body: norm[bodyStart:], bodyStart: bodyStart, dropped: dropped, size: pieceBytes, line: fmLines + 1, inPlace: opts.InPlace}
	}
	p := newPiecer()
	// The parts before the one that holds the first level-1 heading, which names the
	// document when nothing else does.
	var ahead []sdk.DocumentPart
	if doc.Title == "" && mayHoldTitle(p.body) {
		again := false // too many parts to hold: they are parsed again
		for n := 0; !p.done(); n++ {
			part := p.next()
			if again = n >= maxAhead; again {
				ahead = nil
			} else {
				ahead = append(ahead, part)
			}
			if t, ok := firstTitle(part.Blocks); ok {
				doc.Title = t
				break
			}
		}
		if again {
			p = newPiecer()
		}
	}
	parts := func(yield func(sdk.DocumentPart, error) bool) {
		for _, part := range ahead {
			if !yield(part, nil) {
				return
			}
		}
		ahead = nil
		for !p.done() {
			if !yield(p.next(), nil) {
				return
			}
		}
	}
	return doc, parts, nil
}

// maxAhead is how many parts ParseParts holds while it looks for the document's title.
const maxAhead = 4

// firstTitle returns the text of the first level-1 heading of blocks.
func firstTitle(blocks []sdk.Block) (string, bool) {
	for _, blk := range blocks {
		if blk.Kind == sdk.KindHeading && blk.Level == 1 {
			return blk.Text, true
		}
	}
	return "", false
}

// mayHoldTitle reports whether body has a line that could be or underline a level-1 heading:
// an ATX "#" heading line or a setext "=" underline. Without one, no part has a title to find.
func mayHoldTitle(body []byte) bool {
	for off := 0; off < len(body); {
		line := body[off:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		off += len(line) + 1
		t := bytes.TrimLeft(line, " ")
		if len(line)-len(t) > 3 || len(t) == 0 {
			continue
		}
		switch t[0] {
		case '#':
			if len(t) == 1 || t[1] == ' ' || t[1] == '\t' {
				return true
			}
		case '=':
			if len(bytes.Trim(t, "= \t")) == 0 {
				return true
			}
		}
	}
	return false
}

// piecer cuts a body into pieces and parses them one at a time.
type piecer struct {
	body      []byte
	bodyStart int   // offset of body in the normalized text
	dropped   []int // as normalize returns it
	size      int
	pos       int  // where the next piece starts in body
	line      int  // the 1-based source line of body[pos]
	canonLen  int  // canonical text of the blocks so far
	blocks    bool // blocks were emitted
	finished  bool // the last piece was parsed
	inPlace   bool // Options.InPlace
	tables    int  // pieces read by largeTable (for tests)
}

func (p *piecer) done() bool { return p.finished }

// next parses the next piece and returns its blocks.
func (p *piecer) next() sdk.DocumentPart {
	start := p.pos
	from := start + p.size
	triedTable := false
	for {
		cut := -1
		if p.size > 0 && from < len(p.body) {
			cut = nextCut(p.body, from)
		}
		if end := cut; !triedTable && p.size > 0 && (end < 0 || end-start > largePiece*p.size) {
			triedTable = true
			if end < 0 {
				end = len(p.body)
			}
			if part, ok := p.largeTable(start, end); ok {
				return part
			}
		}
		if cut < 0 {
			p.finished = true
			return p.emit(start, len(p.body))
		}
		if part, ok := p.tryCut(start, cut, lineEndAt(p.body, cut)); ok {
			return part
		}
		// Something holds the heading's line (an unclosed fence or HTML block): take in more,
		// twice as much each time, so that a long such block is parsed a bounded number of
		// times.
		from = cut + max(cut-start, 1)
	}
}

// largePiece is how many piece sizes a piece must span before next looks for a large table in
// it (largeTable).
const largePiece = 16

// largeTable parses a piece that ends with a large table without handing goldmark the table's
// body, whose lines goldmark would keep a record of each (a 50 MB table cost ~65 MB of its
// memory): it parses body[start:w), for growing w up to half the piece of body[start:end],
// until goldmark reads the last top-level node as a table whose rows go on at w, checks that
// the rows after w are lines that nothing but a paragraph (the table) can hold (isRow), up to
// a blank line or the end, and then builds the piece's
// blocks from that tree, the table's body rows counted from the lines, up to the next
// non-blank line, where the whole parse's next node starts. Those lines cannot open or close
// anything: the table's paragraph is open at w and only a blank line ends it, after which
// nothing is open. It reports false, having emitted nothing, for any other piece.
func (p *piecer) largeTable(start, end int) (sdk.DocumentPart, bool) {
	for w, prev := lineEndAt(p.body, start+p.size), start; w > prev && w-start <= (end-start)/2; w, prev = lineEndAt(p.body, start+2*(w-start)), w {
		root := newParser().Parse(text.NewReader(capNesting(p.body[start:w])))
		table, ok := root.LastChild().(*extast.Table)
		if !ok || !isRow(lastLine(p.body[start:w])) {
			continue
		}
		// The rows after w, to the blank line or the end that ends the table.
		rows, e := 0, w
		for e < len(p.body) && isRow(p.body[e:lineEndAt(p.body, e)]) {
			rows, e = rows+1, lineEndAt(p.body, e)
		}
		if e < len(p.body) && !isBlank(p.body[e:lineEndAt(p.body, e)]) {
			return sdk.DocumentPart{}, false // another line ends the table: parse it whole
		}
		next := e // the next non-blank line, where the next node starts
		for next < len(p.body) && isBlank(p.body[next:lineEndAt(p.body, next)]) {
			next = lineEndAt(p.body, next)
		}
		table.SetAttribute(attrBodyRows, bodyRows(table)+rows)
		b := p.builder(start, next)
		b.build(root)
		p.finished = next == len(p.body)
		p.tables++
		return p.finish(b, next), true
	}
	return sdk.DocumentPart{}, false
}

// isRow reports whether line (with or without its newline) is one only a paragraph can hold
// when it follows one, as a table's body rows do (the table is a paragraph to goldmark until
// its transformer reads it): not blank, at most three spaces before its first character, and
// that character opens nothing that interrupts a paragraph or ends it — "#" (a heading), ">"
// (a quote), "<" (HTML), "`" and "~" (a fence), "*", "-", "_", "=" and "+" (a thematic break,
// a setext underline, a list item), a tab, or a number followed by "." or ")" (an ordered
// item). "|" is the commonest such character; a GFM row may start with any other.
func isRow(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || isBlank(t) {
		return false
	}
	switch c := t[0]; {
	case bytes.IndexByte([]byte("#><`~*-_=+\t"), c) >= 0:
		return false
	case '0' <= c && c <= '9':
		after := bytes.TrimLeft(t, "0123456789")
		return len(after) == 0 || (after[0] != '.' && after[0] != ')')
	}
	return true
}

// lineEndAt returns the offset just after the line end at or after off, or len(s).
func lineEndAt(s []byte, off int) int {
	if off >= len(s) {
		return len(s)
	}
	if nl := bytes.IndexByte(s[off:], '\n'); nl >= 0 {
		return off + nl + 1
	}
	return len(s)
}

// lastLine returns the last line of s, which ends with a newline, without it.
func lastLine(s []byte) []byte {
	s = bytes.TrimSuffix(s, []byte{'\n'})
	return s[bytes.LastIndexByte(s, '\n')+1:]
}

// isBlank reports whether line holds nothing but spaces, tabs and its newline.
func isBlank(line []byte) bool { return len(bytes.Trim(line, " \t\n")) == 0 }

// tryCut parses body[start:lineEnd], the piece and the line at cut, and when goldmark reads
// that line as the start of a top-level heading or paragraph emits the piece's blocks.
func (p *piecer) tryCut(start, cut, lineEnd int) (sdk.DocumentPart, bool) {
	b := p.builder(start, lineEnd)
	root := newParser().Parse(text.NewReader(capNesting(b.src)))
	last := root.LastChild()
	switch last.(type) {
	case *ast.Heading, *ast.Paragraph:
	default:
		return sdk.DocumentPart{}, false
	}
	cutLine := b.lines.lineOf(cut - start)
	if b.lines.lineOf(nodeStart(last)) != cutLine || cutLine == 0 {
		return sdk.DocumentPart{}, false
	}
	b.buildUpTo(root, last, cutLine)
	return p.finish(b, cut), true
}

// emit parses body[start:end], the last piece.
func (p *piecer) emit(start, end int) sdk.DocumentPart {
	b := p.builder(start, end)
	b.build(newParser().Parse(text.NewReader(capNesting(b.src))))
	return p.finish(b, end)
}

// builder returns a builder of body[start:end], made a string of its own so that the blocks
// cut from it hold that piece only, or with Options.InPlace a string of body itself.
func (p *piecer) builder(start, end int) *builder {
	b := newBuilder(pieceText(p.body[start:end], p.inPlace), p.line)
	b.src = p.body[start:end]
	b.canonLen, b.prior, b.srcBase = p.canonLen, p.blocks, start
	return b
}

// finish takes the blocks of b, whose piece ends at next.
func (p *piecer) finish(b *builder, next int) sdk.DocumentPart {
	p.line += bytes.Count(p.body[p.pos:next], []byte{'\n'})
	p.pos = next
	p.canonLen = b.canonLen
	p.blocks = p.blocks || len(b.blocks) > 0
	return sdk.DocumentPart{Blocks: b.blocks, Source: b.sourceMap(p.bodyStart, p.dropped)}
}

// pieceText returns piece as a string: a copy, or with inPlace piece itself (see
// Options.InPlace).
func pieceText(piece []byte, inPlace bool) string {
	if inPlace {
		return inPlaceString(piece)
	}
	return string(piece)
}

// inPlaceString returns b as a string without copying it: b must not change while the string
// is used.
func inPlaceString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// nextCut returns the offset of the first line at or after from that may start a piece: one
// at the margin after a blank line that is an ATX heading or starts with a letter or a
// non-ASCII character (the start of a paragraph, unless something holds it); or -1.
func nextCut(body []byte, from int) int {
	for off := from; off < len(body); {
		// Go to the start of the line at or after off.
		if off > 0 && body[off-1] != '\n' {
			nl := bytes.IndexByte(body[off:], '\n')
			if nl < 0 {
				return -1
			}
			off += nl + 1
			continue
		}
		nl := bytes.IndexByte(body[off:], '\n')
		if nl < 0 {
			return -1
		}
		next := off + nl + 1
		if isBlank(body[off:next]) && next < len(body) && startsPiece(body, next) {
			return next
		}
		off = next
	}
	return -1
}

// startsPiece reports whether the line of body at off may start a piece (see nextCut).
func startsPiece(body []byte, off int) bool {
	c := body[off]
	switch {
	case c == '#':
		return isATX(lineAt(body, off))
	case c >= 0x80:
		return true
	default:
		c |= 0x20 // lower case
		return c >= 'a' && c <= 'z'
	}
}

// lineAt returns the line of s that starts at off, without its newline.
func lineAt(s []byte, off int) string {
	if nl := bytes.IndexByte(s[off:], '\n'); nl >= 0 {
		return string(s[off : off+nl])
	}
	return string(s[off:])
}
