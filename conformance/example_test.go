package conformance_test

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
)

// A chunk that drops the final full stop loses text and says it is one token too many.
func ExampleCheckChunks() {
	doc := &sdk.Document{ID: "greeting", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: "Hello, world."}}}
	req := conformance.Request()
	chunks := []sdk.Chunk{{
		Kind:         sdk.ChunkBody,
		Content:      "Hello, world",
		Start:        0,
		End:          12,
		TokenCount:   3,
		ContentTypes: []string{"paragraph"},
		Metadata:     map[string]any{sdk.MetaKind: "body"},
	}}
	sdk.Stamp(chunks, req, doc)

	err := conformance.CheckChunks(context.Background(), doc, req, chunks, conformance.Options{Counter: sdk.Words{}, MaxTokens: 16})
	fmt.Println(err)
	// Output:
	// conformance: document "greeting": 2 violations
	// 	chunk 0: token count: TokenCount is 3, but the counter counts 2 tokens in EmbedText
	// 	nothing lost: 1 non-space bytes of the canonical text are in no chunk, the first at byte 12: "."
}

// A fuzz target builds a document from the fuzzer's input, chunks it and checks the result:
// CheckResult accepts an invalid document only when the chunker rejects it.
func ExampleCheckResult() {
	doc := &sdk.Document{ID: "fuzz", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: "ok \xff bad"}}}
	req := conformance.Request()
	opts := conformance.Options{Counter: sdk.Runes{}}

	// A chunker that validates its input rejects the document...
	err := doc.Validate()
	fmt.Println(conformance.CheckResult(context.Background(), doc, req, nil, err, opts))
	// ...and one that does not is caught.
	fmt.Println(conformance.CheckResult(context.Background(), doc, req, nil, nil, opts))
	// Output:
	// <nil>
	// conformance: document "fuzz": Chunk returned no error for an invalid document (chunkkit: invalid input: document "fuzz" block 0 field text at byte 3: invalid UTF-8)
}
