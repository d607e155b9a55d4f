package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// Windows returns how many windows HeadingAware cuts doc into at size bytes.
func Windows(doc *sdk.Document, size int) int { return countWindows(doc, size, false) }

// CutParts returns the parts splitLarge cuts a large block's text into at size bytes a part.
func CutParts(text string, size int) []string { return cutParts(text, size) }

// CutLineParts returns the parts splitLarge cuts a large table or code block's text, whose
// header takes hdr bytes, into at size bytes a part.
func CutLineParts(text string, size, hdr int) []string { return cutLineParts(text, size, hdr) }

// TextBytes returns the bytes of the blocks' texts, their separators left out.
func TextBytes(blocks []sdk.Block) int { return textBytes(blocks) }
