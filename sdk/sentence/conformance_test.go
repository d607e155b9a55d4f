package sentence_test

import (
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk/sentence"
)

func TestSplitterKeepsTheSplitterLaws(t *testing.T) {
	t.Parallel()
	conformance.SentenceSplitter(t, sentence.Splitter{})
}
