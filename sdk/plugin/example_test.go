package plugin_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

func ExampleMapOf() {
	// A plugin's main passes this registry to serve.TokenCounter.
	models := plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}, "runes": sdk.Runes{}})
	fmt.Println(models.Models())

	tc, _ := models.Model(context.Background(), "words")
	counts, _ := tc.Count(context.Background(), []string{"one two three"})
	fmt.Println(counts)

	_, err := models.Model(context.Background(), "")
	fmt.Println(err)
	// Output:
	// [runes words]
	// [3]
	// chunkkit: unsupported: no model named and no default; this plugin serves runes, words
}

// load stands in for reading a vocabulary file: the models of a plugin that loads them on
// demand.
func load(_ context.Context, model string) (sdk.TokenCounter, error) {
	fmt.Println("loading", model)
	switch model {
	case "words":
		return sdk.Words{}, nil
	case "runes":
		return sdk.Runes{}, nil
	}
	return nil, fmt.Errorf("%w: model %q; this plugin knows words and runes", sdk.ErrUnsupported, model)
}

func ExampleCounterMap() {
	// Models load on first use, once, and stay loaded. A plugin's main would now call
	// serve.TokenCounter(models, serve.WithName("lazy")).
	models := &plugin.CounterMap{Default: "words", Load: load}

	for range 2 {
		tc, _ := models.Model(context.Background(), "runes")
		counts, _ := tc.Count(context.Background(), []string{"héllo"})
		fmt.Println(counts)
	}
	_, err := models.Model(context.Background(), "bpe")
	fmt.Println(errors.Is(err, sdk.ErrUnsupported), err)
	// Output:
	// loading runes
	// [5]
	// [5]
	// loading bpe
	// true chunkkit: unsupported: model "bpe"; this plugin knows words and runes
}
