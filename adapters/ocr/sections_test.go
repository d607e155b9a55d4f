package ocr

import (
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func TestSectionsOnFixtures(t *testing.T) {
	t.Parallel()
	counter := sdk.Words{}
	checkChunkers(t, map[string]func() sdk.Chunker{
		"Sections with a 16-word budget": func() sdk.Chunker {
			return &chunkers.Sections{Config: chunkers.Config{Counter: counter, MaxTokens: 16, OverlapTokens: 4}}
		},
		"Sections with the default budget": func() sdk.Chunker { return &chunkers.Sections{Config: chunkers.Config{Counter: counter}} },
	})
}
