// Command chunkkit-hftokenizer is the hftokenizer plugin: it serves the token counts of any
// HuggingFace tokenizer.json, named by path in the spec hf:/path/to/tokenizer.json. Hosts
// start it; run by hand it says so and exits.
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
