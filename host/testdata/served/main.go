// Command served is a well-behaved chunkkit plugin built on sdk/serve, as a plugin author
// would write it, for the host's tests: it serves the tokenizer models "words" (sdk.Words)
// and "runes" (sdk.Runes), and no sentence splitter.
package main

import (
	"fmt"
	"os"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

func main() {
	models := plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}, "runes": sdk.Runes{}})
	if err := serve.TokenCounter(models, serve.WithName("served"), serve.WithVersion("1.2.3")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
