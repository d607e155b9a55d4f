package pluginclient

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/internal/pluginserver"
	"github.com/chunkkit/chunkkit/internal/protocol/sentencev1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

func wordsPlugin() pluginserver.Server {
	return pluginserver.Server{
		Name:    "fake",
		Version: "0.1.0",
		Counters: counterMap(map[string]sdk.TokenCounter{
			"words":       sdk.Words{},
			"runes":       sdk.Runes{},
			"invalid":     failing{sdk.ErrInvalidInput},
			"config":      failing{sdk.ErrInvalidConfig},
			"unsupported": failing{sdk.ErrUnsupported},
			"unavailable": failing{sdk.ErrUnavailable},
			"plain":       failing{errors.New("disk on fire")},
			"lying":       lying{},
			"panicking":   panicking{},
		}),
	}
}

func TestHandshakeAgreesWithTheProtocolPackages(t *testing.T) {
	t.Parallel()
	h := Handshake()
	for pkg, v := range map[string]int{"tokenizerv1": tokenizerv1.ProtocolVersion, "sentencev1": sentencev1.ProtocolVersion} {
		if h.ProtocolVersion != uint(v) {
			t.Errorf("handshake protocol version %d, %s.ProtocolVersion %d: they must agree", h.ProtocolVersion, pkg, v)
		}
	}
	if h.MagicCookieKey != "CHUNKKIT_PLUGIN" || h.MagicCookieValue == "" {
		t.Errorf("handshake cookie %q=%q, want CHUNKKIT_PLUGIN and a value", h.MagicCookieKey, h.MagicCookieValue)
	}
	if s := pluginserver.Handshake(); s != h {
		t.Errorf("the plugin side's handshake %+v differs from the host's %+v", s, h)
	}
	for side, sets := range map[string]map[int]goplugin.PluginSet{"host": VersionedPlugins("x"), "plugin": pluginserver.VersionedPlugins(pluginserver.Server{})} {
		for _, k := range plugin.Kinds() {
			if _, ok := sets[plugin.ProtocolVersion][string(k)]; !ok {
				t.Errorf("the %s's plugin set %d lacks %q", side, plugin.ProtocolVersion, k)
			}
		}
	}
}

func TestCountAndBoundariesRoundTrip(t *testing.T) {
	t.Parallel()
	tc := goPluginConn(t, wordsPlugin(), plugin.KindTokenizer).(*TokenizerClient)
	tests := []struct {
		name  string
		model string
		texts []string
	}{
		{name: "no texts give no answers", model: "words", texts: []string{}},
		{name: "the empty text counts zero", model: "words", texts: []string{""}},
		{name: "words are counted per text in order", model: "words", texts: []string{"one two three", "  four  ", "", "five"}},
		{name: "the default model is the plugin's choice", model: "", texts: []string{"one two"}},
		{name: "multi-byte runes keep byte offsets", model: "runes", texts: []string{"héllo wörld", "日本語"}},
		{name: "special-token text is ordinary text", model: "words", texts: []string{"a <|endoftext|> b"}},
		{name: "invalid UTF-8 crosses the wire byte for byte", model: "runes", texts: []string{"a\xffb\xc3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			want, _ := wordsPlugin().Counters.Model(ctx, tt.model)
			c := tc.WithModel(tt.model)
			wantCounts, _ := want.Count(ctx, tt.texts)
			gotCounts, err := c.Count(ctx, tt.texts)
			if err != nil {
				t.Fatalf("Count: %v", err)
			}
			if diff := cmp.Diff(wantCounts, gotCounts); diff != "" {
				t.Errorf("Count(%q) (-want +got):\n%s", tt.texts, diff)
			}
			wantBounds, _ := want.Boundaries(ctx, tt.texts)
			gotBounds, err := c.Boundaries(ctx, tt.texts)
			if err != nil {
				t.Fatalf("Boundaries: %v", err)
			}
			if diff := cmp.Diff(wantBounds, gotBounds); diff != "" {
				t.Errorf("Boundaries(%q) (-want +got):\n%s", tt.texts, diff)
			}
		})
	}
}

func TestInfoDescribesThePlugin(t *testing.T) {
	t.Parallel()
	tc := goPluginConn(t, wordsPlugin(), plugin.KindTokenizer).(*TokenizerClient)
	got, err := tc.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := plugin.Info{
		Name:            "fake",
		Version:         "0.1.0",
		Models:          []string{"config", "invalid", "lying", "panicking", "plain", "runes", "unavailable", "unsupported", "words"},
		ProtocolVersion: "1.2",
		Kinds:           []plugin.Kind{plugin.KindTokenizer},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
}

func TestErrorsCrossTheWireAsSentinels(t *testing.T) {
	t.Parallel()
	tc := goPluginConn(t, wordsPlugin(), plugin.KindTokenizer).(*TokenizerClient)
	tests := []struct {
		name    string
		model   string
		want    []string // sentinels the error matches
		message []string // fragments the message contains
	}{
		{name: "invalid input stays invalid input", model: "invalid", want: []string{sdk.ErrInvalidInput.Error()}, message: []string{`plugin "fake" model "invalid"`}},
		{name: "invalid configuration stays invalid configuration", model: "config", want: []string{sdk.ErrInvalidConfig.Error()}},
		{name: "unsupported stays unsupported", model: "unsupported", want: []string{sdk.ErrUnsupported.Error()}},
		{name: "an unknown model is unsupported and names the models served", model: "p50k_base", want: []string{sdk.ErrUnsupported.Error()}, message: []string{`model "p50k_base"`, "serves config, invalid"}},
		{name: "unavailable stays unavailable", model: "unavailable", want: []string{sdk.ErrUnavailable.Error()}},
		{name: "an unclassified error keeps its message and matches no sentinel", model: "plain", message: []string{"disk on fire"}},
		{name: "a wrong number of counts is a bad response", model: "lying", want: []string{sdk.ErrBadResponse.Error()}, message: []string{"counts for"}},
		{name: "a panic in the plugin is a bad response, not a crash", model: "panicking", want: []string{sdk.ErrBadResponse.Error()}, message: []string{"panic in Count", "index out of range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tc.WithModel(tt.model).Count(t.Context(), []string{"a b", "c"})
			if err == nil {
				t.Fatal("Count succeeded, want an error")
			}
			if diff := cmp.Diff(tt.want, matched(err)); diff != "" {
				t.Errorf("sentinels matched by %q (-want +got):\n%s", err, diff)
			}
			for _, m := range append(tt.message, `plugin "fake"`, "count: ") {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q lacks %q", err, m)
				}
			}
		})
	}
}

func TestBoundariesThatBreakTheContractAreABadResponse(t *testing.T) {
	t.Parallel()
	tc := goPluginConn(t, wordsPlugin(), plugin.KindTokenizer).(*TokenizerClient)
	_, err := tc.WithModel("lying").Boundaries(t.Context(), []string{"abc"})
	if !errors.Is(err, sdk.ErrBadResponse) {
		t.Fatalf("Boundaries error = %v, want one matching sdk.ErrBadResponse", err)
	}
	if !strings.Contains(err.Error(), `plugin "fake"`) {
		t.Errorf("error %q does not name the plugin", err)
	}
}

func TestACancelledContextEndsTheCall(t *testing.T) {
	t.Parallel()
	t.Run("a context cancelled before the call fails without reaching the plugin", func(t *testing.T) {
		t.Parallel()
		rec := newRecording()
		tc := goPluginConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": rec})}, plugin.KindTokenizer).(*TokenizerClient)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := tc.Count(ctx, []string{"a"})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Count error = %v, want one matching context.Canceled", err)
		}
		if n := rec.calls.Load(); n != 0 {
			t.Errorf("the plugin saw %d calls, want 0", n)
		}
	})
	t.Run("cancelling during a call reaches the plugin's context", func(t *testing.T) {
		t.Parallel()
		b := blocking{started: make(chan struct{}), done: make(chan error, 1)}
		tc := goPluginConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": b})}, plugin.KindTokenizer).(*TokenizerClient)
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			<-b.started
			cancel()
		}()
		_, err := tc.Count(ctx, []string{"a"})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Count error = %v, want one matching context.Canceled", err)
		}
		select {
		case perr := <-b.done:
			if !errors.Is(perr, context.Canceled) {
				t.Errorf("the plugin's context ended with %v, want context.Canceled", perr)
			}
		case <-time.After(10 * time.Second):
			t.Error("the plugin's context was never cancelled: the server shim does not use the request's context")
		}
	})
	t.Run("a deadline reaches the plugin and comes back as DeadlineExceeded", func(t *testing.T) {
		t.Parallel()
		b := blocking{started: make(chan struct{}), done: make(chan error, 1)}
		tc := goPluginConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": b})}, plugin.KindTokenizer).(*TokenizerClient)
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		_, err := tc.Boundaries(ctx, []string{"a"})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Boundaries error = %v, want one matching context.DeadlineExceeded", err)
		}
		select {
		case perr := <-b.done:
			if perr == nil {
				t.Error("the plugin's context ended without an error")
			}
		case <-time.After(10 * time.Second):
			t.Error("the plugin's context never ended")
		}
	})
}

// sixteenMiB returns texts of about 64 KiB each that add up to 16 MiB.
func sixteenMiB() []string {
	para := strings.Repeat("lorem ipsum dolor sit amet ", 64<<10/27)
	var texts []string
	for n := 0; n < 16<<20; n += len(para) {
		texts = append(texts, para)
	}
	return texts
}

func TestSixteenMiBRequestsWork(t *testing.T) {
	t.Parallel()
	t.Run("many texts are split into requests a default gRPC server accepts", func(t *testing.T) {
		t.Parallel()
		rec := newRecording()
		tc := goPluginConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": rec})}, plugin.KindTokenizer).(*TokenizerClient)
		texts := sixteenMiB()
		want, _ := sdk.Words{}.Count(t.Context(), texts)
		got, err := tc.Count(t.Context(), texts)
		if err != nil {
			t.Fatalf("Count of 16 MiB: %v", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Count of 16 MiB (-want +got):\n%s", diff)
		}
		if calls := rec.calls.Load(); calls < 16<<20/plugin.BatchBytes {
			t.Errorf("16 MiB took %d requests, want at least %d of at most plugin.BatchBytes", calls, 16<<20/plugin.BatchBytes)
		}
		if m := rec.maxBatch.Load(); m > plugin.BatchBytes {
			t.Errorf("the largest request carried %d bytes of text, more than plugin.BatchBytes (%d)", m, plugin.BatchBytes)
		}
	})
	t.Run("a single 16 MiB text fits the raised server limit", func(t *testing.T) {
		t.Parallel()
		tc := NewTokenizerClient(bufConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": sdk.Words{}})}), "fake")
		text := strings.Join(sixteenMiB(), "")
		counts, err := tc.Count(t.Context(), []string{text})
		if err != nil {
			t.Fatalf("Count of one 16 MiB text: %v", err)
		}
		want, _ := sdk.Words{}.Count(t.Context(), []string{text})
		if diff := cmp.Diff(want, counts); diff != "" {
			t.Errorf("Count (-want +got):\n%s", diff)
		}
		bounds, err := tc.Boundaries(t.Context(), []string{text})
		if err != nil {
			t.Fatalf("Boundaries of one 16 MiB text: %v", err)
		}
		if len(bounds) != 1 || len(bounds[0]) != want[0] {
			t.Errorf("Boundaries gave %d lists, the first of %d ends; want 1 list of %d", len(bounds), len(bounds[0]), want[0])
		}
	})
	t.Run("a single text over a default server's limit is invalid input there", func(t *testing.T) {
		t.Parallel()
		tc := goPluginConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": sdk.Words{}})}, plugin.KindTokenizer).(*TokenizerClient)
		_, err := tc.Count(t.Context(), []string{strings.Repeat("a ", 3<<20)})
		if !errors.Is(err, sdk.ErrInvalidInput) {
			t.Errorf("Count of a 6 MiB text against a 4 MiB server = %v, want an error matching sdk.ErrInvalidInput", err)
		}
	})
}

func TestATextTooLargeForAnyRequestIsInvalidInput(t *testing.T) {
	t.Parallel()
	rec := newRecording()
	tc := goPluginConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": rec})}, plugin.KindTokenizer).(*TokenizerClient)
	tc.limits = limits{batch: 10, max: 100}
	_, err := tc.Count(t.Context(), []string{"small", strings.Repeat("x", 200)})
	if !errors.Is(err, sdk.ErrInvalidInput) {
		t.Fatalf("Count error = %v, want one matching sdk.ErrInvalidInput", err)
	}
	if !strings.Contains(err.Error(), "text 1 is 200 bytes") {
		t.Errorf("error %q does not say which text and how large", err)
	}
	if n := rec.calls.Load(); n != 0 {
		t.Errorf("the plugin saw %d calls, want 0: the size check comes first", n)
	}
}

func TestBatches(t *testing.T) {
	t.Parallel()
	// Each text of n < 128 bytes costs n+2 bytes on the wire.
	tests := []struct {
		name  string
		model string
		texts []string
		l     limits
		want  []span
	}{
		{name: "no texts make no requests", texts: nil, l: limits{batch: 10, max: 100}, want: nil},
		{name: "texts that fit go in one request", texts: []string{"ab", "cd"}, l: limits{batch: 10, max: 100}, want: []span{{0, 2}}},
		{name: "a full request starts the next", texts: []string{"abc", "def", "ghi"}, l: limits{batch: 10, max: 100}, want: []span{{0, 2}, {2, 3}}},
		{name: "a text larger than a batch travels alone", texts: []string{"a", strings.Repeat("x", 40), "b"}, l: limits{batch: 10, max: 100}, want: []span{{0, 1}, {1, 2}, {2, 3}}},
		{name: "the model field counts toward the size", model: "m", texts: []string{"abc", "def"}, l: limits{batch: 10, max: 100}, want: []span{{0, 1}, {1, 2}}},
		{name: "empty texts still cost their field", texts: []string{"", "", "", "", "", ""}, l: limits{batch: 10, max: 100}, want: []span{{0, 5}, {5, 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := batches(tt.model, tt.texts, tt.l)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(span{})); diff != "" {
				t.Errorf("batches (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithModelLeavesTheOriginalAlone(t *testing.T) {
	t.Parallel()
	tc := goPluginConn(t, wordsPlugin(), plugin.KindTokenizer).(*TokenizerClient)
	runes := tc.WithModel("runes")
	if tc.Model() != "" || runes.Model() != "runes" {
		t.Errorf("models %q and %q, want \"\" and \"runes\"", tc.Model(), runes.Model())
	}
	if tc.Name() != "plugin:fake" || runes.Name() != "plugin:fake:runes" {
		t.Errorf("names %q and %q, want plugin:fake and plugin:fake:runes", tc.Name(), runes.Name())
	}
}

func TestSentenceSplitterRoundTrip(t *testing.T) {
	t.Parallel()
	p := pluginserver.Server{Name: "dots", Version: "2.0.0", Splitters: splitterMap(map[string]sdk.SentenceSplitter{"periods": periods{}})}
	sc := goPluginConn(t, p, plugin.KindSentence).(*SentenceClient)
	texts := []string{"One. Two.  Three", "", "No end"}
	want, _ := periods{}.Split(t.Context(), texts)
	got, err := sc.Split(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Split (-want +got):\n%s", diff)
	}
	info, err := sc.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	wantInfo := plugin.Info{Name: "dots", Version: "2.0.0", Models: []string{"periods"}, ProtocolVersion: "1.0", Kinds: []plugin.Kind{plugin.KindSentence}}
	if diff := cmp.Diff(wantInfo, info); diff != "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
	if _, err := sc.WithModel("punkt").Split(t.Context(), texts); !errors.Is(err, sdk.ErrUnsupported) {
		t.Errorf("Split with an unknown model = %v, want an error matching sdk.ErrUnsupported", err)
	}
}

func TestAServiceThePluginLacksIsUnsupported(t *testing.T) {
	t.Parallel()
	t.Run("a tokenizer plugin asked to split sentences", func(t *testing.T) {
		t.Parallel()
		sc := goPluginConn(t, wordsPlugin(), plugin.KindSentence).(*SentenceClient)
		if _, err := sc.Split(t.Context(), []string{"a. b."}); !errors.Is(err, sdk.ErrUnsupported) {
			t.Errorf("Split = %v, want an error matching sdk.ErrUnsupported", err)
		}
	})
	t.Run("a sentence plugin asked to count", func(t *testing.T) {
		t.Parallel()
		tc := goPluginConn(t, pluginserver.Server{Name: "dots", Splitters: splitterMap(map[string]sdk.SentenceSplitter{"periods": periods{}})}, plugin.KindTokenizer).(*TokenizerClient)
		if _, err := tc.Count(t.Context(), []string{"a"}); !errors.Is(err, sdk.ErrUnsupported) {
			t.Errorf("Count = %v, want an error matching sdk.ErrUnsupported", err)
		}
	})
}

func TestAPluginServingBothKindsSaysSo(t *testing.T) {
	t.Parallel()
	p := pluginserver.Server{Name: "both", Counters: counterMap(map[string]sdk.TokenCounter{"words": sdk.Words{}}), Splitters: splitterMap(map[string]sdk.SentenceSplitter{"periods": periods{}})}
	tc := NewTokenizerClient(bufConn(t, p), "both")
	info, err := tc.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]plugin.Kind{plugin.KindTokenizer, plugin.KindSentence}, info.Kinds); diff != "" {
		t.Errorf("Info.Kinds (-want +got):\n%s", diff)
	}
}
