package main

import (
	"fmt"
	"os"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

// models are what the plugin serves: the model "words" counts words, "runes" counts runes.
func models() *plugin.CounterMap {
	return plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}, "runes": sdk.Runes{}})
}

func main() {
	err := serve.TokenCounter(models(), serve.WithName("example"), serve.WithVersion("1.0.0"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
