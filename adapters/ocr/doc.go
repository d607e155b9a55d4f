// Package ocr turns OCR output into an sdk.Document, so that text read from page images flows
// through the same chunkers as native text and keeps where each piece came from.
//
// Three inputs are read:
//
//   - FromResult and ReadJSON take a generic Result: regions of text with a bounding box, a
//     confidence between 0 and 1, the engine's name, an optional page and an optional kind
//     hint. Each region becomes one block, in the order given.
//   - ReadTSV takes Tesseract's TSV output (`tesseract page.png out tsv`), one page or many.
//   - ReadHOCR takes hOCR (`tesseract page.png out hocr`), one page or many.
//
// Read picks the reader by format name (FormatJSON, FormatTSV, FormatHOCR), as the command
// line's --from flag does, and FormatOf guesses the format from a file name.
//
// The Tesseract readers keep Tesseract's grouping of words into lines, paragraphs and blocks,
// put blocks in reading order by position, drop blank "words" (rules and separators), find
// headings by line height relative to the page's body text, and turn blocks whose rows are
// split by wide column gaps into tables rendered as GitHub pipe tables. Words below
// Options.MinConfidence are dropped and recorded, never silently lost.
//
// Every block carries its provenance in Block.Attrs: AttrEngine, AttrConfidence, AttrBBox and
// AttrPage (also in Block.Page). Bad input gives an *sdk.InputError that matches
// sdk.ErrInvalidInput and names the line (and, for hOCR, the element) and what is wrong;
// invalid UTF-8 is reported with its byte offset. No input makes a reader panic.
//
// docs/reference/ocr.md describes the JSON form, the TSV and hOCR mapping and the options.
package ocr
