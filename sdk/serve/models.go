package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// Counters is what a tokenizer plugin serves: token counters by model name.
//
// Models lists the models for Info; it may be empty for a plugin that loads models on demand
// (for example from a path). Counter returns the counter for model, the ARG of the spec
// "plugin:NAME:ARG" a user wrote; "" asks for the plugin's default. It is called for every
// request with that request's context, so an implementation that loads models caches them and
// must be safe for concurrent use. An unknown model is an error matching sdk.ErrUnsupported;
// a model that exists but cannot be loaded is one matching sdk.ErrInvalidConfig.
type Counters interface {
	Models() []string
	Counter(ctx context.Context, model string) (sdk.TokenCounter, error)
}

// Splitters is what a sentence plugin serves: sentence splitters by model name, with the
// contract of Counters.
type Splitters interface {
	Models() []string
	Splitter(ctx context.Context, model string) (sdk.SentenceSplitter, error)
}

// CounterMap is Counters for a fixed set of models. The model "" selects the entry with the
// key "" if there is one, and otherwise the only entry of a one-entry map. The map must not
// change while it is served.
type CounterMap map[string]sdk.TokenCounter

// Models returns the map's keys, sorted, without "".
func (m CounterMap) Models() []string { return modelNames(m) }

// Counter returns the counter for model, or an error matching sdk.ErrUnsupported that lists
// the models served.
func (m CounterMap) Counter(_ context.Context, model string) (sdk.TokenCounter, error) {
	return lookup(m, model)
}

// SplitterMap is Splitters for a fixed set of models, with the rules of CounterMap.
type SplitterMap map[string]sdk.SentenceSplitter

// Models returns the map's keys, sorted, without "".
func (m SplitterMap) Models() []string { return modelNames(m) }

// Splitter returns the splitter for model, or an error matching sdk.ErrUnsupported that lists
// the models served.
func (m SplitterMap) Splitter(_ context.Context, model string) (sdk.SentenceSplitter, error) {
	return lookup(m, model)
}

func modelNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return names
}

func lookup[V any](m map[string]V, model string) (V, error) {
	if v, ok := m[model]; ok {
		return v, nil
	}
	if model == "" && len(m) == 1 {
		for _, v := range m {
			return v, nil
		}
	}
	var zero V
	names := modelNames(m)
	if model == "" {
		return zero, fmt.Errorf("%w: no model named and no default; this plugin serves %s", sdk.ErrUnsupported, strings.Join(names, ", "))
	}
	return zero, fmt.Errorf("%w: model %q; this plugin serves %s", sdk.ErrUnsupported, model, strings.Join(names, ", "))
}
