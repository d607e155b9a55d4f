package chunkers_test

import (
	"context"
	"fmt"
	"log"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// The default HeadingAware folds each heading into its section's first chunk, puts the
// heading path (and the document's title) into Context, and embeds Context and Content
// joined; the budget counts the joined text, and a context too long for a quarter of the
// budget loses its outer parts.
func ExampleHeadingAware() {
	src := []byte("# File system\n\n## Promises API\n\n" +
		"The promises API returns promises. It works on files and directories alike. Each call takes a path.\n\n" +
		"### fsPromises.access(path)\n\nTests the permissions for the file.\n")
	doc, err := markdown.Parse(src, markdown.Options{ID: "fs.md"})
	if err != nil {
		log.Fatal(err)
	}
	chunker := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 16, OverlapTokens: chunkers.NoOverlap}}
	chunks, err := chunker.Chunk(context.Background(), sdk.Request{TenantID: "acme"}, doc)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range chunks {
		fmt.Printf("%s parent=%q %d tokens, content_hash %s…\n  context %q\n  embed   %q\n", c.ID, c.ParentID, c.TokenCount, c.ContentHash[:12], c.Context, c.EmbedText)
	}
	// Output:
	// fs.md#0 parent="" 16 tokens, content_hash 3bcf300ded90…
	//   context ""
	//   embed   "File system\n\nPromises API\n\nThe promises API returns promises. It works on files and directories alike."
	// fs.md#1 parent="fs.md#0" 7 tokens, content_hash b409ae3a38c0…
	//   context "Promises API"
	//   embed   "Promises API\n\nEach call takes a path."
	// fs.md#2 parent="fs.md#0" 9 tokens, content_hash 9bc5bb7272c6…
	//   context "Promises API"
	//   embed   "Promises API\n\nfsPromises.access(path)\n\nTests the permissions for the file."
}

// A large Markdown file is parsed a piece at a time and chunked a window at a time, so that
// neither the whole document nor all its chunks are held: markdown.ParseParts gives the
// document without its blocks and the blocks in parts, and ChunkParts yields each chunk as
// its window is done, the same chunks as Chunk of the whole document. Pieces and windows are
// 1 MiB by default; here they are as small as can be, so each level-1 section is one.
func ExampleHeadingAware_ChunkParts() {
	src := []byte("# Streams\n\nA stream is data in pieces.\n\n## Readable\n\nData comes out.\n\n" +
		"# Buffers\n\nA buffer is bytes.\n")
	doc, parts, err := markdown.ParseParts(src, markdown.Options{ID: "api.md"}, 1)
	if err != nil {
		log.Fatal(err)
	}
	chunker := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 16}, WindowBytes: 1}
	for c, err := range chunker.ChunkParts(context.Background(), sdk.Request{}, doc, parts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s lines %d-%d %q\n", c.ID, c.LineStart, c.LineEnd, c.EmbedText)
	}
	// Output:
	// api.md#0 lines 1-3 "Streams\n\nA stream is data in pieces."
	// api.md#1 lines 5-7 "Streams\n\nReadable\n\nData comes out."
	// api.md#2 lines 9-11 "Streams\n\nBuffers\n\nA buffer is bytes."
}
