package pipeline

import (
	"bytes"
	"fmt"
	"iter"
	"path/filepath"
	"strings"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/adapters/ocr"
	"github.com/chunkkit/chunkkit/sdk"
)

// Format names an input format, as --from takes it.
type Format string

// The input formats.
const (
	FormatMarkdown     Format = "md"            // CommonMark with GitHub tables: markdown.Parse
	FormatText         Format = "txt"           // plain text: markdown.ParseText
	FormatDoc2mark     Format = "doc2mark"      // doc2mark's json_content: doc2mark.Parse
	FormatOCRJSON      Format = "ocr-json"      // generic OCR regions: ocr.ReadJSON
	FormatTesseractTSV Format = "tesseract-tsv" // Tesseract TSV: ocr.ReadTSV
	FormatHOCR         Format = "hocr"          // hOCR: ocr.ReadHOCR
)

// formats lists the formats in the order help texts show them, each with the extensions that
// select it. ocr-json has none: ".json" is doc2mark's.
var formats = []struct {
	format Format
	exts   []string
}{
	{FormatMarkdown, []string{".md", ".markdown"}},
	{FormatText, []string{".txt", ".text"}},
	{FormatDoc2mark, []string{".json"}},
	{FormatOCRJSON, nil},
	{FormatTesseractTSV, []string{".tsv"}},
	{FormatHOCR, []string{".hocr"}},
}

// Formats returns every input format, in the order help texts list them.
func Formats() []Format {
	out := make([]Format, len(formats))
	for i, f := range formats {
		out[i] = f.format
	}
	return out
}

// Extensions returns the file extensions that select f (lowercase, with the dot), none for a
// format chosen only by name (ocr-json). The slice is new on every call.
func Extensions(f Format) []string {
	for _, x := range formats {
		if x.format == f {
			return append([]string(nil), x.exts...)
		}
	}
	return nil
}

// FormatHelp lists the formats as a help text does: "md, txt, doc2mark, ocr-json,
// tesseract-tsv or hocr".
func FormatHelp() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f.format)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// FormatOf returns the format that path's extension selects (case-insensitive), and false
// when no format claims it.
func FormatOf(path string) (Format, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, f := range formats {
		for _, e := range f.exts {
			if e == ext {
				return f.format, true
			}
		}
	}
	return "", false
}

// ParseFormat returns the format name names: a format's own name ("md", "ocr-json"), or an
// extension that selects one, without its dot and in any case ("markdown", "MD", "text",
// "tsv", "json" for doc2mark), as a user who writes the format of a file is likely to.
func ParseFormat(name string) (Format, error) {
	for _, f := range formats {
		if string(f.format) == name {
			return f.format, nil
		}
	}
	if f, ok := FormatOf("." + name); ok && name != "" && !strings.ContainsAny(name, `./\`) {
		return f, nil
	}
	return "", fmt.Errorf("pipeline: unknown input format %q (known: %s)", name, FormatHelp())
}

// ParseOptions says who a parsed document is; the fields go to the adapters' Options.
type ParseOptions struct {
	// ID becomes Document.ID and names the document in errors.
	ID string
	// TenantID and CorpusID become the document's.
	TenantID, CorpusID string
	// Title becomes Document.Title; when empty the adapter picks one (its doc says how).
	Title string
	// MinConfidence drops OCR words below it (0–1); other formats ignore it.
	MinConfidence float64
	// InPlace says that src is the parser's to keep, unchanged for as long as the document
	// and its chunks are used, so Markdown and plain text cut their blocks from it instead of
	// a copy (markdown.Options.InPlace); other formats ignore it. Run sets it for the files
	// it reads itself.
	InPlace bool
}

// markdown, doc2mark and ocr return the adapters' options for o.
func (o ParseOptions) markdown() markdown.Options {
	return markdown.Options{ID: o.ID, TenantID: o.TenantID, CorpusID: o.CorpusID, Title: o.Title, InPlace: o.InPlace}
}

func (o ParseOptions) doc2mark() doc2mark.Options {
	return doc2mark.Options{ID: o.ID, TenantID: o.TenantID, CorpusID: o.CorpusID, Title: o.Title}
}

func (o ParseOptions) ocr() ocr.Options {
	return ocr.Options{ID: o.ID, TenantID: o.TenantID, CorpusID: o.CorpusID, Title: o.Title, MinConfidence: o.MinConfidence}
}

// ParseParts reads src in format f a piece at a time, for the formats whose adapter can
// (Markdown: markdown.ParseParts; plain text: markdown.ParseTextParts; doc2mark:
// doc2mark.ParseParts; OCR JSON regions: ocr.ParseJSONParts): the document without its blocks, and its blocks in parts as they are
// parsed. ok is false for the other formats; use Parse. src must not change until parts is
// done.
func ParseParts(src []byte, f Format, o ParseOptions) (doc *sdk.Document, parts iter.Seq2[sdk.DocumentPart, error], ok bool, err error) {
	if g, err := ParseFormat(string(f)); err == nil {
		f = g // "markdown" is md
	}
	switch f {
	case FormatMarkdown:
		doc, parts, err = markdown.ParseParts(src, o.markdown(), 0)
	case FormatText:
		doc, parts, err = markdown.ParseTextParts(src, o.markdown(), 0)
	case FormatDoc2mark:
		doc, parts, err = doc2mark.ParseParts(src, o.doc2mark(), 0)
	case FormatOCRJSON:
		doc, parts, err = ocr.ParseJSONParts(src, o.ocr(), 0)
	default:
		return nil, nil, false, nil
	}
	return doc, parts, true, err
}

// Parse reads src in format f. Errors are the adapter's: they say where the input is bad.
func Parse(src []byte, f Format, o ParseOptions) (*sdk.Document, error) {
	g, err := ParseFormat(string(f))
	if err != nil {
		return nil, err
	}
	switch g {
	case FormatMarkdown:
		return markdown.Parse(src, o.markdown())
	case FormatText:
		return markdown.ParseText(src, o.markdown())
	case FormatDoc2mark:
		return doc2mark.Parse(src, o.doc2mark())
	case FormatOCRJSON:
		return ocr.ReadJSON(bytes.NewReader(src), o.ocr())
	case FormatTesseractTSV:
		return ocr.ParseTSV(src, o.ocr())
	case FormatHOCR:
		return ocr.ParseHOCR(src, o.ocr())
	}
	panic("pipeline: format " + string(g) + " has no parser") // every format of formats has one
}
