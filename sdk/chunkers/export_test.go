package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// Windows returns how many windows HeadingAware cuts doc into at size bytes.
func Windows(doc *sdk.Document, size int) int { return countWindows(doc, size) }
