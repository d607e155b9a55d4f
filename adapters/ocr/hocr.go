package ocr

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// ReadHOCR reads hOCR (`tesseract page.png out hocr`, or a list file of images for many pages)
// from r and returns the Document analyze makes of it.
//
// Elements are read by class: ocr_page is a page, numbered ppageno+1 (ppageno counts from 0)
// or by its position when it has none; ocr_carea (or ocrx_block) a block; ocr_par a paragraph;
// ocr_line, ocrx_line, ocr_header, ocr_caption and ocr_textfloat a line, whose x_size is its
// font size; ocrx_word a word, with its bbox and x_wconf. Text outside any word is kept as
// words of the innermost line (made when there is none), with the box of the innermost
// element that has one and no confidence, so that hOCR from engines that mark only lines is
// read too. The engine name is the ocr-system meta element's content unless Options.Engine
// is set. Blocks are then read as described in the package documentation and
// docs/reference/ocr.md: in reading order, with headings, tables and confidences.
//
// Input that is not UTF-8 or not well-formed enough to read, or an element whose title holds
// a malformed bbox (not 4 numbers, negative, x1 < x0), x_wconf (outside 0–100), x_size or
// ppageno, gives an *sdk.InputError matching sdk.ErrInvalidInput whose Problem names the line,
// column and element and whose Offset is the byte offset. Options that cannot work give an
// error matching sdk.ErrInvalidConfig; an error from r is returned wrapped.
func ReadHOCR(r io.Reader, opts Options) (*sdk.Document, error) {
	src, err := readSource(r, "hOCR", opts)
	if err != nil {
		return nil, err
	}
	return parseHOCR(src, opts)
}

// ParseHOCR is ReadHOCR of src: src must not change while ParseHOCR runs, and the Document does
// not keep it.
func ParseHOCR(src []byte, opts Options) (*sdk.Document, error) {
	if err := checkSource(src, "hOCR", opts); err != nil {
		return nil, err
	}
	return parseHOCR(src, opts)
}

// parseHOCR reads src, valid UTF-8, analysing each page once it is over (its element ends, or
// another page begins), so that the words of one page at a time are held, not the document's.
func parseHOCR(src []byte, opts Options) (*sdk.Document, error) {
	a := newAnalyzer("", opts)
	h := &hocrReader{docID: opts.ID, onPage: a.addPage}
	if err := h.read(src); err != nil {
		return nil, err
	}
	a.engine = opts.Engine // the blocks are made at finish: the ocr-system may come late
	if a.engine == "" {
		a.engine = cmpOr(h.system, "hocr")
	}
	doc := newDocument(opts)
	a.finish(doc)
	return doc, nil
}

type hocrRole int

const (
	roleNone hocrRole = iota
	roleSkip          // an element whose text is not page text: head, script, style
	rolePage
	roleBlock
	rolePar
	roleLine
	roleWord
)

var hocrRoles = map[string]hocrRole{
	"ocr_page":      rolePage,
	"ocr_carea":     roleBlock,
	"ocrx_block":    roleBlock,
	"ocr_par":       rolePar,
	"ocr_line":      roleLine,
	"ocrx_line":     roleLine,
	"ocr_header":    roleLine,
	"ocr_caption":   roleLine,
	"ocr_textfloat": roleLine,
	"ocrx_word":     roleWord,
}

// frame is an open element.
type frame struct {
	role   hocrRole
	box    box
	hasBox bool
}

// hocrReader builds the page model from hOCR elements. With onPage set, it hands each page to
// onPage once the page is over (no more words can reach it) and keeps nothing of it.
type hocrReader struct {
	docID  string
	dec    *xml.Decoder
	stack  []frame
	system string
	onPage func(*page)
	pages  []*page // the pages not yet handed on
	nPages int     // the pages made, handed on or not
	page   *page
	block  *block
	para   *para
	line   *line
	word   *word // the open word, nil outside one
	text   strings.Builder
}

func (h *hocrReader) read(src []byte) error {
	h.dec = xml.NewDecoder(bytes.NewReader(src))
	h.dec.Strict = false
	h.dec.AutoClose = xml.HTMLAutoClose
	h.dec.Entity = xml.HTMLEntity
	h.dec.CharsetReader = func(label string, input io.Reader) (io.Reader, error) {
		if l := strings.ToLower(label); l == "utf-8" || l == "utf8" || l == "us-ascii" {
			return input, nil
		}
		return nil, fmt.Errorf("encoding %q is declared; hOCR must be UTF-8", label)
	}
	for {
		tok, err := h.dec.Token()
		if errors.Is(err, io.EOF) {
			h.page = nil
			h.pagesOver()
			return nil
		}
		if err != nil {
			return h.syntaxError(src, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := h.start(t); err != nil {
				return err
			}
		case xml.EndElement:
			h.end()
		case xml.CharData:
			h.charData(string(t))
		}
	}
}

func (h *hocrReader) syntaxError(src []byte, err error) error {
	off := int(h.dec.InputOffset())
	var syn *xml.SyntaxError
	if errors.As(err, &syn) {
		return inputError(h.docID, off, "", "hOCR: line %d: %s", syn.Line, syn.Msg)
	}
	return inputError(h.docID, off, "", "hOCR: line %d: %v", lineAt(src, off), err)
}

// skipping reports whether the innermost open element holds no page text.
func (h *hocrReader) skipping() bool {
	return len(h.stack) > 0 && h.stack[len(h.stack)-1].role == roleSkip
}

func (h *hocrReader) start(t xml.StartElement) error {
	f := frame{role: roleNone}
	var class, title, name, content string
	for _, a := range t.Attr {
		switch strings.ToLower(a.Name.Local) {
		case "class":
			class = a.Value
		case "title":
			title = a.Value
		case "name":
			name = a.Value
		case "content":
			content = a.Value
		}
	}
	switch strings.ToLower(t.Name.Local) {
	case "head", "script", "style", "title":
		f.role = roleSkip
	case "meta":
		if strings.EqualFold(name, "ocr-system") {
			h.system = strings.TrimSpace(content)
		}
	}
	if h.skipping() {
		h.stack = append(h.stack, frame{role: roleSkip})
		return nil
	}
	if f.role == roleNone {
		for _, c := range strings.Fields(class) {
			if r, ok := hocrRoles[c]; ok {
				f.role = r
				break
			}
		}
	}
	props, err := parseTitle(title)
	if err != nil {
		return h.elementError(t, "title", err)
	}
	if v, ok := props["bbox"]; ok {
		b, err := parseBBox(v)
		if err != nil {
			return h.elementError(t, "bbox", err)
		}
		f.box, f.hasBox = b, true
	}
	switch f.role {
	case rolePage:
		h.pagesOver()
		n := h.nPages + 1
		if v, ok := props["ppageno"]; ok {
			p, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || p < 0 || p >= maxCoordinate {
				return h.elementError(t, "ppageno", fmt.Errorf("ppageno %q is not an integer from 0", v))
			}
			n = p + 1
		}
		h.page = &page{number: n, width: f.box.x1, height: f.box.y1}
		h.pages = append(h.pages, h.page)
		h.nPages++
		h.block, h.para, h.line = nil, nil, nil
	case roleBlock:
		h.ensurePage()
		h.block = &block{}
		h.page.blocks = append(h.page.blocks, h.block)
		h.para, h.line = nil, nil
	case rolePar:
		h.ensureBlock()
		h.para = &para{}
		h.block.paras = append(h.block.paras, h.para)
		h.line = nil
	case roleLine:
		h.ensurePara()
		h.line = &line{}
		if v, ok := props["x_size"]; ok {
			s, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(s) || s < 0 || s > maxCoordinate {
				return h.elementError(t, "x_size", fmt.Errorf("x_size %q is not a number from 0", v))
			}
			h.line.size = s
		}
		h.para.lines = append(h.para.lines, h.line)
	case roleWord:
		if h.word != nil {
			f.role = roleNone // a word inside a word: its text is the outer word's
			break
		}
		conf := -1.0
		if v, ok := props["x_wconf"]; ok {
			c, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(c) || c < 0 || c > 100 {
				return h.elementError(t, "x_wconf", fmt.Errorf("x_wconf %q is not a number from 0 to 100", v))
			}
			conf = c
		}
		b, _ := h.innermostBox()
		if f.hasBox {
			b = f.box
		}
		h.word = &word{box: b, conf: conf}
		h.text.Reset()
	}
	h.stack = append(h.stack, f)
	return nil
}

// elementError names the element being read, its line and column, and the problem.
func (h *hocrReader) elementError(t xml.StartElement, field string, err error) error {
	line, col := h.dec.InputPos()
	desc := "<" + t.Name.Local
	for _, a := range t.Attr {
		if n := strings.ToLower(a.Name.Local); n == "class" || n == "id" {
			desc += fmt.Sprintf(" %s=%q", a.Name.Local, a.Value)
		}
	}
	return inputError(h.docID, int(h.dec.InputOffset()), field, "hOCR: line %d, column %d: element %s>: %v", line, col, desc, err)
}

func (h *hocrReader) end() {
	if len(h.stack) == 0 {
		return
	}
	f := h.stack[len(h.stack)-1]
	h.stack = h.stack[:len(h.stack)-1]
	switch f.role {
	case roleWord:
		h.word.text = strings.TrimSpace(h.text.String())
		h.ensureLine()
		h.line.words = append(h.line.words, *h.word)
		h.word = nil
	case roleLine:
		h.line = nil
	case rolePar:
		h.para, h.line = nil, nil
	case roleBlock:
		h.block, h.para, h.line = nil, nil, nil
	case rolePage:
		h.page, h.block, h.para, h.line = nil, nil, nil, nil
		h.pagesOver()
	}
}

// pagesOver hands the pages other than the open one to onPage: words reach only the open page
// (h.page), and a page no longer open is never opened again.
func (h *hocrReader) pagesOver() {
	if h.onPage == nil {
		return
	}
	for _, p := range h.pages {
		if p != h.page {
			h.onPage(p)
		}
	}
	h.pages = h.pages[:0]
	if h.page != nil {
		h.pages = append(h.pages, h.page)
	}
}

// charData adds text to the open word, or keeps text outside any word as words of their own.
func (h *hocrReader) charData(s string) {
	if h.skipping() {
		return
	}
	if h.word != nil {
		h.text.WriteString(s)
		return
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return
	}
	b, _ := h.innermostBox()
	h.ensureLine()
	for _, f := range fields {
		h.line.words = append(h.line.words, word{text: f, box: b, conf: -1})
	}
}

func (h *hocrReader) innermostBox() (box, bool) {
	for _, f := range slices.Backward(h.stack) {
		if f.hasBox {
			return f.box, true
		}
	}
	return box{}, false
}

func (h *hocrReader) ensurePage() {
	if h.page == nil {
		h.pagesOver()
		h.page = &page{number: h.nPages + 1}
		h.pages = append(h.pages, h.page)
		h.nPages++
	}
}

func (h *hocrReader) ensureBlock() {
	if h.block == nil {
		h.ensurePage()
		h.block = &block{}
		h.page.blocks = append(h.page.blocks, h.block)
	}
}

func (h *hocrReader) ensurePara() {
	if h.para == nil {
		h.ensureBlock()
		h.para = &para{}
		h.block.paras = append(h.block.paras, h.para)
	}
}

func (h *hocrReader) ensureLine() {
	if h.line == nil {
		h.ensurePara()
		h.line = &line{}
		h.para.lines = append(h.para.lines, h.line)
	}
}

// parseTitle splits an hOCR title into its properties, "name args; name args", keeping
// semicolons inside double quotes. A property named twice keeps its first value.
func parseTitle(title string) (map[string]string, error) {
	props := map[string]string{}
	if strings.TrimSpace(title) == "" {
		return props, nil
	}
	var parts []string
	inQuote, start := false, 0
	for i := 0; i < len(title); i++ {
		switch title[i] {
		case '"':
			inQuote = !inQuote
		case ';':
			if !inQuote {
				parts = append(parts, title[start:i])
				start = i + 1
			}
		}
	}
	if inQuote {
		return nil, fmt.Errorf("title %q has an unclosed quote", title)
	}
	parts = append(parts, title[start:])
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		name, args, _ := strings.Cut(p, " ")
		if _, ok := props[name]; !ok {
			props[name] = args
		}
	}
	return props, nil
}

// parseBBox reads "x0 y0 x1 y1".
func parseBBox(args string) (box, error) {
	f := strings.Fields(args)
	if len(f) != 4 {
		return box{}, fmt.Errorf("bbox %q needs 4 numbers x0 y0 x1 y1, got %d", args, len(f))
	}
	var v [4]int
	for i, s := range f {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || x < 0 || x > maxCoordinate {
			return box{}, fmt.Errorf("bbox %q: %q is not a number from 0 to %d", args, s, maxCoordinate)
		}
		v[i] = int(math.Round(x))
	}
	if v[2] < v[0] || v[3] < v[1] {
		return box{}, fmt.Errorf("bbox %q has x1 < x0 or y1 < y0", args)
	}
	return box{v[0], v[1], v[2], v[3]}, nil
}
