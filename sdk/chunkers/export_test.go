package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// Windows returns how many windows HeadingAware cuts doc into at size bytes.
func Windows(doc *sdk.Document, size int) int { return countWindows(doc, size) }

// CutParts returns the parts splitLarge cuts a large block's text into at size bytes a part.
func CutParts(text string, size int) []string { return cutParts(text, size) }
