package ocr

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// The input formats Read knows, named as the command line's --from flag names them.
const (
	FormatJSON = "ocr-json"      // the generic Result JSON form: ReadJSON
	FormatTSV  = "tesseract-tsv" // Tesseract's TSV output: ReadTSV
	FormatHOCR = "hocr"          // hOCR: ReadHOCR
)

// Formats lists the formats Read knows.
func Formats() []string { return []string{FormatJSON, FormatTSV, FormatHOCR} }

// FormatOf returns the format a file name's extension implies: FormatTSV for ".tsv",
// FormatHOCR for ".hocr", and "" for any other, ".json" included (it may be another JSON
// format, so the caller must say).
func FormatOf(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".tsv":
		return FormatTSV
	case ".hocr":
		return FormatHOCR
	}
	return ""
}

// Read reads OCR output in the named format from r with ReadJSON, ReadTSV or ReadHOCR, and
// returns what that reader returns. An unknown format gives an error matching
// sdk.ErrUnsupported.
func Read(r io.Reader, format string, opts Options) (*sdk.Document, error) {
	switch format {
	case FormatJSON:
		return ReadJSON(r, opts)
	case FormatTSV:
		return ReadTSV(r, opts)
	case FormatHOCR:
		return ReadHOCR(r, opts)
	}
	return nil, fmt.Errorf("%w: ocr: unknown format %q (known: %s)", sdk.ErrUnsupported, format, strings.Join(Formats(), ", "))
}
