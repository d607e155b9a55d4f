package tiktoken

import (
	"context"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// DefaultModel is the model NewCounters serves when asked for "": cl100k_base on the Backtrack
// backend, the default.
const DefaultModel = "cl100k_base"

// NewCounters returns what the tiktoken plugin serves: a registry that builds one shared Counter
// per encoding and backend on first use ("cl100k_base" and "cl100k_base@backtrack" share one) and
// keeps it, about 80 MB of heap for all eight. Models lists Models(); "" means DefaultModel; an
// unknown model is ParseModel's error, matching sdk.ErrUnsupported. Building a Counter is not
// interruptible: a caller that gives up stops waiting, and the Counter is kept for the next.
func NewCounters() *plugin.CounterMap {
	return &plugin.CounterMap{
		Names:   Models(),
		Default: DefaultModel,
		Key: func(model string) (string, error) {
			enc, backend, err := ParseModel(model)
			if err != nil {
				return "", err
			}
			return enc + backendSep + string(backend), nil
		},
		Load: func(_ context.Context, key string) (sdk.TokenCounter, error) {
			enc, backend, err := ParseModel(key)
			if err != nil {
				return nil, err
			}
			return New(enc, backend)
		},
	}
}
