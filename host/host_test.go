package host

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/sdk"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

// wantErr fails the test unless err matches every target and its text holds every substring.
func wantErr(t *testing.T, err error, targets []error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one matching %v and containing %q", targets, subs)
	}
	for _, target := range targets {
		if !errors.Is(err, target) {
			t.Errorf("error does not match %v: %v", target, err)
		}
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error does not contain %q: %v", s, err)
		}
	}
}

func TestPluginCounterAgreesWithTheInProcessCounter(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty:alpha")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"", "one", "two words", "  three  little  words \n", "<|endoftext|> is text"}
	wantCounts, _ := sdk.Words{}.Count(ctx, texts)
	gotCounts, err := tc.Count(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantCounts, gotCounts); diff != "" {
		t.Errorf("Count (-want +got):\n%s", diff)
	}
	wantBounds, _ := sdk.Words{}.Boundaries(ctx, texts)
	gotBounds, err := tc.Boundaries(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantBounds, gotBounds); diff != "" {
		t.Errorf("Boundaries (-want +got):\n%s", diff)
	}
	if got := tc.(sdk.Namer).Name(); got != "plugin:faulty:alpha" {
		t.Errorf("Name() = %q, want %q", got, "plugin:faulty:alpha")
	}
}

func TestOneProcessServesEveryModelAndKindOfAPlugin(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	for _, spec := range []string{"plugin:faulty", "plugin:faulty:alpha", "plugin:faulty:beta"} {
		tc, err := h.TokenCounter(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tc.Count(ctx, []string{"a b"}); err != nil {
			t.Fatal(err)
		}
	}
	ss, err := h.SentenceSplitter(ctx, "plugin:faulty:beta")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ss.Split(ctx, []string{"One. Two.", ""})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]int{{9}, nil}, got); diff != "" {
		t.Errorf("Split (-want +got):\n%s", diff)
	}
	if n := starts(h, "faulty"); n != 1 {
		t.Errorf("started %d processes, want 1", n)
	}
	if procs := processesOf(bin); len(procs) != 1 {
		t.Errorf("plugin processes running: %v, want exactly one", procs)
	}
	info, err := h.Info(ctx, "faulty", sdkplugin.KindTokenizer)
	if err != nil {
		t.Fatal(err)
	}
	want := sdkplugin.Info{Name: "faulty", Version: "0.0.1-test", Models: []string{"alpha", "beta"}, ProtocolVersion: "1.2",
		Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer, sdkplugin.KindSentence}}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
}

func TestBuiltinSpecsRunInProcess(t *testing.T) {
	t.Parallel()
	h := New(nil, Options{Logger: hclog.NewNullLogger()})
	defer h.Close()
	ctx := context.Background()
	for _, tt := range []struct {
		spec string
		want []int
	}{
		{"words", []int{2}},
		{"runes", []int{7}},
	} {
		tc, err := h.TokenCounter(ctx, tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tc.Count(ctx, []string{"héllo w"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Count (-want +got):\n%s", tt.spec, diff)
		}
	}
	ss, err := h.SentenceSplitter(ctx, "rules")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ss.Split(ctx, []string{"One. Two."})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]int{{5, 9}}, got); diff != "" {
		t.Errorf("rules: Split (-want +got):\n%s", diff)
	}
	if len(h.sups) != 0 {
		t.Errorf("built-in specs created plugin supervisors: %v", h.sups)
	}
}

func TestSpecsOfTheWrongKindAreRefused(t *testing.T) {
	t.Parallel()
	h := New(nil, Options{Logger: hclog.NewNullLogger()})
	defer h.Close()
	ctx := context.Background()
	_, err := h.TokenCounter(ctx, "rules")
	wantErr(t, err, []error{sdk.ErrInvalidConfig}, `"rules"`, "not a token counter")
	_, err = h.SentenceSplitter(ctx, "words")
	wantErr(t, err, []error{sdk.ErrInvalidConfig}, `"words"`, "not a sentence splitter")
	_, err = h.TokenCounter(ctx, "bogus:x")
	wantErr(t, err, []error{sdk.ErrInvalidConfig}, `"bogus:x"`, "unknown scheme")
}

func TestAnUnknownPluginSaysWhereTheHostLooked(t *testing.T) {
	t.Parallel()
	dir, _ := setup(t)
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := New(cat, Options{Logger: hclog.NewNullLogger()})
	defer h.Close()
	_, err = h.TokenCounter(context.Background(), "tiktoken:cl100k_base")
	wantErr(t, err, []error{ErrNotFound, sdk.ErrUnsupported}, `no plugin named "tiktoken"`, dir, "they list: faulty", EnvPluginDir)

	h2 := New(nil, Options{Logger: hclog.NewNullLogger()})
	defer h2.Close()
	_, err = h2.TokenCounter(context.Background(), "plugin:faulty")
	wantErr(t, err, []error{ErrNotFound}, `no plugin named "faulty"`, "no manifest was loaded")
}

func TestAKindTheManifestDoesNotListIsNotFound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyFile(t, faultyBin, dir+"/tok")
	if err := BuildManifest(dir, []Entry{{Name: "tok", Binary: "tok", Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}}); err != nil {
		t.Fatal(err)
	}
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := New(cat, Options{Logger: hclog.NewNullLogger()})
	defer h.Close()
	_, err = h.SentenceSplitter(context.Background(), "plugin:tok")
	wantErr(t, err, []error{ErrNotFound, sdk.ErrUnsupported}, `plugin "tok" offers tokenizer, not sentence`)
}

func TestAModelThePluginDoesNotServeIsUnsupported(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	_, err := h.TokenCounter(context.Background(), "plugin:faulty:gamma")
	wantErr(t, err, []error{sdk.ErrUnsupported}, `plugin "faulty"`, `model "gamma"`, "it serves alpha, beta")
}

func TestACrashFailsTheCallAndTheNextCallRestartsThePlugin(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	first := pluginPID(h, "faulty")
	_, err = tc.Count(ctx, []string{"fine", "please CRASH now"})
	wantErr(t, err, []error{sdk.ErrUnavailable}, `plugin "faulty"`, "exited during the call", "exit status 3",
		"crashing on purpose", "the next call starts a new process")
	if alive(first) {
		t.Errorf("crashed plugin process %d is still there", first)
	}
	got, err := tc.Count(ctx, []string{"two words"})
	if err != nil {
		t.Fatalf("call after the crash: %v", err)
	}
	if diff := cmp.Diff([]int{2}, got); diff != "" {
		t.Errorf("Count after restart (-want +got):\n%s", diff)
	}
	if n := starts(h, "faulty"); n != 2 {
		t.Errorf("started %d processes, want 2", n)
	}
}

func TestAPluginThatKeepsCrashingIsNotRestartedForever(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{MaxRestarts: 2, MinBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		_, err := tc.Count(ctx, []string{"CRASH"})
		wantErr(t, err, []error{sdk.ErrUnavailable}, "exited during the call")
		if i == 2 {
			wantErr(t, err, nil, "will not be restarted")
		}
	}
	_, err = tc.Count(ctx, []string{"fine"})
	wantErr(t, err, []error{ErrCrashLoop, sdk.ErrUnavailable}, `plugin "faulty"`, "keeps failing", "3 failures", "at most 2 restarts",
		"exit status 3", "crashing on purpose")
	if n := starts(h, "faulty"); n != 3 {
		t.Errorf("started %d processes, want 3 (the first and 2 restarts)", n)
	}
}

func TestAHungCallEndsAtItsDeadline(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	tc, err := h.TokenCounter(context.Background(), "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = tc.Count(ctx, []string{"HANG"})
	if took := time.Since(start); took > time.Second {
		t.Errorf("hung call returned after %v, want about 300ms", took)
	}
	wantErr(t, err, []error{context.DeadlineExceeded}, `plugin "faulty"`)

	// The process that missed the deadline is replaced: the next call gets a fresh one.
	got, err := tc.Count(context.Background(), []string{"still here"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{2}, got); diff != "" {
		t.Errorf("Count (-want +got):\n%s", diff)
	}
	if n := starts(h, "faulty"); n != 2 {
		t.Errorf("started %d processes, want 2", n)
	}
	start = time.Now()
	h.Close()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Close with a hung call took %v", took)
	}
}

func TestPluginsThatFailToStartAreRefusedClearly(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		opts    Options
		tamper  bool
		maxTook time.Duration // how long the failure may take; 0 for no limit
		targets []error
		subs    []string
	}{
		{
			name:    "a plugin writing to stdout before the handshake",
			args:    []string{"-garbage"},
			targets: []error{sdk.ErrUnavailable},
			subs:    []string{`plugin "faulty"`, "wrote to stdout before the handshake", "hello from faulty", "plugins must log to stderr"},
		},
		{
			name:    "a plugin with another magic cookie",
			args:    []string{"-cookie"},
			targets: []error{sdk.ErrUnavailable},
			subs:    []string{`plugin "faulty"`, "exited before the handshake", "exit status 1", "This binary is a plugin"},
		},
		{
			name:    "a plugin slower to start than the start timeout",
			args:    []string{"-sleep=2s"},
			opts:    Options{StartTimeout: 300 * time.Millisecond},
			maxTook: 2 * time.Second, // the plugin sleeps 2s: failing sooner shows the timeout cut it
			targets: []error{sdk.ErrUnavailable},
			subs:    []string{`plugin "faulty"`, "did not complete the handshake within the start timeout (300ms)"},
		},
		{
			name:    "a binary that differs from its manifest's checksum",
			tamper:  true,
			targets: []error{sdk.ErrUnavailable, plugin.ErrChecksumsDoNotMatch},
			subs:    []string{`plugin "faulty"`, "does not match the sha256", "refusing to start it"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := setup(t, tt.args...)
			if tt.tamper {
				os.Remove(bin)
				copyFile(t, faultyBin, bin)
				f, err := os.OpenFile(bin, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.Write([]byte("tampered"))
				f.Close()
			}
			checkLeaks(t, bin)
			h := newHost(t, dir, tt.opts)
			start := time.Now()
			_, err := h.TokenCounter(context.Background(), "plugin:faulty")
			wantErr(t, err, tt.targets, append(tt.subs, bin)...)
			if took := time.Since(start); tt.maxTook > 0 && took > tt.maxTook {
				t.Errorf("failed start took %v, want under %v", took, tt.maxTook)
			}
			if procs := processesOf(bin); len(procs) > 0 {
				t.Errorf("processes left by the failed start, before Close: %v", procs)
			}
		})
	}
}

func TestASlowPluginStartsWithinTheDefaultTimeout(t *testing.T) {
	dir, bin := setup(t, "-sleep=2s")
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty")
	if err != nil {
		t.Fatalf("slow plugin with the default %v start timeout: %v", DefaultStartTimeout, err)
	}
	if _, err := tc.Count(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
}

func TestWaitingForAStartEndsWithTheCallersContext(t *testing.T) {
	dir, bin := setup(t, "-sleep=2s")
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := h.TokenCounter(ctx, "plugin:faulty")
	wantErr(t, err, []error{context.DeadlineExceeded}, `plugin "faulty"`, "waiting for it to start")
	// The start goes on for the next caller.
	if _, err := h.TokenCounter(context.Background(), "plugin:faulty"); err != nil {
		t.Fatal(err)
	}
	if n := starts(h, "faulty"); n != 1 {
		t.Errorf("started %d processes, want 1", n)
	}
}

func TestRequestsOverTheMessageLimitAreSplit(t *testing.T) {
	// This plugin keeps gRPC's 4 MiB receive limit, so 10 MiB of texts only get through in
	// several requests.
	dir, bin := setup(t, "-grpc-default-limits")
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("ab ", 1<<20/3)
	texts := make([]string, 10)
	want := make([]int, 10)
	for i := range texts {
		texts[i] = text
		want[i] = 1 << 20 / 3
	}
	got, err := tc.Count(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Count of 10 MiB (-want +got):\n%s", diff)
	}
	// One text over the plugin's limit cannot be split: the plugin refuses it.
	_, err = tc.Count(ctx, []string{strings.Repeat("x", 5<<20)})
	wantErr(t, err, []error{sdk.ErrInvalidInput}, `plugin "faulty"`)
}

func TestManyGoroutinesShareOnePluginProcess(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	const goroutines, calls = 16, 20
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*calls)
	for g := range goroutines {
		wg.Go(func() {
			// Every goroutine opens its own counter at once: one process must start.
			tc, err := h.TokenCounter(ctx, "plugin:faulty:beta")
			if err != nil {
				errs <- err
				return
			}
			for i := range calls {
				texts := []string{strings.Repeat("w ", g), strings.Repeat("x ", i)}
				got, err := tc.Count(ctx, texts)
				if err != nil {
					errs <- err
					continue
				}
				if got[0] != g || got[1] != i {
					errs <- errors.New("wrong counts: " + cmp.Diff([]int{g, i}, got))
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := starts(h, "faulty"); n != 1 {
		t.Errorf("started %d processes, want 1", n)
	}
}

func TestCloseStopsEveryPluginAndLaterCallsFail(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	pid := pluginPID(h, "faulty")
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if procs := processesOf(bin); len(procs) > 0 {
		t.Errorf("plugin processes right after Close: %v", procs)
	}
	if alive(pid) {
		t.Errorf("plugin %d alive after Close", pid)
	}
	_, err = tc.Count(ctx, []string{"a"})
	wantErr(t, err, []error{ErrClosed, sdk.ErrUnavailable}, `plugin "faulty"`)
	_, err = h.TokenCounter(ctx, "plugin:faulty")
	wantErr(t, err, []error{ErrClosed}, `plugin "faulty"`)
	if err := h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestTheDefaultLoggerLogsWarningsAndAbove(t *testing.T) {
	t.Parallel()
	opts := Options{}.withDefaults()
	if got := opts.Logger.GetLevel(); got != hclog.Warn {
		t.Errorf("default log level = %v, want %v", got, hclog.Warn)
	}
	want := Options{Logger: opts.Logger, StartTimeout: 10 * time.Second, StopTimeout: 2 * time.Second, MaxRestarts: 5, RestartWindow: time.Minute,
		MinBackoff: 50 * time.Millisecond, MaxBackoff: 2 * time.Second}
	if diff := cmp.Diff(want, opts, cmp.Comparer(func(a, b hclog.Logger) bool { return a == b })); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	if got := (Options{MaxRestarts: -1}).withDefaults().MaxRestarts; got != 0 {
		t.Errorf("MaxRestarts -1 became %d, want 0 (never restart)", got)
	}
}

func TestTheDefaultLoggerTakesItsLevelFromTheEnvironment(t *testing.T) {
	t.Setenv(EnvLogLevel, "debug")
	if got := (Options{}).withDefaults().Logger.GetLevel(); got != hclog.Debug {
		t.Errorf("default log level with %s=debug is %v, want %v", EnvLogLevel, got, hclog.Debug)
	}
	t.Setenv(EnvLogLevel, "loud")
	if got := (Options{}).withDefaults().Logger.GetLevel(); got != hclog.Warn {
		t.Errorf("default log level with %s=loud is %v, want %v", EnvLogLevel, got, hclog.Warn)
	}
}

func TestBackoffDoublesFromMinToMax(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	var got []time.Duration
	for n := 1; n <= 8; n++ {
		got = append(got, backoff(n, 50*ms, 2000*ms))
	}
	want := []time.Duration{50 * ms, 100 * ms, 200 * ms, 400 * ms, 800 * ms, 1600 * ms, 2000 * ms, 2000 * ms}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("backoff (-want +got):\n%s", diff)
	}
}

func TestTheRestartBudgetCountsFailuresInTheWindow(t *testing.T) {
	t.Parallel()
	s := newSupervisor(Plugin{Name: "p", Path: "/bin/p"}, Options{MaxRestarts: 2, RestartWindow: time.Minute,
		MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second}.withDefaults(), &spawner{})
	now := time.Now()
	for _, tt := range []struct {
		name      string
		failures  []time.Duration // ages of the failures
		wantDelay time.Duration
		wantErr   bool
	}{
		{"no failure starts at once", nil, 0, false},
		{"one fresh failure waits the minimum backoff", []time.Duration{0}, 100 * time.Millisecond, false},
		{"a failure older than the backoff starts at once", []time.Duration{time.Second}, 0, false},
		{"two failures wait twice as long, less the time passed", []time.Duration{2 * time.Second, 50 * time.Millisecond}, 150 * time.Millisecond, false},
		{"three failures in the window exceed two restarts", []time.Duration{3 * time.Second, 2 * time.Second, time.Second}, 0, true},
		{"failures older than the window are forgotten", []time.Duration{2 * time.Minute, 90 * time.Second, time.Second}, 0, false},
	} {
		s.failures = nil
		for _, age := range tt.failures {
			s.failures = append(s.failures, now.Add(-age))
		}
		delay, err := s.admitLocked(now)
		if (err != nil) != tt.wantErr || delay != tt.wantDelay {
			t.Errorf("%s: got delay %v, error %v; want delay %v, error %v", tt.name, delay, err, tt.wantDelay, tt.wantErr)
		}
		if err != nil && !errors.Is(err, ErrCrashLoop) {
			t.Errorf("%s: error does not match ErrCrashLoop: %v", tt.name, err)
		}
	}
}
