package main

import (
	"github.com/chunkkit/chunkkit/plugins/hftokenizer"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

// version is what Info reports; release builds set it with -ldflags "-X main.version=...".
var version = "devel"

func main() {
	serve.TokenCounter(&hftokenizer.Counters{}, serve.WithName("hftokenizer"), serve.WithVersion(version))
}
