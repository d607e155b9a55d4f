package pipeline

import (
	"io"
	"os"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/adapters/ocr"
)

// sniffLimit is how much of a file notFormat reads: a Tesseract TSV's first line, or the
// top-level fields of a JSON object up to its "content", are well within it.
const sniffLimit = 64 << 10

// notFormat says why the file at path is plainly not in format f, for the formats whose
// extension files of other kinds share (doc2mark.NotContent for ".json", ocr.NotTSV for
// ".tsv"), from its first 64 KiB. It returns "" when the file may be in f, when f is another
// format, and when the file cannot be read: then the parser reads it and says what is wrong.
func notFormat(path string, f Format) string {
	var not func([]byte) string
	switch f {
	case FormatDoc2mark:
		not = doc2mark.NotContent
	case FormatTesseractTSV:
		not = ocr.NotTSV
	default:
		return ""
	}
	file, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer file.Close()
	head, err := io.ReadAll(io.LimitReader(file, sniffLimit))
	if err != nil {
		return ""
	}
	return not(head)
}
