package plugin

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chunkkit/chunkkit/sdk"
)

// Map is a Registry that loads each model the first time it is asked for, once however many
// requests ask at the same time, and keeps it for the Map's lifetime. Set its fields before
// the first call and leave them alone afterwards; a Map must not be copied after first use.
//
// A request for name resolves it to a key: "" becomes Default, then Key maps it (so that two
// spellings of one model share one load). The first request for a key calls Load; requests
// for the same key that arrive while it runs wait for it. Load runs with the first request's
// context values but not its cancellation, so one caller giving up does not waste a load that
// others wait for; each caller stops waiting when its own context ends. A load that fails is
// not kept: the next request tries again (a vocabulary file may be fixed meanwhile). A panic in
// Load is an error matching sdk.ErrInvalidConfig, not a crashed plugin.
type Map[T any] struct {
	// Names is what Models reports, in order. Nil lists nothing: the plugin loads models on
	// demand, and Load says whether one exists.
	Names []string
	// Default is the model "" selects. "" leaves it "": Key and Load then decide what a
	// request without a model means.
	Default string
	// Key returns the key under which name's model is kept, or an error (matching
	// sdk.ErrUnsupported for a name that can never exist) returned to the caller as is. Nil
	// keys each model by its name.
	Key func(name string) (string, error)
	// Load builds the model for key. It must be set.
	Load func(ctx context.Context, key string) (T, error)

	mu      sync.Mutex
	entries map[string]*entry[T]
}

// CounterMap is a Map of token counters: a Counters.
type CounterMap = Map[sdk.TokenCounter]

// SplitterMap is a Map of sentence splitters: a Splitters.
type SplitterMap = Map[sdk.SentenceSplitter]

// entry is one key's load: done is closed once v and err are set.
type entry[T any] struct {
	done chan struct{}
	v    T
	err  error
}

// Models returns a copy of m.Names.
func (m *Map[T]) Models() []string { return slices.Clone(m.Names) }

// Model returns the model called name, loading it on first use (see Map).
func (m *Map[T]) Model(ctx context.Context, name string) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if name == "" {
		name = m.Default
	}
	key := name
	if m.Key != nil {
		var err error
		if key, err = m.Key(name); err != nil {
			return zero, err
		}
	}
	if m.Load == nil {
		return zero, fmt.Errorf("plugin: Map without a Load function: %w", sdk.ErrInvalidConfig)
	}
	m.mu.Lock()
	e := m.entries[key]
	if e == nil {
		if m.entries == nil {
			m.entries = make(map[string]*entry[T])
		}
		e = &entry[T]{done: make(chan struct{})}
		m.entries[key] = e
		go m.load(context.WithoutCancel(ctx), key, e)
	}
	m.mu.Unlock()
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// load runs Load for key into e, forgets e if the load failed, and marks e done.
func (m *Map[T]) load(ctx context.Context, key string, e *entry[T]) {
	defer close(e.done)
	defer func() {
		if r := recover(); r != nil {
			e.err = fmt.Errorf("plugin: loading model %q panicked: %v: %w", key, r, sdk.ErrInvalidConfig)
		}
		if e.err != nil {
			m.mu.Lock()
			if m.entries[key] == e {
				delete(m.entries, key)
			}
			m.mu.Unlock()
		}
	}()
	e.v, e.err = m.Load(ctx, key)
}

// MapOf returns a Map that serves the models of models, which it must own from then on. Models
// lists its keys, sorted, without "". The model "" selects the entry with the key "" if there
// is one, and otherwise the only entry of a one-entry map; an unknown model is an error
// matching sdk.ErrUnsupported that lists the models served.
func MapOf[T any](models map[string]T) *Map[T] {
	names := make([]string, 0, len(models))
	for k := range models {
		if k != "" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	def := ""
	if _, ok := models[""]; !ok && len(models) == 1 {
		def = names[0]
	}
	return &Map[T]{
		Names:   names,
		Default: def,
		Load: func(_ context.Context, name string) (T, error) {
			if v, ok := models[name]; ok {
				return v, nil
			}
			var zero T
			if name == "" {
				return zero, fmt.Errorf("%w: no model named and no default; this plugin serves %s", sdk.ErrUnsupported, strings.Join(names, ", "))
			}
			return zero, fmt.Errorf("%w: model %q; this plugin serves %s", sdk.ErrUnsupported, name, strings.Join(names, ", "))
		},
	}
}
