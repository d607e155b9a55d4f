package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/internal/pluginclient"
	"github.com/chunkkit/chunkkit/sdk"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

// exitGrace is how long a failed call waits for the process to be found gone: a crash fails
// the call (EOF on the connection) a few milliseconds before the process is reaped.
const exitGrace = time.Second

// killWait bounds the wait for go-plugin to finish its part of a kill once the process group
// has been SIGKILLed; past it the host logs an error and moves on rather than hang.
const killWait = 5 * time.Second

// supervisor runs one plugin: at most one process at a time (the current instance), started on
// demand, replaced after a failure within the restart limits.
type supervisor struct {
	plugin Plugin
	opts   Options
	calls  atomic.Int64 // the calls made on the plugin's processes (call's rpc runs)
	logger hclog.Logger
	spawn  *spawner

	closing chan struct{} // closed by close

	mu       sync.Mutex
	cur      *instance              // the process calls use; nil when none is running or starting
	live     map[*instance]struct{} // every instance not yet killed
	failures []time.Time            // failures within the restart window, oldest first
	lastFail string                 // what the last failure was, with the plugin's stderr, once
	starts   int                    // processes started, for tests
	closed   bool
	// expected lists, by kind, the models counters and splitters were made for: a process
	// starts loading them while it completes the handshake (sdkplugin.PreloadEnv).
	expected map[sdkplugin.Kind][]string
}

func newSupervisor(p Plugin, opts Options, sp *spawner) *supervisor {
	return &supervisor{
		plugin:  p,
		opts:    opts,
		logger:  opts.Logger.Named(p.Name),
		spawn:   sp,
		closing: make(chan struct{}),
		live:    make(map[*instance]struct{}),
	}
}

// instance is one plugin process and the clients talking to it.
type instance struct {
	ready chan struct{} // closed when the start has ended; err, client etc. are set before
	err   error         // the start error, nil once running

	client    *plugin.Client
	conn      *grpc.ClientConn
	protocol  int
	tokenizer *pluginclient.TokenizerClient
	sentence  *pluginclient.SentenceClient
	stderr    *tail

	release  chan struct{} // closed after the process is gone: frees the spawning thread
	killOnce sync.Once
	dead     atomic.Bool // the process is known to be gone before kill: quiets go-plugin's warning
	exit     string      // how the process ended, set by kill

	pmu     sync.Mutex
	proc    *proc  // set once go-plugin asks for the runner
	aborted string // why the start was cut short: "timeout" or "closed"

	infoMu sync.Mutex
	infos  map[sdkplugin.Kind]sdkplugin.Info

	// Guarded by supervisor.mu.
	discarded bool // the failure has been recorded
	retired   bool // no new calls: killed once inflight drops to 0
	hung      bool // retired and killed at once for missing a call's deadline
	inflight  int  // calls that got this instance from get and have not released it
}

// getProc returns the process, or nil before go-plugin asked for it.
func (inst *instance) getProc() *proc {
	inst.pmu.Lock()
	defer inst.pmu.Unlock()
	return inst.proc
}

// setProc records the process of a start; one aborted already is killed before it starts.
func (inst *instance) setProc(pr *proc) {
	inst.pmu.Lock()
	defer inst.pmu.Unlock()
	inst.proc = pr
	if inst.aborted != "" {
		pr.kill()
	}
}

// abort cuts a start short: the process group, if started, is killed, which ends every wait
// of go-plugin's start.
func (inst *instance) abort(why string) {
	inst.pmu.Lock()
	if inst.aborted == "" {
		inst.aborted = why
	}
	pr := inst.proc
	inst.pmu.Unlock()
	if pr != nil {
		pr.kill()
	}
}

func (inst *instance) abortedFor() string {
	inst.pmu.Lock()
	defer inst.pmu.Unlock()
	return inst.aborted
}

// expect records that a counter or splitter of kind is made for model: every process started
// from now on is told to preload it.
func (s *supervisor) expect(kind sdkplugin.Kind, model string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Contains(s.expected[kind], model) {
		return
	}
	if s.expected == nil {
		s.expected = make(map[sdkplugin.Kind][]string)
	}
	s.expected[kind] = append(s.expected[kind], model)
}

// preloadHint returns the value of sdkplugin.PreloadEnv for a new process, or "" when no model
// is expected.
func (s *supervisor) preloadHint() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.expected) == 0 {
		return ""
	}
	hint, err := json.Marshal(s.expected)
	if err != nil {
		return "" // a map of strings always marshals
	}
	return string(hint)
}

// get returns the running instance, starting one if there is none, and counts the caller in
// its calls: the caller must call release when its call has ended. Concurrent callers share
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
		inst.inflight++
		s.mu.Unlock()

		select {
		case <-inst.ready: // running already: do not let a done ctx win the race below
		default:
			select {
			case <-inst.ready:
			case <-ctx.Done():
				s.release(inst)
				return nil, fmt.Errorf("host: plugin %q: waiting for it to start: %w", s.plugin.Name, ctx.Err())
			}
		}
		if inst.err != nil {
			s.release(inst)
			return nil, inst.err
		}
		if !inst.exited() {
			return inst, nil
		}
		// It died between calls: no call was in flight, so start a new one transparently.
		s.release(inst)
		s.discard(inst)
		s.logger.Warn("plugin exited between calls; restarting it", "exit", inst.exit)
	}
}

// release ends a call that get counted. The last call on a retired instance stops it.
func (s *supervisor) release(inst *instance) {
	s.mu.Lock()
	inst.inflight--
	idle := inst.retired && inst.inflight == 0
	s.mu.Unlock()
	if idle {
		go s.stop(inst)
	}
}

// stop kills inst and forgets it.
func (s *supervisor) stop(inst *instance) {
	<-inst.ready
	inst.kill(s.opts.StopTimeout, s.logger)
	s.forget(inst)
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
	fmt.Fprintf(&b, "host: plugin %q (%s) keeps failing: %s", s.plugin.Name, s.plugin.Path, s.limitLocked(n))
	if s.lastFail != "" {
		b.WriteString("; last failure: " + s.lastFail)
	}
	return &hostError{msg: b.String(), errs: []error{ErrCrashLoop}}
}

// limitLocked says how the restart limit was reached. s.mu is held.
func (s *supervisor) limitLocked(n int) string {
	return fmt.Sprintf("%d failures in the last %v (at most %d restarts allowed); not starting it again before %s",
		n, s.opts.RestartWindow, s.opts.MaxRestarts, s.failures[0].Add(s.opts.RestartWindow).Format(time.TimeOnly))
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
	// The start timeout bounds the whole start, whatever the plugin forks: at the deadline, or
	// when the host closes, the process group is killed, which ends every wait of the start.
	started := make(chan struct{})
	timer := time.AfterFunc(s.opts.StartTimeout, func() { inst.abort("timeout") })
	go func() {
		select {
		case <-s.closing:
			inst.abort("closed")
		case <-started:
		}
	}()
	err := s.start(inst)
	timer.Stop()
	close(started)
	if err != nil {
		inst.dead.Store(true) // go-plugin has killed it already
		inst.kill(s.opts.StopTimeout, s.logger)
		msg, cause := s.startError(inst, err)
		inst.err = msg
		s.failed(inst, cause)
		s.forget(inst)
		close(inst.ready)
		return
	}
	close(inst.ready)
	<-inst.release
}

// start checks the binary, execs it (through proc), completes the handshake and dispenses
// the service clients. The checks (the binary's SHA-256 above all), the host's private
// directory and watchdog, and on the first start the host's client certificate are made at
// the same time.
func (s *supervisor) start(inst *instance) error {
	sum, err := hex.DecodeString(s.plugin.SHA256)
	if err != nil || len(sum) != sha256.Size {
		return fmt.Errorf("manifest %s: sha256 %q is not 64 hex digits", s.plugin.Manifest, s.plugin.SHA256)
	}
	p := s.plugin
	var (
		wg      sync.WaitGroup
		bin     *checkedBinary
		cert    *clientCert
		binErr  error
		certErr error
	)
	wg.Go(func() { bin, binErr = p.openChecked() })
	wg.Go(func() { cert, certErr = s.spawn.clientCert() })
	dir, wd, err := s.spawn.prepare()
	wg.Wait()
	// bin is executed by the runner go-plugin asks for; until then it is closed here.
	defer func() {
		if bin != nil {
			bin.f.Close()
		}
	}()
	if err = errors.Join(binErr, err, certErr); err != nil {
		return err
	}
	s.logger.Trace("binary checked", "path", p.Path)
	s.logger.Debug("configuring mutual TLS with the host's client certificate")
	hint := s.preloadHint()
	inst.client = plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  pluginclient.Handshake(),
		VersionedPlugins: pluginclient.VersionedPlugins(p.Name),
		// The host's own runner instead of go-plugin's: go-plugin hashes the binary by path and
		// then executes the path, gives the plugin the host's environment and stdin, and kills
		// only the process, not what it started.
		RunnerFunc: func(_ hclog.Logger, cmd *exec.Cmd, _ string) (runner.Runner, error) {
			cmd.Env = append(cmd.Env, "PLUGIN_CLIENT_CERT="+cert.pem)
			if hint != "" {
				cmd.Env = append(cmd.Env, sdkplugin.PreloadEnv+"="+hint)
			}
			checked := bin
			bin = nil // the proc owns it now
			pr, err := newProc(p, checked, cmd, dir, wd)
			if err != nil {
				checked.f.Close()
				return nil, err
			}
			inst.setProc(pr)
			return pr, nil
		},
		SkipHostEnv:      true,
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: dir},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		// Mutual TLS as go-plugin's AutoMTLS, with the host's certificate (clientCert).
		TLSConfig:       cert.tlsConfig(),
		GRPCDialOptions: pluginclient.DialOptions(),
		Logger:          pluginLogger{Logger: s.logger, dead: &inst.dead, stderrName: stderrLoggerName(p.Path)},
		StartTimeout:    s.opts.StartTimeout,
		Stderr:          inst.stderr, // the process's own stderr
		SyncStderr:      inst.stderr, // os.Stderr inside the plugin once it serves
		SyncStdout:      io.Discard,
	})
	rpc, err := inst.client.Client()
	if err != nil {
		return err
	}
	if g, ok := rpc.(*plugin.GRPCClient); ok {
		inst.conn = g.Conn
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

// startError explains a failed start: the error for the caller, and the cause (with the
// plugin's stderr) that a crash-loop error repeats.
func (s *supervisor) startError(inst *instance, err error) (error, string) {
	p := s.plugin
	if inst.abortedFor() == "closed" || s.isClosed() {
		return fmt.Errorf("host: plugin %q: %w", p.Name, ErrClosed), "the host was closed"
	}
	msg := err.Error()
	first, _, _ := strings.Cut(msg, "\n")
	var cause string
	var ref *refusal
	switch {
	case errors.As(err, &ref):
		cause = strings.TrimPrefix(ref.msg, fmt.Sprintf("host: plugin %q: ", p.Name)) + "; refusing to start it"
	case inst.abortedFor() == "timeout", strings.Contains(msg, "timeout while waiting for plugin to start"):
		cause = fmt.Sprintf("did not complete the handshake within the start timeout (%v)", s.opts.StartTimeout)
	case strings.Contains(msg, "plugin exited before we could connect"),
		strings.Contains(msg, "Failed to read any lines from plugin's stdout"):
		cause = fmt.Sprintf("exited before the handshake (%s)", inst.exit)
	case strings.HasPrefix(msg, "Unrecognized remote plugin message"):
		line := strings.TrimSpace(strings.TrimPrefix(first, "Unrecognized remote plugin message:"))
		cause = fmt.Sprintf("wrote to stdout before the handshake: %q; plugins must log to stderr (stdout carries go-plugin's handshake line, which must come first)", line)
	default:
		cause = "failed to start: " + first
	}
	cause += inst.stderr.note()
	return &hostError{msg: fmt.Sprintf("host: plugin %q (%s) %s", p.Name, p.Path, cause), errs: []error{sdk.ErrUnavailable, err}}, cause
}

// callError turns the error of a call on inst into what the caller sees. When the process
// died, the instance is discarded (the next call starts a new one) and the error says so;
// when it missed the call's deadline or its connection failed, it is replaced. An error
// matches context.Canceled or context.DeadlineExceeded only when the caller's context ended.
func (s *supervisor) callError(ctx context.Context, inst *instance, err error) error {
	p := s.plugin
	if s.isClosed() {
		return &hostError{msg: fmt.Sprintf("host: plugin %q: the host was closed: %v", p.Name, err), errs: []error{ErrClosed}}
	}
	ctxErr := ctx.Err()
	if dl, ok := ctx.Deadline(); ok && ctxErr == nil && !time.Now().Before(dl) {
		// gRPC ends a call at the context's deadline by its own timer, which may fire a
		// moment before the context's: the deadline has passed all the same.
		ctxErr = context.DeadlineExceeded
	}
	switch ctxErr {
	case context.Canceled:
		return err // the caller cancelled: the plugin may well be fine
	case context.DeadlineExceeded:
		s.retireHung(inst)
		return &hostError{
			msg: fmt.Sprintf("host: plugin %q (%s) did not answer before the call's deadline; it is being replaced: the next call starts a new process: %v",
				p.Name, p.Path, err),
			errs: []error{context.DeadlineExceeded},
		}
	}
	// The caller's context is fine, so a cancellation or a deadline here comes from the
	// connection being torn down: a failure of the plugin, not the caller's doing.
	teardown := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
	transport := teardown || errors.Is(err, sdk.ErrUnavailable)
	wait := time.Duration(0)
	if transport {
		wait = exitGrace
	}
	cause := ": " + err.Error()
	errs := []error{sdk.ErrUnavailable, err}
	if teardown {
		cause, errs = "", []error{sdk.ErrUnavailable}
	}
	if !inst.waitExited(wait) {
		if !transport {
			return err
		}
		s.retire(inst, "its connection failed")
		return &hostError{
			msg: fmt.Sprintf("host: plugin %q (%s): the connection to it failed; it is being replaced: the next call starts a new process%s",
				p.Name, p.Path, cause),
			errs: errs,
		}
	}
	s.discard(inst)
	next := "the next call starts a new process"
	if s.isClosed() {
		next = "the host is closed"
	} else if limit := s.limitReached(); limit != "" {
		next = "it will not be restarted: " + limit
	}
	return &hostError{
		msg: fmt.Sprintf("host: plugin %q (%s) exited during the call (%s); %s%s%s",
			p.Name, p.Path, inst.exit, next, inst.stderr.note(), cause),
		errs: errs,
	}
}

// limitReached says how the restart limit was reached, or "" if a start may follow.
func (s *supervisor) limitReached() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.admitLocked(time.Now()); err == nil {
		return ""
	}
	return s.limitLocked(len(s.failures))
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
	inst.dead.Store(true)
	inst.kill(s.opts.StopTimeout, s.logger)
	if first {
		s.failed(inst, fmt.Sprintf("exited during a call (%s)%s", inst.exit, inst.stderr.note()))
	}
	s.forget(inst)
}

// retire takes a live instance that cannot be trusted with calls out of use and records the
// failure once: new calls get a new process, and it is killed when its last call ends.
func (s *supervisor) retire(inst *instance, why string) {
	s.mu.Lock()
	if s.cur == inst {
		s.cur = nil
	}
	first := !inst.discarded
	inst.discarded = true
	inst.retired = true
	idle := inst.inflight == 0
	s.mu.Unlock()
	if first {
		s.logger.Info("replacing the plugin process", "reason", why)
		s.failed(inst, why+inst.stderr.note())
	}
	if idle {
		go s.stop(inst)
	}
}

// retireHung retires inst for missing a call's deadline and kills it now, without the
// graceful shutdown a process that does not answer would not honour: the other calls in flight
// on it end at once, and supervisor.call runs them again on a new process.
func (s *supervisor) retireHung(inst *instance) {
	s.mu.Lock()
	inst.hung = true
	s.mu.Unlock()
	s.retire(inst, "it did not answer before a call's deadline")
	go func() {
		<-inst.ready
		inst.kill(0, s.logger)
		s.forget(inst)
	}()
}

// killedAsHung reports whether inst was killed for missing a call's deadline (retireHung).
func (s *supervisor) killedAsHung(inst *instance) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return inst.hung
}

// failed records a failure of inst: a failed start, a process that died or one replaced.
func (s *supervisor) failed(inst *instance, cause string) {
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
	s.lastFail = cause
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

// close stops every process of the supervisor and waits until they are reaped. A start in
// progress is cut short.
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
	var wg sync.WaitGroup
	for _, inst := range live {
		wg.Go(func() { s.stop(inst) })
	}
	wg.Wait()
}

// kill stops the process, if any, and waits until it is reaped, within bounds: go-plugin's
// graceful shutdown gets grace, then the process group is SIGKILLed and the connection
// closed. It frees the spawning thread. It is idempotent; concurrent callers all wait for
// the first.
func (inst *instance) kill(grace time.Duration, logger hclog.Logger) {
	inst.killOnce.Do(func() {
		pr := inst.getProc()
		switch {
		case inst.client != nil:
			done := make(chan struct{})
			go func() {
				inst.client.Kill() // asks the plugin to shut down, and waits for it
				close(done)
			}()
			t := time.NewTimer(grace)
			select {
			case <-done:
			case <-t.C:
				// go-plugin's Shutdown call waits for as long as the process lives.
				inst.dead.Store(true)
				if pr != nil {
					pr.kill()
				}
				if inst.conn != nil {
					inst.conn.Close()
				}
				select {
				case <-done:
				case <-time.After(killWait):
					logger.Error("the plugin's process group was killed, but go-plugin has not finished stopping it; moving on")
				}
			}
			t.Stop()
		case pr != nil:
			pr.kill()
		}
		if pr != nil {
			select {
			case <-pr.done:
			case <-time.After(killWait):
				logger.Error("the plugin's process group was killed, but its process has not been reaped; moving on")
			}
			inst.exit = pr.exitState()
		} else {
			inst.exit = "not started"
		}
		close(inst.release)
	})
}

// exited reports whether the process has exited and been reaped.
func (inst *instance) exited() bool {
	pr := inst.getProc()
	if pr == nil {
		return true
	}
	select {
	case <-pr.done:
		return true
	default:
		return false
	}
}

// waitExited reports whether the process has exited, waiting up to d for it to.
func (inst *instance) waitExited(d time.Duration) bool {
	pr := inst.getProc()
	if pr == nil {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-pr.done:
		return true
	case <-t.C:
		return inst.exited()
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
