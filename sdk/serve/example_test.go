package serve_test

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

func ExampleCounterMap() {
	// A plugin's main passes this map to serve.TokenCounter.
	models := serve.CounterMap{"words": sdk.Words{}, "runes": sdk.Runes{}}
	fmt.Println(models.Models())

	tc, _ := models.Counter(context.Background(), "words")
	counts, _ := tc.Count(context.Background(), []string{"one two three"})
	fmt.Println(counts)

	_, err := models.Counter(context.Background(), "")
	fmt.Println(err)
	// Output:
	// [runes words]
	// [3]
	// chunkkit: unsupported: no model named and no default; this plugin serves runes, words
}

// loader is a serve.Counters that loads each model on first use, as a plugin whose models are
// files would, and keeps it for later requests. It is safe for concurrent use.
type loader struct {
	mu     sync.Mutex
	loaded map[string]sdk.TokenCounter
}

// Models lists nothing: any model may be asked for, and Counter says whether it exists.
func (l *loader) Models() []string { return nil }

func (l *loader) Counter(ctx context.Context, model string) (sdk.TokenCounter, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if tc, ok := l.loaded[model]; ok {
		return tc, nil
	}
	tc, err := load(ctx, model)
	if err != nil {
		return nil, err
	}
	l.loaded[model] = tc
	return tc, nil
}

// load stands in for reading a vocabulary file.
func load(_ context.Context, model string) (sdk.TokenCounter, error) {
	switch model {
	case "words":
		return sdk.Words{}, nil
	case "runes":
		return sdk.Runes{}, nil
	}
	return nil, fmt.Errorf("%w: model %q; this plugin knows words and runes", sdk.ErrUnsupported, model)
}

func ExampleCounters() {
	l := &loader{loaded: make(map[string]sdk.TokenCounter)}
	// A plugin's main would now call serve.TokenCounter(l, serve.WithName("lazy")).
	var _ serve.Counters = l

	tc, _ := l.Counter(context.Background(), "runes")
	counts, _ := tc.Count(context.Background(), []string{"héllo"})
	fmt.Println(counts)

	_, err := l.Counter(context.Background(), "bpe")
	fmt.Println(errors.Is(err, sdk.ErrUnsupported), err)
	// Output:
	// [5]
	// true chunkkit: unsupported: model "bpe"; this plugin knows words and runes
}
