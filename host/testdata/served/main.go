// Command served is a well-behaved chunkkit plugin built on sdk/serve, as a plugin author
// would write it, for the host's tests: it serves the tokenizer models "words" (sdk.Words)
// and "runes" (sdk.Runes), and no sentence splitter.
package main

import (
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

func main() {
	serve.TokenCounter(serve.CounterMap{"words": sdk.Words{}, "runes": sdk.Runes{}},
		serve.WithName("served"), serve.WithVersion("1.2.3"))
}
