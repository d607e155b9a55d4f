package main

import (
	"fmt"
	"os"

	"github.com/chunkkit/chunkkit/plugins/sentence"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

// version is what Info reports; release builds set it with -ldflags "-X main.version=...".
var version = "devel"

func main() {
	if err := serve.SentenceSplitter(sentence.NewSplitters(), serve.WithName("sentence"), serve.WithVersion(version)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
