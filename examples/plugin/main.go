package main

import (
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

func main() {
	serve.TokenCounter(
		serve.CounterMap{"words": sdk.Words{}, "runes": sdk.Runes{}},
		serve.WithName("example"),
		serve.WithVersion("1.0.0"),
	)
}
