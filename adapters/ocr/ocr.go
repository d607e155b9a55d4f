package ocr

import (
	"fmt"
	"math"

	"github.com/chunkkit/chunkkit/sdk"
)

// Keys of the Block.Attrs entries this package sets.
const (
	// AttrEngine holds the name of the OCR engine that read the block (string), such as
	// "tesseract" or the hOCR file's ocr-system, "tesseract 5.3.0".
	AttrEngine = "engine"
	// AttrConfidence holds the block's confidence between 0 and 1 (float64): the region's own
	// for a Result, the mean of its words' confidences for Tesseract, words without one (-1)
	// left out. It is absent when no word has a confidence.
	AttrConfidence = "ocr_confidence"
	// AttrBBox holds the block's bounding box on its page image as []float64{x0, y0, x1, y1}
	// in pixels, x to the right and y down, (x0, y0) the top-left corner. For Tesseract input
	// it is the union of the boxes of the words the block keeps. It is absent when the input
	// gives no box.
	AttrBBox = "bbox"
	// AttrPage holds the block's 1-based page number (int), the same as Block.Page. It is
	// absent when the page is unknown.
	AttrPage = "page"
	// AttrDroppedWords holds how many words of the block Options.MinConfidence dropped (int).
	// It is absent when none were.
	AttrDroppedWords = "dropped_words"
	// AttrDroppedText holds the text of the words Options.MinConfidence dropped from the block,
	// in reading order, joined by spaces (string). It is absent when none were.
	AttrDroppedText = "dropped_text"
	// AttrColumns holds a table block's column count (int).
	AttrColumns = "columns"
	// AttrRows holds a table block's body row count, the header row not counted (int).
	AttrRows = "rows"
)

// Keys of the Document.Metadata entries this package sets.
const (
	// MetaPages lists the pages the input describes, in input order, as an sdk.PageEntries
	// keyed by "number" whose entries hold "number" (int, 1-based) and, when known, "width"
	// and "height" in pixels (float64). A chunk's Metadata[sdk.MetaDocument] lists the pages
	// it spans.
	MetaPages = "pages"
	// MetaDroppedWords holds how many words (or, for a Result, regions) Options.MinConfidence
	// dropped from the whole document (int). It is absent when none were.
	MetaDroppedWords = "dropped_words"
	// MetaDropped lists what Options.MinConfidence dropped whole — blocks all of whose words,
	// or regions, fell below it — as an sdk.PageEntries keyed by "page" whose entries hold
	// "text" (string) and, when known, "page" (int), "bbox" ([]float64) and "ocr_confidence"
	// (float64). It is absent when nothing was dropped whole. A chunk's
	// Metadata[sdk.MetaDocument] lists what was dropped on the pages it spans.
	MetaDropped = "dropped"
)

// Defaults the zero Options stand for.
const (
	// DefaultHeadingRatio is the default Options.HeadingRatio: a line whose font size is 1.2
	// times the page's median body size or more is a heading (11 pt body, 14 pt heading: 1.27).
	DefaultHeadingRatio = 1.2
	// DefaultTableGap is the default Options.TableGap: a gap between two words of 1.5 times the
	// line's font size or more separates table cells (a word space is about 0.3).
	DefaultTableGap = 1.5
	// Off, as Options.HeadingRatio or Options.TableGap, turns heading or table detection off
	// (the zero value means the default).
	Off = -1
)

// Options says who a read document is and how OCR output is interpreted. The zero value is
// valid: no ID, tenant, corpus or title; every word kept; headings and tables detected with the
// defaults.
type Options struct {
	// ID becomes Document.ID and names the document in errors.
	ID string
	// TenantID becomes Document.TenantID.
	TenantID string
	// CorpusID becomes Document.CorpusID.
	CorpusID string
	// Title becomes Document.Title. When empty, the text of the first level-1 heading is used.
	Title string
	// Engine is the engine name recorded in AttrEngine when the input names none. When empty,
	// ReadTSV records "tesseract" and ReadHOCR "hocr"; a Result region without an engine then
	// records none.
	Engine string
	// MinConfidence, between 0 and 1, drops every word (for a Result, every region) whose
	// confidence is known and below it. What is dropped is recorded: per block in
	// AttrDroppedWords and AttrDroppedText, and for blocks dropped whole in
	// Document.Metadata[MetaDropped]. Zero keeps everything.
	MinConfidence float64
	// HeadingRatio is how many times the page's median body font size a Tesseract line must
	// measure to be a heading; it must be above 1. Zero means DefaultHeadingRatio; Off turns
	// heading detection off.
	HeadingRatio float64
	// TableGap is how many times a line's font size a gap between two words must measure to
	// separate table cells; it must be positive. Zero means DefaultTableGap; Off turns table
	// detection off.
	TableGap float64
}

// check reports an Options field that cannot work, as an error matching sdk.ErrInvalidConfig.
func (o Options) check() error {
	switch {
	case math.IsNaN(o.MinConfidence) || o.MinConfidence < 0 || o.MinConfidence > 1:
		return fmt.Errorf("%w: ocr: MinConfidence must be between 0 and 1, got %v", sdk.ErrInvalidConfig, o.MinConfidence)
	case math.IsNaN(o.HeadingRatio) || (o.HeadingRatio != Off && o.HeadingRatio < 0) || (o.HeadingRatio > 0 && o.HeadingRatio <= 1):
		return fmt.Errorf("%w: ocr: HeadingRatio must be above 1, 0 for the default or Off, got %v", sdk.ErrInvalidConfig, o.HeadingRatio)
	case math.IsNaN(o.TableGap) || (o.TableGap != Off && o.TableGap < 0):
		return fmt.Errorf("%w: ocr: TableGap must be positive, 0 for the default or Off, got %v", sdk.ErrInvalidConfig, o.TableGap)
	}
	return nil
}

func (o Options) headingRatio() float64 {
	if o.HeadingRatio == 0 {
		return DefaultHeadingRatio
	}
	return o.HeadingRatio
}

func (o Options) tableGap() float64 {
	if o.TableGap == 0 {
		return DefaultTableGap
	}
	return o.TableGap
}

func (o Options) engine(fallback string) string {
	if o.Engine != "" {
		return o.Engine
	}
	return fallback
}

func newDocument(opts Options) *sdk.Document {
	return &sdk.Document{ID: opts.ID, TenantID: opts.TenantID, CorpusID: opts.CorpusID, Title: opts.Title}
}

// finishDocument sets the title from the first level-1 heading when Options left it empty.
func finishDocument(doc *sdk.Document) {
	if doc.Title != "" {
		return
	}
	for _, b := range doc.Blocks {
		if b.Kind == sdk.KindHeading && b.Level == 1 {
			doc.Title = b.Text
			return
		}
	}
}

// setMeta sets key in doc.Metadata, creating the map.
func setMeta(doc *sdk.Document, key string, v any) {
	if doc.Metadata == nil {
		doc.Metadata = make(map[string]any)
	}
	doc.Metadata[key] = v
}

// round4 rounds a confidence to 4 decimals so that attributes read cleanly in JSON.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
