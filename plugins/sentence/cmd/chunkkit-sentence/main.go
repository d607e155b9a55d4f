package main

import (
	"github.com/chunkkit/chunkkit/plugins/sentence"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

// version is what Info reports; release builds set it with -ldflags "-X main.version=...".
var version = "devel"

func main() {
	serve.SentenceSplitter(&sentence.Splitters{}, serve.WithName("sentence"), serve.WithVersion(version))
}
