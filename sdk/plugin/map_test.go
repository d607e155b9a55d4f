package plugin_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

func TestMapOf(t *testing.T) {
	t.Parallel()
	words, runes := sdk.Words{}, sdk.Runes{}
	tests := []struct {
		name    string
		m       map[string]sdk.TokenCounter
		model   string
		want    sdk.TokenCounter
		wantErr string // "" means no error; otherwise a fragment of an ErrUnsupported error
	}{
		{name: "a named model is served", m: map[string]sdk.TokenCounter{"words": words, "runes": runes}, model: "runes", want: runes},
		{name: "the only model is the default", m: map[string]sdk.TokenCounter{"words": words}, model: "", want: words},
		{name: "an explicit default wins", m: map[string]sdk.TokenCounter{"words": words, "runes": runes, "": runes}, model: "", want: runes},
		{name: "several models and no default need a name", m: map[string]sdk.TokenCounter{"words": words, "runes": runes}, model: "", wantErr: "no model named and no default; this plugin serves runes, words"},
		{name: "an unknown model lists the models served", m: map[string]sdk.TokenCounter{"words": words}, model: "cl100k_base", wantErr: `model "cl100k_base"; this plugin serves words`},
		{name: "an empty map serves nothing", m: map[string]sdk.TokenCounter{}, model: "", wantErr: "no model named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := plugin.MapOf(tt.m).Model(t.Context(), tt.model)
			if tt.wantErr != "" {
				if !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Model(%q) error = %v, want one matching sdk.ErrUnsupported containing %q", tt.model, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Model(%q): %v", tt.model, err)
			}
			if got != tt.want {
				t.Errorf("Model(%q) = %T, want %T", tt.model, got, tt.want)
			}
		})
	}
}

func TestMapOfListsItsKeysSortedWithoutTheDefaultKey(t *testing.T) {
	t.Parallel()
	m := plugin.MapOf(map[string]sdk.TokenCounter{"o200k_base": sdk.Words{}, "cl100k_base": sdk.Words{}, "": sdk.Words{}})
	if diff := cmp.Diff([]string{"cl100k_base", "o200k_base"}, m.Models()); diff != "" {
		t.Errorf("Models (-want +got):\n%s", diff)
	}
	m.Models()[0] = "changed"
	if m.Models()[0] != "cl100k_base" {
		t.Errorf("Models returned the Map's own slice: a caller's change showed through")
	}
}

// counting is a Load that counts its calls per key and can be held until released.
type counting struct {
	mu      sync.Mutex
	calls   map[string]int
	release chan struct{} // nil: never block
	fail    atomic.Int32  // the next fail loads fail
}

func (c *counting) load(_ context.Context, key string) (sdk.TokenCounter, error) {
	c.mu.Lock()
	if c.calls == nil {
		c.calls = make(map[string]int)
	}
	c.calls[key]++
	c.mu.Unlock()
	if c.release != nil {
		<-c.release
	}
	if c.fail.Add(-1) >= 0 {
		return nil, fmt.Errorf("vocabulary file %s unreadable: %w", key, sdk.ErrInvalidConfig)
	}
	return sdk.Words{}, nil
}

func (c *counting) callsOf(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[key]
}

func TestConcurrentRequestsForOneModelShareOneLoad(t *testing.T) {
	t.Parallel()
	c := &counting{release: make(chan struct{})}
	m := &plugin.CounterMap{Load: c.load}
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { _, errs[i] = m.Model(t.Context(), "big") })
	}
	time.Sleep(20 * time.Millisecond) // let them all find the load running
	close(c.release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("request %d: %v", i, err)
		}
	}
	if _, err := m.Model(t.Context(), "big"); err != nil {
		t.Fatal(err)
	}
	if got := c.callsOf("big"); got != 1 {
		t.Errorf("Load ran %d times for one model, want 1", got)
	}
}

func TestKeySharesOneLoadBetweenSpellingsAndDefaultNamesOne(t *testing.T) {
	t.Parallel()
	c := &counting{}
	m := &plugin.CounterMap{
		Names:   []string{"cl100k_base", "cl100k_base@fast"},
		Default: "cl100k_base",
		Key: func(name string) (string, error) {
			enc, _, _ := strings.Cut(name, "@")
			if enc != "cl100k_base" {
				return "", fmt.Errorf("%w: encoding %q", sdk.ErrUnsupported, enc)
			}
			return enc, nil
		},
		Load: c.load,
	}
	for _, name := range []string{"", "cl100k_base", "cl100k_base@fast"} {
		if _, err := m.Model(t.Context(), name); err != nil {
			t.Fatalf("Model(%q): %v", name, err)
		}
	}
	if got := c.callsOf("cl100k_base"); got != 1 {
		t.Errorf("Load ran %d times for three spellings of one key, want 1", got)
	}
	if _, err := m.Model(t.Context(), "p50k_base"); !errors.Is(err, sdk.ErrUnsupported) || c.callsOf("p50k_base") != 0 {
		t.Errorf("Model(p50k_base) = %v after %d loads, want Key's ErrUnsupported and no load", err, c.callsOf("p50k_base"))
	}
}

func TestAFailedLoadIsTriedAgainOnTheNextRequest(t *testing.T) {
	t.Parallel()
	c := &counting{}
	c.fail.Store(1)
	m := &plugin.CounterMap{Load: c.load}
	if _, err := m.Model(t.Context(), "v.json"); !errors.Is(err, sdk.ErrInvalidConfig) {
		t.Fatalf("first Model = %v, want the load's ErrInvalidConfig", err)
	}
	if _, err := m.Model(t.Context(), "v.json"); err != nil {
		t.Fatalf("second Model = %v, want the retried load to succeed", err)
	}
	if _, err := m.Model(t.Context(), "v.json"); err != nil {
		t.Fatal(err)
	}
	if got := c.callsOf("v.json"); got != 2 {
		t.Errorf("Load ran %d times, want 2 (one failure, one success kept)", got)
	}
}

func TestAPanickingLoadIsAnErrorNotACrash(t *testing.T) {
	t.Parallel()
	m := &plugin.CounterMap{Load: func(context.Context, string) (sdk.TokenCounter, error) { panic("corrupt merges") }}
	_, err := m.Model(t.Context(), "bpe")
	if !errors.Is(err, sdk.ErrInvalidConfig) || !strings.Contains(err.Error(), `loading model "bpe" panicked: corrupt merges`) {
		t.Errorf("Model = %v, want an ErrInvalidConfig naming the model and the panic", err)
	}
}

func TestAWaiterStopsAtItsOwnDeadlineWhileTheLoadGoesOn(t *testing.T) {
	t.Parallel()
	c := &counting{release: make(chan struct{})}
	m := &plugin.CounterMap{Load: c.load}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if _, err := m.Model(ctx, "slow"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Model with a short deadline = %v, want context.DeadlineExceeded", err)
	}
	close(c.release)
	if _, err := m.Model(t.Context(), "slow"); err != nil {
		t.Fatal(err)
	}
	if got := c.callsOf("slow"); got != 1 {
		t.Errorf("Load ran %d times, want 1: the load the impatient caller started is the one kept", got)
	}
	done, cancelDone := context.WithCancel(t.Context())
	cancelDone()
	if _, err := m.Model(done, "slow"); !errors.Is(err, context.Canceled) {
		t.Errorf("Model with a cancelled context = %v, want context.Canceled even for a loaded model", err)
	}
}

func TestAMapWithoutLoadIsAConfigurationError(t *testing.T) {
	t.Parallel()
	var m plugin.SplitterMap
	if _, err := m.Model(t.Context(), "x"); !errors.Is(err, sdk.ErrInvalidConfig) {
		t.Errorf("Model on a zero Map = %v, want sdk.ErrInvalidConfig", err)
	}
}

func TestParseKind(t *testing.T) {
	t.Parallel()
	for _, k := range plugin.Kinds() {
		if got, err := plugin.ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
	if _, err := plugin.ParseKind("embedder"); err == nil || !strings.Contains(err.Error(), `unknown kind "embedder"; want "tokenizer" or "sentence"`) {
		t.Errorf("ParseKind(embedder) = %v, want an error naming it and the kinds", err)
	}
}
