package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"github.com/chunkkit/chunkkit/sdk/sentence"
)

// Defaults for the zero fields of Options.
const (
	// DefaultStartTimeout is the default Options.StartTimeout.
	DefaultStartTimeout = 10 * time.Second
	// DefaultMaxRestarts is the default Options.MaxRestarts.
	DefaultMaxRestarts = 5
	// DefaultRestartWindow is the default Options.RestartWindow.
	DefaultRestartWindow = time.Minute
	// DefaultMinBackoff is the default Options.MinBackoff.
	DefaultMinBackoff = 50 * time.Millisecond
	// DefaultMaxBackoff is the default Options.MaxBackoff.
	DefaultMaxBackoff = 2 * time.Second
	// DefaultStopTimeout is the default Options.StopTimeout.
	DefaultStopTimeout = 2 * time.Second
)

// Options tune a Host. The zero value means the documented defaults.
type Options struct {
	// PluginDirs are directories (or manifest files) Open searches for plugins before the
	// places Discover searches; each must exist. New ignores it: its Catalog says where the
	// plugins are.
	PluginDirs []string
	// Logger receives the host's and go-plugin's logs, and plugins' hclog output. Nil means
	// hclog on os.Stderr, named "chunkkit-host", at level Warn or the level $CHUNKKIT_LOG_LEVEL
	// names (EnvLogLevel: "debug" shows the goroutine dumps of panicking plugins).
	Logger hclog.Logger
	// StartTimeout bounds starting a plugin: checksum, exec, handshake and connection. Zero
	// means DefaultStartTimeout (10s). A plugin that has not completed the start by then is
	// killed, with its whole process group, and the start fails.
	StartTimeout time.Duration
	// StopTimeout bounds a plugin's graceful shutdown (on Close, or when a process that
	// missed a call's deadline is replaced): after it the host SIGKILLs the plugin's process
	// group. Zero means DefaultStopTimeout (2s).
	StopTimeout time.Duration
	// MaxRestarts is how many times a plugin may be restarted after failures (crashes, exits,
	// failed starts) within RestartWindow; one more failure makes it ErrCrashLoop until the
	// oldest failure leaves the window. Zero means DefaultMaxRestarts (5); a negative value
	// means never restart.
	MaxRestarts int
	// RestartWindow is the window MaxRestarts counts failures in. Zero means
	// DefaultRestartWindow (1 minute).
	RestartWindow time.Duration
	// MinBackoff and MaxBackoff bound the wait before a restart: MinBackoff after the first
	// failure in the window, doubling with each further one, at most MaxBackoff, measured
	// from the last failure. Zero means DefaultMinBackoff (50ms) and DefaultMaxBackoff (2s).
	MinBackoff, MaxBackoff time.Duration
}

// withDefaults returns o with zero fields replaced by the defaults.
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = defaultLogger()
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = DefaultStopTimeout
	}
	switch {
	case o.MaxRestarts == 0:
		o.MaxRestarts = DefaultMaxRestarts
	case o.MaxRestarts < 0:
		o.MaxRestarts = 0
	}
	if o.RestartWindow <= 0 {
		o.RestartWindow = DefaultRestartWindow
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	o.MaxBackoff = max(o.MaxBackoff, o.MinBackoff)
	return o
}

func defaultLogger() hclog.Logger {
	level := hclog.LevelFromString(os.Getenv(EnvLogLevel))
	if level == hclog.NoLevel {
		level = hclog.Warn
	}
	return hclog.New(&hclog.LoggerOptions{Name: "chunkkit-host", Level: level, Output: os.Stderr})
}

// Host starts and supervises the plugins of a Catalog and hands out counters and splitters
// backed by them. It starts a plugin the first time a spec names it, and runs at most one
// process per plugin name, shared by every counter and splitter of that plugin, whatever
// their models. Close stops them all.
//
// A Host is safe for concurrent use; concurrent first uses of a plugin start one process.
type Host struct {
	cat   *Catalog
	opts  Options
	spawn *spawner

	mu     sync.Mutex
	sups   map[string]*supervisor
	closed bool
}

// New returns a Host for the plugins of cat (nil means none: only built-in specs work). It
// starts nothing until a spec names a plugin.
func New(cat *Catalog, opts Options) *Host {
	opts = opts.withDefaults()
	return &Host{cat: cat, opts: opts, spawn: &spawner{logger: opts.Logger}, sups: make(map[string]*supervisor)}
}

// Open is Discover(opts.PluginDirs...) followed by New: it finds plugins in opts.PluginDirs,
// $CHUNKKIT_PLUGIN_DIR, the running program's directory, the user's plugin directory and
// beside the chunkkit command, in that order (see SearchPath).
func Open(opts Options) (*Host, error) {
	cat, err := Discover(opts.PluginDirs...)
	if err != nil {
		return nil, err
	}
	return New(cat, opts), nil
}

// Catalog returns the plugins the host knows.
func (h *Host) Catalog() *Catalog { return h.cat }

// TokenCounter returns the token counter spec names (see Spec). "words" and "runes" are
// in-process (sdk.Words, sdk.Runes). For a plugin it starts the plugin if it is not running,
// asks its Info, checks the protocol version and that the plugin serves the model, and asks
// the model to count and bound a few probe texts, checking that its answers keep the contract
// (and that Count and Boundaries agree), so that a misconfiguration or a broken plugin fails
// here rather than on the first Count. The counter is also an
// sdk.Namer whose Name is the spec's String.
//
// Every later answer is checked too (one per text, offsets in order, on rune boundaries and
// ending at the text's length, no negative count, nothing for the empty text), and one that
// breaks the contract is an error matching sdk.ErrBadResponse that names the plugin.
//
// Errors: a malformed spec matches sdk.ErrInvalidConfig; a plugin no manifest lists, or
// one whose manifest lacks "tokenizer", matches ErrNotFound (and sdk.ErrUnsupported); a
// model the plugin does not list matches sdk.ErrUnsupported and lists what it serves; a
// plugin that cannot be started matches sdk.ErrUnavailable (and plugin.ErrChecksumsDoNotMatch
// for a binary that differs from its manifest).
//
// The counter works until Close. Each call uses the plugin's current process; if the process
// crashed since, the call starts a new one (see Options for the limits).
func (h *Host) TokenCounter(ctx context.Context, spec string) (sdk.TokenCounter, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	switch sp.Builtin {
	case BuiltinWords:
		return sdk.Words{}, nil
	case BuiltinRunes:
		return sdk.Runes{}, nil
	case BuiltinRules:
		return nil, fmt.Errorf("host: spec %q names a sentence splitter, not a token counter: %w", spec, sdk.ErrInvalidConfig)
	}
	if sp.Plugin == HFPlugin && !filepath.IsAbs(sp.Arg) {
		// The plugin may run in another directory: send it the path the user meant.
		abs, err := filepath.Abs(sp.Arg)
		if err != nil {
			return nil, fmt.Errorf("host: spec %q: %w", spec, err)
		}
		sp.Arg = abs
	}
	s, err := h.open(ctx, sp, plugin.KindTokenizer)
	if err != nil {
		return nil, err
	}
	return &pluginCounter{s: s, model: sp.Arg, name: sp.String()}, nil
}

// SentenceSplitter returns the sentence splitter spec names (see Spec): "rules" is the
// in-process sentence.Default(); a plugin spec behaves as in TokenCounter, for the
// "sentence" kind. The splitter is also an sdk.Namer.
func (h *Host) SentenceSplitter(ctx context.Context, spec string) (sdk.SentenceSplitter, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	switch sp.Builtin {
	case BuiltinRules:
		return sentence.Default(), nil
	case BuiltinWords, BuiltinRunes:
		return nil, fmt.Errorf("host: spec %q names a token counter, not a sentence splitter: %w", spec, sdk.ErrInvalidConfig)
	}
	s, err := h.open(ctx, sp, plugin.KindSentence)
	if err != nil {
		return nil, err
	}
	return &pluginSplitter{s: s, model: sp.Arg, name: sp.String()}, nil
}

// Info starts the plugin called name if needed and returns what it says about its service of
// kind. Errors are as for TokenCounter.
func (h *Host) Info(ctx context.Context, name string, kind plugin.Kind) (plugin.Info, error) {
	s, err := h.supervisor(name, kind)
	if err != nil {
		return plugin.Info{}, err
	}
	inst, err := s.get(ctx)
	if err != nil {
		return plugin.Info{}, err
	}
	defer s.release(inst)
	info, err := inst.info(ctx, kind)
	if err != nil {
		return plugin.Info{}, s.callError(ctx, inst, err)
	}
	return info, nil
}

// Close stops every plugin process the host started, with the processes they started in
// their process groups, and waits until they have exited and been reaped: each gets
// StopTimeout to shut down gracefully, then its group is SIGKILLed; a start in progress is cut
// short. It then removes the host's private directory (the plugins' sockets and TMPDIR).
// Calls in flight fail, and later calls on the host or its counters and splitters fail with
// ErrClosed. Close is idempotent and always returns nil.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	sups := make([]*supervisor, 0, len(h.sups))
	for _, s := range h.sups {
		sups = append(sups, s)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sups {
		wg.Go(s.close)
	}
	wg.Wait()
	h.spawn.close()
	return nil
}

// supervisor returns the supervisor of the plugin called name, which must offer kind.
func (h *Host) supervisor(name string, kind plugin.Kind) (*supervisor, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, fmt.Errorf("host: plugin %q: %w", name, ErrClosed)
	}
	p, ok := h.cat.Lookup(name)
	if !ok {
		return nil, h.cat.notFound(name)
	}
	if !p.Serves(kind) {
		return nil, fmt.Errorf("host: plugin %q offers %s, not %s (manifest %s): %w",
			name, joinKinds(p.Kinds, " and "), kind, p.Manifest, ErrNotFound)
	}
	s := h.sups[name]
	if s == nil {
		s = newSupervisor(p, h.opts, h.spawn)
		h.sups[name] = s
	}
	return s, nil
}

// open resolves a plugin spec of kind to a running, checked supervisor.
func (h *Host) open(ctx context.Context, sp Spec, kind plugin.Kind) (*supervisor, error) {
	s, err := h.supervisor(sp.Plugin, kind)
	if err != nil {
		return nil, err
	}
	s.expect(kind, sp.Arg)
	inst, err := s.get(ctx)
	if err != nil {
		return nil, err
	}
	defer s.release(inst)
	info, err := inst.info(ctx, kind)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, sdk.ErrUnsupported) {
			return nil, fmt.Errorf("host: plugin %q (%s) does not serve %s, although its manifest %s lists it: %w",
				sp.Plugin, s.plugin.Path, kind, s.plugin.Manifest, err)
		}
		return nil, s.callError(ctx, inst, err)
	}
	if major, _, _ := strings.Cut(info.ProtocolVersion, "."); major != strconv.Itoa(inst.protocol) {
		return nil, fmt.Errorf("host: plugin %q (%s) reports %s protocol version %q; this host speaks %d.x: %w",
			sp.Plugin, s.plugin.Path, kind, info.ProtocolVersion, inst.protocol, sdk.ErrUnsupported)
	}
	if sp.Arg != "" && len(info.Models) > 0 && !slices.Contains(info.Models, sp.Arg) {
		return nil, fmt.Errorf("host: spec %q: plugin %q has no %s model %q; it serves %s: %w",
			sp, sp.Plugin, kind, sp.Arg, strings.Join(info.Models, ", "), sdk.ErrUnsupported)
	}
	// The model is asked for now, so that one the plugin cannot load (hf:PATH of a missing
	// file) fails here with the plugin's reason, and a plugin whose answers break the contract
	// fails before a chunker relies on them.
	if err := probe(ctx, inst, kind, sp.Arg); err != nil {
		if ctx.Err() == nil && errors.Is(err, sdk.ErrBadResponse) {
			return nil, fmt.Errorf("host: spec %q: plugin %q (%s) fails the host's checks of its answers: %w", sp, sp.Plugin, s.plugin.Path, err)
		}
		return nil, fmt.Errorf("host: spec %q: %w", sp, s.callError(ctx, inst, err))
	}
	return s, nil
}

// joinKinds joins kinds with sep.
func joinKinds(kinds []plugin.Kind, sep string) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, sep)
}
