package ocr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// Result is OCR output in a form any engine can produce: the pages that were read and the
// regions of text found on them, in reading order. Its JSON form is documented in
// docs/reference/ocr.md; ReadJSON reads it and FromResult turns a Result built in Go into a
// Document. The zero value is an empty result.
type Result struct {
	// Engine names the engine that produced every region that names none, such as
	// "my-ocr 2.1". It is optional.
	Engine string `json:"engine,omitempty"`
	// Pages describes the pages, for consumers that scale boxes; it is optional and does not
	// decide which regions exist.
	Pages []Page `json:"pages,omitempty"`
	// Regions holds the text, in reading order. Each non-blank region becomes one block.
	Regions []Region `json:"regions"`
}

// Page is one page image of a Result. The zero value is a page of unknown size whose number is
// its position in Result.Pages plus one.
type Page struct {
	// Number is the 1-based page number; 0 means the page's position in Result.Pages plus one.
	Number int `json:"number,omitempty"`
	// Width and Height are the page image's size in pixels; 0 means unknown.
	Width  float64 `json:"width,omitempty"`
	Height float64 `json:"height,omitempty"`
}

// BBox is a bounding box [x0, y0, x1, y1] in pixels: x to the right, y down, (x0, y0) the
// top-left corner, x0 ≤ x1 and y0 ≤ y1.
type BBox [4]float64

// Region is one piece of text an engine found, such as a paragraph or a line. Only Text is
// required.
type Region struct {
	// Text is the region's text. It is trimmed of surrounding white space and "\r\n" becomes
	// "\n"; a blank region holds nothing to keep and makes no block.
	Text string `json:"text"`
	// BBox is where the region is on its page; nil means unknown.
	BBox *BBox `json:"bbox,omitempty"`
	// Confidence is the engine's confidence in the region, between 0 and 1; nil means unknown.
	Confidence *float64 `json:"confidence,omitempty"`
	// Engine names the engine that read the region; empty means Result.Engine.
	Engine string `json:"engine,omitempty"`
	// Page is the region's 1-based page number; 0 means unknown.
	Page int `json:"page,omitempty"`
	// Kind hints at the block kind, such as sdk.KindHeading or sdk.KindTable; empty means
	// sdk.KindParagraph.
	Kind sdk.BlockKind `json:"kind,omitempty"`
	// Level is a heading's level, 1 or more; 0 on a heading means 1. It must be 0 for other
	// kinds.
	Level int `json:"level,omitempty"`
}

// ReadJSON reads a Result in its JSON form from r and returns the Document FromResult makes of
// it. Unknown fields are errors, so that a misspelt "confidence" is not silently ignored.
//
// Input that is not UTF-8, not JSON, or not a valid Result gives an *sdk.InputError matching
// sdk.ErrInvalidInput that names the line or the region and what is wrong; Options that cannot
// work give an error matching sdk.ErrInvalidConfig; an error from r is returned wrapped.
func ReadJSON(r io.Reader, opts Options) (*sdk.Document, error) {
	src, err := readSource(r, "OCR JSON", opts)
	if err != nil {
		return nil, err
	}
	return parseJSON(src, opts)
}

// parseJSON is ReadJSON of src, which has passed readSource's checks.
func parseJSON(src []byte, opts Options) (*sdk.Document, error) {
	var res Result
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		return nil, jsonError(src, opts.ID, err, int(dec.InputOffset()))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		off := int(dec.InputOffset())
		return nil, inputError(opts.ID, off, "", "OCR JSON: line %d: data after the result object", lineAt(src, off))
	}
	return FromResult(&res, opts)
}

// jsonError turns an encoding/json error into an *sdk.InputError with the line where it is;
// off is where the decoder stopped, for errors that carry no offset.
func jsonError(src []byte, docID string, err error, off int) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return inputError(docID, len(src), "", "OCR JSON: line %d: no result object", lineAt(src, len(src)))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return inputError(docID, len(src), "", "OCR JSON: line %d: the input ends inside the result object", lineAt(src, len(src)))
	case errors.As(err, &syn):
		off := int(syn.Offset)
		return inputError(docID, off, "", "OCR JSON: line %d: %v", lineAt(src, off), syn)
	case errors.As(err, &typ):
		off := int(typ.Offset)
		return inputError(docID, off, typ.Field, "OCR JSON: line %d: a JSON %s cannot be a %v", lineAt(src, off), typ.Value, typ.Type)
	}
	return inputError(docID, off, "", "OCR JSON: line %d: %v", lineAt(src, off), err)
}

// lineAt returns the 1-based line of byte offset off in src.
func lineAt(src []byte, off int) int {
	off = min(max(off, 0), len(src))
	return 1 + bytes.Count(src[:off], []byte{'\n'})
}

// FromResult turns res into a Document, one block per non-blank region in the order given.
// A region becomes a block of its Kind (sdk.KindParagraph when empty) whose Attrs hold
// AttrEngine, AttrConfidence, AttrBBox and AttrPage as far as the region knows them; regions
// below Options.MinConfidence are dropped and listed in Document.Metadata[MetaDropped].
// Document.Metadata[MetaPages] lists res.Pages when there are any. FromResult does not keep
// res.
//
// A region with text that is not UTF-8, a box that is not finite or has x1 < x0, y1 < y0 or a
// negative coordinate, a confidence outside 0–1, a negative page, or a level on a kind other
// than a heading gives an *sdk.InputError matching sdk.ErrInvalidInput whose Field names it,
// such as "regions[3].bbox"; so does a page with a negative number or size, or a number used
// twice.
func FromResult(res *Result, opts Options) (*sdk.Document, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	doc := newDocument(opts)
	if res == nil {
		return doc, nil
	}
	if err := addPages(doc, res.Pages, opts.ID); err != nil {
		return nil, err
	}
	var dropped []map[string]any
	for i, reg := range res.Regions {
		b, use, drop, err := resultRegion(reg, i, res.Engine, opts)
		if err != nil {
			return nil, err
		}
		if drop != nil {
			dropped = append(dropped, drop)
		}
		if use {
			doc.Blocks = append(doc.Blocks, b)
		}
	}
	setDropped(doc, dropped)
	finishDocument(doc)
	return doc, nil
}

// resultRegion checks region i of a Result whose engine is engine and makes its block: use
// says the document keeps it; drop is its Metadata[MetaDropped] entry when it is dropped for
// its confidence; a blank region is neither.
func resultRegion(reg Region, i int, engine string, opts Options) (b sdk.Block, use bool, drop map[string]any, err error) {
	b, err = regionBlock(reg, i, opts)
	if err != nil || sdk.IsBlank(b.Text) {
		return sdk.Block{}, false, nil, err
	}
	if b.Attrs[AttrEngine] == nil {
		if e := cmpOr(engine, opts.Engine); e != "" {
			b.Attrs[AttrEngine] = e
		}
	}
	if reg.Confidence != nil && *reg.Confidence < opts.MinConfidence {
		return sdk.Block{}, false, droppedEntry(b.Text, b.Page, b.Attrs[AttrBBox], b.Attrs[AttrConfidence]), nil
	}
	return b, true, nil, nil
}

// setDropped lists the regions dropped for their confidence in doc's metadata, if any.
func setDropped(doc *sdk.Document, dropped []map[string]any) {
	if len(dropped) > 0 {
		setMeta(doc, MetaDroppedWords, len(dropped))
		setMeta(doc, MetaDropped, sdk.PageEntries{Key: "page", Entries: dropped})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func addPages(doc *sdk.Document, pages []Page, docID string) error {
	if len(pages) == 0 {
		return nil
	}
	seen := make(map[int]bool, len(pages))
	list := make([]map[string]any, 0, len(pages))
	for i, p := range pages {
		field := fmt.Sprintf("pages[%d]", i)
		n := p.Number
		if n == 0 {
			n = i + 1
		}
		switch {
		case n < 0:
			return inputError(docID, -1, field+".number", "page number %d is negative; pages count from 1", n)
		case seen[n]:
			return inputError(docID, -1, field+".number", "page number %d appears twice", n)
		case !finiteNonNegative(p.Width) || !finiteNonNegative(p.Height):
			return inputError(docID, -1, field, "page size %v × %v must be finite and not negative", p.Width, p.Height)
		}
		seen[n] = true
		list = append(list, pageEntry(n, p.Width, p.Height))
	}
	setMeta(doc, MetaPages, sdk.PageEntries{Key: "number", Entries: list})
	return nil
}

// pageEntry is one element of Document.Metadata[MetaPages].
func pageEntry(n int, w, h float64) map[string]any {
	m := map[string]any{"number": n}
	if w > 0 || h > 0 {
		m["width"], m["height"] = w, h
	}
	return m
}

// droppedEntry is one element of Document.Metadata[MetaDropped]; bbox and conf may be nil.
func droppedEntry(text string, page int, bbox, conf any) map[string]any {
	m := map[string]any{"text": text}
	if page > 0 {
		m["page"] = page
	}
	if bbox != nil {
		m["bbox"] = bbox
	}
	if conf != nil {
		m["ocr_confidence"] = conf
	}
	return m
}

func finiteNonNegative(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }

// regionBlock checks region i and makes its block; the block's text may be blank.
func regionBlock(reg Region, i int, opts Options) (sdk.Block, error) {
	field := func(name string) string { return fmt.Sprintf("regions[%d].%s", i, name) }
	if !utf8.ValidString(reg.Text) {
		return sdk.Block{}, inputError(opts.ID, -1, field("text"), "invalid UTF-8 at byte %d of the text", sdk.InvalidUTF8At(reg.Text))
	}
	kind := reg.Kind
	if kind == "" {
		kind = sdk.KindParagraph
	}
	level := reg.Level
	switch {
	case level < 0:
		return sdk.Block{}, inputError(opts.ID, -1, field("level"), "heading level %d is below 1", level)
	case kind == sdk.KindHeading && level == 0:
		level = 1
	case kind != sdk.KindHeading && level != 0:
		return sdk.Block{}, inputError(opts.ID, -1, field("level"), "level %d on a %q region; only headings have a level", level, kind)
	}
	if reg.Page < 0 {
		return sdk.Block{}, inputError(opts.ID, -1, field("page"), "page %d is negative; pages count from 1 (0 is unknown)", reg.Page)
	}
	attrs := map[string]any{}
	if reg.BBox != nil {
		bb := *reg.BBox
		for _, v := range bb {
			if !finiteNonNegative(v) {
				return sdk.Block{}, inputError(opts.ID, -1, field("bbox"), "box %v must hold finite coordinates that are not negative", bb)
			}
		}
		if bb[2] < bb[0] || bb[3] < bb[1] {
			return sdk.Block{}, inputError(opts.ID, -1, field("bbox"), "box %v has x1 < x0 or y1 < y0; it is [x0, y0, x1, y1]", bb)
		}
		attrs[AttrBBox] = bb[:]
	}
	if c := reg.Confidence; c != nil {
		if math.IsNaN(*c) || *c < 0 || *c > 1 {
			return sdk.Block{}, inputError(opts.ID, -1, field("confidence"), "confidence %v is outside 0–1 (divide a percentage by 100)", *c)
		}
		attrs[AttrConfidence] = *c
	}
	if reg.Engine != "" {
		attrs[AttrEngine] = reg.Engine
	}
	if reg.Page > 0 {
		attrs[AttrPage] = reg.Page
	}
	text := strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(reg.Text, "\r\n", "\n"), "\r", "\n"))
	return sdk.Block{Kind: kind, Text: text, Level: level, Page: reg.Page, Attrs: attrs}, nil
}
