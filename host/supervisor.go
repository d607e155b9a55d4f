package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/internal/pluginclient"
	"github.com/chunkkit/chunkkit/sdk"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

// exitGrace is how long a failed call waits for go-plugin to notice that the process is gone:
// a crash fails the call (EOF on the connection) a few milliseconds before the process is
// reaped.
const exitGrace = time.Second

// supervisor runs one plugin: at most one process at a time (the current instance), started on
// demand, replaced after a failure within the restart limits.
type supervisor struct {
	plugin Plugin
	opts   Options
	logger hclog.Logger

	closing chan struct{} // closed by close

	mu         sync.Mutex
	cur        *instance              // the process calls use; nil when none is running or starting
	live       map[*instance]struct{} // every instance not yet killed
	failures   []time.Time            // failures within the restart window, oldest first
	lastFail   string                 // what the last failure was
	lastStderr []string               // the last stderr lines of the last failed process
	starts     int                    // processes started, for tests
	closed     bool
}

func newSupervisor(p Plugin, opts Options) *supervisor {
	return &supervisor{
		plugin:  p,
		opts:    opts,
		logger:  opts.Logger.Named(p.Name),
		closing: make(chan struct{}),
		live:    make(map[*instance]struct{}),
	}
}

// instance is one plugin process and the clients talking to it.
type instance struct {
	ready chan struct{} // closed when the start has ended; err, client etc. are set before
	err   error         // the start error, nil once running

	cmd       *exec.Cmd
	client    *plugin.Client
	protocol  int
	tokenizer *pluginclient.TokenizerClient
	sentence  *pluginclient.SentenceClient
	stderr    *tail

	release  chan struct{} // closed after the process is gone: frees the spawning thread
	killOnce sync.Once
	dead     atomic.Bool // the process is known to be gone before kill: quiets go-plugin's warning
	exit     string      // how the process ended, set by kill

	infoMu sync.Mutex
	infos  map[sdkplugin.Kind]sdkplugin.Info

	discarded bool // guarded by supervisor.mu: the failure has been recorded
}

// get returns the running instance, starting one if there is none. Concurrent callers share
// one start. It waits for the start until ctx ends; the start itself goes on for the others.
func (s *supervisor) get(ctx context.Context) (*instance, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, fmt.Errorf("host: plugin %q: %w", s.plugin.Name, ErrClosed)
		}
		inst := s.cur
		if inst == nil {
			delay, err := s.admitLocked(time.Now())
			if err != nil {
				s.mu.Unlock()
				return nil, err
			}
			inst = &instance{
				ready:   make(chan struct{}),
				release: make(chan struct{}),
				stderr:  newTail(8),
				infos:   make(map[sdkplugin.Kind]sdkplugin.Info),
			}
			s.cur = inst
			s.live[inst] = struct{}{}
			s.starts++
			go s.run(inst, delay)
		}
		s.mu.Unlock()

		select {
		case <-inst.ready: // running already: do not let a done ctx win the race below
		default:
			select {
			case <-inst.ready:
			case <-ctx.Done():
				return nil, fmt.Errorf("host: plugin %q: waiting for it to start: %w", s.plugin.Name, ctx.Err())
			}
		}
		if inst.err != nil {
			return nil, inst.err
		}
		if !inst.client.Exited() {
			return inst, nil
		}
		// It died between calls: no call was in flight, so start a new one transparently.
		s.discard(inst)
		s.logger.Warn("plugin exited between calls; restarting it", "exit", inst.exit)
	}
}

// admitLocked decides whether a new process may start now, and after what delay. s.mu is held.
func (s *supervisor) admitLocked(now time.Time) (time.Duration, error) {
	cut := now.Add(-s.opts.RestartWindow)
	i := 0
	for i < len(s.failures) && !s.failures[i].After(cut) {
		i++
	}
	s.failures = s.failures[i:]
	n := len(s.failures)
	if n == 0 {
		return 0, nil
	}
	if n > s.opts.MaxRestarts {
		return 0, s.crashLoopErrorLocked(n)
	}
	return max(0, backoff(n, s.opts.MinBackoff, s.opts.MaxBackoff)-now.Sub(s.failures[n-1])), nil
}

// backoff is the wait before restarting after the n-th failure in the window: min doubled n-1
// times, at most max.
func backoff(n int, min, max time.Duration) time.Duration {
	d := min
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	return d
}

func (s *supervisor) crashLoopErrorLocked(n int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "host: plugin %q (%s) keeps crashing: %d failures in the last %v (at most %d restarts allowed); not starting it again before %s",
		s.plugin.Name, s.plugin.Path, n, s.opts.RestartWindow, s.opts.MaxRestarts,
		s.failures[0].Add(s.opts.RestartWindow).Format(time.TimeOnly))
	if s.lastFail != "" {
		b.WriteString("; last failure: " + s.lastFail)
	}
	b.WriteString(stderrNote(s.lastStderr))
	return &hostError{msg: b.String(), errs: []error{ErrCrashLoop}}
}

// run starts inst after delay and, once it is running, keeps the goroutine — and the OS thread
// it is locked to — alive until the process is gone. On Linux the process gets
// Pdeathsig=SIGKILL, which the kernel sends when the thread that forked it exits, not the
// whole host: forking from a locked thread that outlives the process makes the signal mean
// "the host died".
func (s *supervisor) run(inst *instance, delay time.Duration) {
	runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-s.closing:
			t.Stop()
			inst.err = fmt.Errorf("host: plugin %q: %w", s.plugin.Name, ErrClosed)
			s.forget(inst)
			close(inst.ready)
			return
		}
	}
	if err := s.start(inst); err != nil {
		inst.dead.Store(true) // go-plugin has killed it already
		inst.kill()
		inst.err = s.startError(inst, err)
		s.failed(inst, err)
		s.forget(inst)
		close(inst.ready)
		return
	}
	close(inst.ready)
	<-inst.release
}

// start execs the plugin, verifies its checksum, completes the handshake and dispenses the
// service clients.
func (s *supervisor) start(inst *instance) error {
	sum, err := hex.DecodeString(s.plugin.SHA256)
	if err != nil || len(sum) != sha256.Size {
		return fmt.Errorf("manifest %s: sha256 %q is not 64 hex digits", s.plugin.Manifest, s.plugin.SHA256)
	}
	inst.cmd = exec.Command(s.plugin.Path, s.plugin.Args...)
	dieWithParent(inst.cmd)
	inst.client = plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  pluginclient.Handshake(),
		VersionedPlugins: pluginclient.VersionedPlugins(s.plugin.Name),
		Cmd:              inst.cmd,
		// A fresh hash per client: SecureConfig writes into it.
		SecureConfig:     &plugin.SecureConfig{Checksum: sum, Hash: sha256.New()},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         true,
		Logger:           quietLogger{s.logger, &inst.dead},
		StartTimeout:     s.opts.StartTimeout,
		Stderr:           inst.stderr, // the process's own stderr
		SyncStderr:       inst.stderr, // os.Stderr inside the plugin once it serves
		SyncStdout:       io.Discard,
	})
	rpc, err := inst.client.Client()
	if err != nil {
		return err
	}
	inst.protocol = inst.client.NegotiatedVersion()
	raw, err := rpc.Dispense(string(sdkplugin.KindTokenizer))
	if err != nil {
		return err
	}
	tok, ok := raw.(*pluginclient.TokenizerClient)
	if !ok {
		return fmt.Errorf("dispensed %T, want a tokenizer client", raw)
	}
	raw, err = rpc.Dispense(string(sdkplugin.KindSentence))
	if err != nil {
		return err
	}
	sen, ok := raw.(*pluginclient.SentenceClient)
	if !ok {
		return fmt.Errorf("dispensed %T, want a sentence client", raw)
	}
	inst.tokenizer, inst.sentence = tok, sen
	return nil
}

// startError explains a failed start.
func (s *supervisor) startError(inst *instance, err error) error {
	p := s.plugin
	errs := []error{sdk.ErrUnavailable, err}
	msg := err.Error()
	first, _, _ := strings.Cut(msg, "\n")
	var text string
	switch {
	case errors.Is(err, plugin.ErrChecksumsDoNotMatch):
		text = fmt.Sprintf("host: plugin %q: binary %s does not match the sha256 in its manifest %s; refusing to start it: %v",
			p.Name, p.Path, p.Manifest, err)
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		text = fmt.Sprintf("host: plugin %q (%s) did not complete the handshake within the start timeout (%v)",
			p.Name, p.Path, s.opts.StartTimeout)
	case strings.Contains(msg, "plugin exited before we could connect"),
		strings.Contains(msg, "Failed to read any lines from plugin's stdout"):
		text = fmt.Sprintf("host: plugin %q (%s) exited before the handshake (%s)", p.Name, p.Path, inst.exit)
	case strings.HasPrefix(msg, "Unrecognized remote plugin message"):
		line := strings.TrimSpace(strings.TrimPrefix(first, "Unrecognized remote plugin message:"))
		text = fmt.Sprintf("host: plugin %q (%s) failed the handshake: its first line on stdout was %q, not a go-plugin handshake (a plugin must not write to stdout)",
			p.Name, p.Path, line)
	default:
		text = fmt.Sprintf("host: plugin %q (%s) failed to start: %s", p.Name, p.Path, first)
	}
	return &hostError{msg: text + stderrNote(inst.stderr.lines()), errs: errs}
}

// callError turns the error of a call on inst into what the caller sees. When the process
// died, the instance is discarded (the next call starts a new one) and the error says so.
func (s *supervisor) callError(ctx context.Context, inst *instance, err error) error {
	if s.isClosed() {
		return &hostError{msg: fmt.Sprintf("host: plugin %q: the host was closed: %v", s.plugin.Name, err), errs: []error{ErrClosed, err}}
	}
	if ctx.Err() != nil {
		// Cancelled or past its deadline: the plugin may well be fine, only slow.
		return err
	}
	wait := time.Duration(0)
	if errors.Is(err, sdk.ErrUnavailable) {
		wait = exitGrace
	}
	if !inst.waitExited(wait) {
		return err
	}
	s.discard(inst)
	next := "the next call starts a new process"
	if s.isClosed() {
		next = "the host is closed"
	} else if loopErr := s.admitErr(); loopErr != nil {
		next = "it will not be restarted: " + loopErr.Error()
	}
	return &hostError{
		msg: fmt.Sprintf("host: plugin %q (%s) exited during the call (%s); %s%s: %v",
			s.plugin.Name, s.plugin.Path, inst.exit, next, stderrNote(inst.stderr.lines()), err),
		errs: []error{sdk.ErrUnavailable, err},
	}
}

// admitErr reports the crash-loop error a start would get now, if any.
func (s *supervisor) admitErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.admitLocked(time.Now())
	return err
}

// discard takes a dead instance out of use, records the failure once, and reaps the process.
func (s *supervisor) discard(inst *instance) {
	s.mu.Lock()
	if s.cur == inst {
		s.cur = nil
	}
	first := !inst.discarded
	inst.discarded = true
	s.mu.Unlock()
	inst.kill()
	if first {
		s.failed(inst, errors.New(inst.exit))
	}
	s.forget(inst)
}

// failed records a failure of inst: a failed start or a process that died.
func (s *supervisor) failed(inst *instance, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == inst {
		s.cur = nil
	}
	inst.discarded = true
	if s.closed {
		return
	}
	s.failures = append(s.failures, time.Now())
	first, _, _ := strings.Cut(err.Error(), "\n")
	s.lastFail = first
	s.lastStderr = inst.stderr.lines()
}

// forget drops a killed instance from the live set.
func (s *supervisor) forget(inst *instance) {
	s.mu.Lock()
	delete(s.live, inst)
	s.mu.Unlock()
}

func (s *supervisor) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// close stops every process of the supervisor and waits until they are reaped.
func (s *supervisor) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.closing)
	s.cur = nil
	live := make([]*instance, 0, len(s.live))
	for inst := range s.live {
		live = append(live, inst)
	}
	s.mu.Unlock()
	for _, inst := range live {
		<-inst.ready
		inst.kill()
		s.forget(inst)
	}
}

// kill stops the process, if any, waits until it is reaped, and frees the spawning thread.
// It is idempotent; concurrent callers all wait for the first.
func (inst *instance) kill() {
	inst.killOnce.Do(func() {
		if inst.client != nil {
			inst.client.Kill()
		}
		// client.Kill waited for go-plugin's goroutine that reaps the process, so ProcessState
		// is set and safe to read.
		switch {
		case inst.cmd != nil && inst.cmd.ProcessState != nil:
			inst.exit = inst.cmd.ProcessState.String()
		case inst.cmd != nil && inst.cmd.Process != nil:
			inst.exit = "exit status unknown"
		default:
			inst.exit = "not started"
		}
		close(inst.release)
	})
}

// waitExited reports whether the process has exited, waiting up to d for it to.
func (inst *instance) waitExited(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if inst.client.Exited() {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// info asks the plugin's service of kind for its Info, once per process.
func (inst *instance) info(ctx context.Context, kind sdkplugin.Kind) (sdkplugin.Info, error) {
	inst.infoMu.Lock()
	info, ok := inst.infos[kind]
	inst.infoMu.Unlock()
	if ok {
		return info, nil
	}
	var err error
	if kind == sdkplugin.KindSentence {
		info, err = inst.sentence.Info(ctx)
	} else {
		info, err = inst.tokenizer.Info(ctx)
	}
	if err != nil {
		return sdkplugin.Info{}, err
	}
	inst.infoMu.Lock()
	inst.infos[kind] = info
	inst.infoMu.Unlock()
	return info, nil
}

// hostError is an error with its own message that matches the errors in errs.
type hostError struct {
	msg  string
	errs []error
}

func (e *hostError) Error() string   { return e.msg }
func (e *hostError) Unwrap() []error { return e.errs }

// stderrNote renders the last stderr lines of a plugin for an error message.
func stderrNote(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = fmt.Sprintf("%q", l)
	}
	return "; its last stderr lines: " + strings.Join(q, ", ")
}

// quietLogger demotes go-plugin's "plugin failed to exit gracefully" warning to debug when
// the process is known to be gone already (a failed start, which go-plugin killed itself):
// there was nothing to exit gracefully, and the warning would mislead.
type quietLogger struct {
	hclog.Logger
	dead *atomic.Bool
}

func (l quietLogger) Warn(msg string, args ...any) {
	if l.dead.Load() && msg == "plugin failed to exit gracefully" {
		l.Logger.Debug(msg, args...)
		return
	}
	l.Logger.Warn(msg, args...)
}
