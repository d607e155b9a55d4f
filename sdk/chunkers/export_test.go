package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// Windows returns how many windows HeadingAware cuts doc into at size bytes.
func Windows(doc *sdk.Document, size int) int {
	n := 0
	for range headingWindows(doc, size) {
		n++
	}
	return n
}
