// Command ocr-fixtures renders the OCR adapter's test pages and runs Tesseract on them.
//
// For every NAME.truth.json in the fixture directory (adapters/ocr/testdata by default) it
// lays the ground-truth text out on a page at 300 dpi in DejaVu Sans, renders it with
// ImageMagick's convert into NAME.png (grayscale; rotated and speckled when the truth asks for
// a scan), and runs `tesseract NAME.png NAME -l LANG tsv hocr`, which writes NAME.tsv and
// NAME.hocr. It then runs Tesseract once more on multipage.txt, a list file of the English
// pages, to make the two-page multipage.tsv and multipage.hocr.
//
// The ground truth is the input: write or change a NAME.truth.json and run `make
// ocr-fixtures` (tools/ocr-fixtures/make.sh), which finds ImageMagick and Tesseract and runs
// this command. Rendering is deterministic (fixed noise seed, no PNG time chunks), so a
// second run changes nothing unless ImageMagick, Tesseract or the fonts changed.
//
// Usage:
//
//	go run ./tools/ocr-fixtures [-dir DIR] [-convert PATH] [-tesseract PATH] [-fonts DIR]
package main
