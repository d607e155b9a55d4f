package serve_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

func ExampleTokenCounter() {
	// A plugin's main. Run by hand, as here, it returns ErrNotLaunched at once; started by a
	// chunkkit host, it serves until the host stops it.
	models := plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}, "runes": sdk.Runes{}})
	err := serve.TokenCounter(models, serve.WithName("example"), serve.WithVersion("1.0.0"))
	if errors.Is(err, serve.ErrNotLaunched) {
		fmt.Println(err)
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Output:
	// This binary is a chunkkit plugin; run it through chunkkit (see docs/plugins.md).
	// chunkkit starts it from a manifest (chunkkit.plugins.json) with the handshake in its environment.
}
