package serve

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// askedRegistry records the models asked of it; panicOn makes Model panic for that name.
type askedRegistry[T any] struct {
	mu      sync.Mutex
	asked   []string
	panicOn string
}

func (r *askedRegistry[T]) Models() []string { return nil }

func (r *askedRegistry[T]) Model(_ context.Context, name string) (T, error) {
	r.mu.Lock()
	r.asked = append(r.asked, name)
	r.mu.Unlock()
	if name == r.panicOn {
		panic("loading " + name)
	}
	var zero T
	return zero, nil
}

// waitAsked returns the sorted models asked of r once it has n, or after a second.
func (r *askedRegistry[T]) waitAsked(n int) []string {
	for deadline := time.Now().Add(time.Second); ; time.Sleep(time.Millisecond) {
		r.mu.Lock()
		got := slices.Sorted(slices.Values(r.asked))
		r.mu.Unlock()
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
	}
}

func TestPreloadAsksEachRegistryForTheModelsTheHostNamed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		value               string
		counters, splitters []string
		warns               bool
	}{
		{name: "no hint asks for nothing", value: ""},
		{name: "tokenizer models go to the counters, sentence models to the splitters",
			value:    `{"tokenizer":["cl100k_base","o200k_base"],"sentence":["punkt:en"]}`,
			counters: []string{"cl100k_base", "o200k_base"}, splitters: []string{"punkt:en"}},
		{name: "the empty name is the default model", value: `{"tokenizer":[""]}`, counters: []string{""}},
		{name: "a kind the plugin does not know is ignored", value: `{"embedder":["x"],"tokenizer":["a"]}`, counters: []string{"a"}},
		{name: "a value that is not the documented JSON is logged and ignored", value: `tokenizer=cl100k_base`, warns: true},
		{name: "a panicking registry is logged, not a crash", value: `{"tokenizer":["boom"]}`, counters: []string{"boom"}, warns: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs syncBuffer
			logger := hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Warn})
			counters := &askedRegistry[sdk.TokenCounter]{panicOn: "boom"}
			splitters := &askedRegistry[sdk.SentenceSplitter]{}
			preload(tt.value, counters, splitters, logger)
			if got := counters.waitAsked(len(tt.counters)); !slices.Equal(got, tt.counters) {
				t.Errorf("counters asked for %q, want %q", got, tt.counters)
			}
			if got := splitters.waitAsked(len(tt.splitters)); !slices.Equal(got, tt.splitters) {
				t.Errorf("splitters asked for %q, want %q", got, tt.splitters)
			}
			for deadline := time.Now().Add(time.Second); tt.warns && logs.String() == "" && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			if got := logs.String(); tt.warns != strings.Contains(got, "[WARN]") {
				t.Errorf("log = %q; want a warning: %t", got, tt.warns)
			}
		})
	}
}

func TestPreloadWithoutARegistryOfAKindAsksNothingOfIt(t *testing.T) {
	t.Parallel()
	counters := &askedRegistry[sdk.TokenCounter]{}
	preload(`{"tokenizer":["a"],"sentence":["b"]}`, counters, nil, hclog.NewNullLogger())
	if got := counters.waitAsked(1); !slices.Equal(got, []string{"a"}) {
		t.Errorf("counters asked for %q, want [a]", got)
	}
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of preload's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var _ plugin.Counters = (*askedRegistry[sdk.TokenCounter])(nil)
