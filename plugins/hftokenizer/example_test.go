package hftokenizer_test

import (
	"context"
	"fmt"
	"os"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
)

// GPT-2's tokenizer.json (assembled here from vocabularies in Go modules, as HF's own):
// "<|endoftext|>" in the text is text by default, one token with MatchSpecial.
func Example() {
	dir, err := os.MkdirTemp("", "hftokenizer-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	files, err := reffiles.WriteAssembled(dir) // gpt2.json, bert-base-uncased.json
	if err != nil {
		panic(err)
	}
	tok, err := hftokenizer.Load(files[0].Path)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	ids, _ := tok.Encode("Hello world")
	counts, _ := tok.Count(ctx, []string{"Hello world", "<|endoftext|>"})
	special, _ := tok.MatchSpecial().Count(ctx, []string{"<|endoftext|>"})
	bounds, _ := tok.Boundaries(ctx, []string{"Hello world"})
	fmt.Println(ids, counts, special, bounds)
	// Output: [15496 995] [2 7] [1] [[5 11]]
}
