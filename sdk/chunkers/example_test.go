package chunkers_test

import (
	"context"
	"fmt"
	"log"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func ExampleHeadingAware() {
	src := []byte("# Guide\n\nChunkers cut documents. They keep headings.\n\n## Install\n\nRun go get.\n")
	doc, err := markdown.Parse(src, markdown.Options{ID: "guide.md"})
	if err != nil {
		log.Fatal(err)
	}
	chunker := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 64}}
	chunks, err := chunker.Chunk(context.Background(), sdk.Request{TenantID: "acme"}, doc)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range chunks {
		fmt.Printf("%s %-7s parent=%-10q %d tokens %q\n", c.ID, c.Kind, c.ParentID, c.TokenCount, c.Content)
	}
	// Output:
	// guide.md#0 heading parent=""         1 tokens "Guide"
	// guide.md#1 body    parent="guide.md#0" 6 tokens "Chunkers cut documents. They keep headings."
	// guide.md#2 heading parent="guide.md#0" 1 tokens "Install"
	// guide.md#3 body    parent="guide.md#2" 3 tokens "Run go get."
}
