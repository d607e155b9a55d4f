package host_test

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/host"
)

// A Host resolves specs to counters. Built-in specs need no plugin; "tiktoken:cl100k_base"
// would start the tiktoken plugin listed in a discovered manifest.
func ExampleHost_TokenCounter() {
	h := host.New(nil, host.Options{}) // or host.Open: discover manifests first
	defer h.Close()

	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "words")
	if err != nil {
		fmt.Println(err)
		return
	}
	counts, err := tc.Count(ctx, []string{"Chunks come from documents.", ""})
	fmt.Println(counts, err)

	_, err = h.TokenCounter(ctx, "tiktoken:cl100k_base")
	fmt.Println(err != nil)
	// Output:
	// [4 0] <nil>
	// true
}

func ExampleParseSpec() {
	for _, s := range []string{"tiktoken:cl100k_base", "hf:/models/tokenizer.json", "plugin:sentence:punkt:en", "words"} {
		sp, err := host.ParseSpec(s)
		fmt.Printf("%-28s plugin=%q arg=%q builtin=%q %v\n", s, sp.Plugin, sp.Arg, sp.Builtin, err)
	}
	// Output:
	// tiktoken:cl100k_base         plugin="tiktoken" arg="cl100k_base" builtin="" <nil>
	// hf:/models/tokenizer.json    plugin="hftokenizer" arg="/models/tokenizer.json" builtin="" <nil>
	// plugin:sentence:punkt:en     plugin="sentence" arg="punkt:en" builtin="" <nil>
	// words                        plugin="" arg="" builtin="words" <nil>
}
