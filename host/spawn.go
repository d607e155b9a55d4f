package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin/runner"
)

// hostDirPrefix starts the name of a host's private directory in $TMPDIR:
// chunkkit-plugins-PID-RANDOM, PID being the host's, so that a later host can tell the
// directory of a dead one and remove it.
const hostDirPrefix = "chunkkit-plugins-"

// pipeGrace is how long, after a plugin process has been reaped, the host keeps reading its
// stdout and stderr before closing them: output still buffered arrives at once, and a process
// that escaped its group (and so the kill) cannot hold the host up.
const pipeGrace = 200 * time.Millisecond

// spawner is what one Host starts its plugins with: a private 0700 directory (go-plugin's
// socket directories, the plugins' TMPDIR), made on the first start and removed on Close, and
// a watchdog process that kills the plugins' process groups and removes the directory if the
// host dies without closing.
type spawner struct {
	logger hclog.Logger

	mu     sync.Mutex
	dir    string // "" until the first start
	wd     *watchdog
	closed bool

	certOnce sync.Once
	cert     *clientCert
	certErr  error
}

// clientCert returns the host's client certificate, making it on first use.
func (sp *spawner) clientCert() (*clientCert, error) {
	sp.certOnce.Do(func() { sp.cert, sp.certErr = newClientCert() })
	return sp.cert, sp.certErr
}

// prepare returns the host's private directory, making it (and starting the watchdog) on
// first use. It first removes the directories of hosts that died without removing theirs.
func (sp *spawner) prepare() (string, *watchdog, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.closed {
		return "", nil, ErrClosed
	}
	if sp.dir != "" {
		return sp.dir, sp.wd, nil
	}
	base := hostDirBase()
	sweepStaleDirs(base, sp.logger)
	dir, err := os.MkdirTemp(base, hostDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", nil, fmt.Errorf("making the host's private directory: %w", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o700); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("making the plugins' TMPDIR: %w", err)
	}
	wd, err := startWatchdog(dir)
	if err != nil {
		// Pdeathsig still covers each plugin process, not its children.
		sp.logger.Warn("no watchdog: if the host dies without closing, plugins' child processes may survive it", "error", err)
	}
	sp.dir, sp.wd = dir, wd
	return dir, wd, nil
}

// close stops the watchdog and removes the private directory. The plugins must be gone.
func (sp *spawner) close() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.closed = true
	sp.wd.close()
	sp.wd = nil
	if sp.dir != "" {
		if err := os.RemoveAll(sp.dir); err != nil {
			sp.logger.Warn("removing the host's private directory", "dir", sp.dir, "error", err)
		}
	}
}

// maxSocketPath is the longest Unix socket path every supported system takes (104 bytes on
// macOS, 108 on Linux), less a margin.
const maxSocketPath = 100

// hostDirBase returns where a host makes its private directory: $TMPDIR, unless the sockets
// go-plugin makes in it ("/plugin-dirNNNNNNNNNN/pluginNNNNNNNNNN" below the directory) would
// be too long a path, as under macOS's long $TMPDIR; then /tmp.
func hostDirBase() string {
	base := os.TempDir()
	if len(base)+len("/"+hostDirPrefix+"4194304-1234567890")+len("/plugin-dir1234567890/plugin1234567890") > maxSocketPath {
		if fi, err := os.Stat("/tmp"); err == nil && fi.IsDir() {
			return "/tmp"
		}
	}
	return base
}

// sweepStaleDirs removes the private directories in tmp of hosts of this user that are no
// longer running: a host killed before its watchdog could clean up leaves one.
func sweepStaleDirs(tmp string, logger hclog.Logger) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), hostDirPrefix)
		if !ok || !e.IsDir() { // IsDir is false for a symlink
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || alivePID(pid) {
			continue
		}
		path := filepath.Join(tmp, e.Name())
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if uid, ok := fileOwner(fi); ok && uid != os.Geteuid() {
			continue
		}
		if err := os.RemoveAll(path); err == nil {
			logger.Debug("removed the directory of a dead host", "dir", path)
		}
	}
}

// proc is one plugin process, as go-plugin's runner.Runner: the host's replacement for
// go-plugin's own runner, so that it executes the checked file, starts the plugin in its own
// process group with the documented environment and no stdin, kills the whole group, and
// never waits forever for pipes a plugin's children hold.
type proc struct {
	name   string // the plugin's binary path, for logs
	cmd    *exec.Cmd
	bin    *checkedBinary
	link   string // the directory of the symlink that executes bin, removed after the start
	wd     *watchdog
	stdout *pipeReader
	stderr *pipeReader
	outW   *os.File
	errW   *os.File

	done chan struct{} // closed once the process is reaped and its pipes are closed

	mu      sync.Mutex
	pid     int  // 0 until started
	stopped bool // kill was called: a start after it kills at once
	reaped  bool
	state   *os.ProcessState
	waitErr error
}

// newProc prepares the start of p (checked, in bin) with go-plugin's cmd, whose Env holds
// the handshake's variables, in the host's private directory dir.
func newProc(p Plugin, bin *checkedBinary, goCmd *exec.Cmd, dir string, wd *watchdog) (*proc, error) {
	target := p.Path
	pr := &proc{name: p.Path, bin: bin, wd: wd, done: make(chan struct{})}
	if execByFD && !bin.script {
		// Execute the open, checked file through a symlink named like the binary (the kernel
		// names the process after the path it executes), in the host's private directory,
		// which nobody else can write.
		link, err := os.MkdirTemp(dir, "exec-")
		if err != nil {
			return nil, err
		}
		target = filepath.Join(link, filepath.Base(p.Path))
		if err := os.Symlink(fdPath(bin.f), target); err != nil {
			os.RemoveAll(link)
			return nil, err
		}
		pr.link = link
	}
	cmd := exec.Command(target, p.Args...)
	cmd.Args[0] = p.Path
	cmd.Env = pluginEnv(p.Env, filepath.Join(dir, "tmp"), goCmd.Env)
	cmd.Stdin = nil // /dev/null
	cmd.SysProcAttr = procAttr()
	var err error
	var outR, errR *os.File
	if outR, pr.outW, err = os.Pipe(); err != nil {
		pr.cleanup()
		return nil, err
	}
	if errR, pr.errW, err = os.Pipe(); err != nil {
		outR.Close()
		pr.outW.Close()
		pr.cleanup()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = pr.outW, pr.errW
	pr.stdout, pr.stderr = newPipeReader(outR), newPipeReader(errR)
	pr.cmd = cmd
	return pr, nil
}

// cleanup drops what only the start needed: the symlink and the open binary.
func (pr *proc) cleanup() {
	if pr.link != "" {
		os.RemoveAll(pr.link)
		pr.link = ""
	}
	pr.bin.f.Close()
}

// Start starts the process. The context is go-plugin's start timeout; the supervisor bounds
// the start itself.
func (pr *proc) Start(context.Context) error {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.stopped {
		pr.cleanup()
		pr.closePipes()
		close(pr.done)
		return errors.New("stopped before it started")
	}
	err := pr.cmd.Start()
	pr.cleanup()
	pr.outW.Close()
	pr.errW.Close()
	if err != nil {
		pr.closePipes()
		close(pr.done)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is /proc/self/fd/N or the symlink: say the binary's
		}
		return fmt.Errorf("exec %s: %w", pr.name, err)
	}
	pr.pid = pr.cmd.Process.Pid
	pr.wd.add(pr.pid)
	go pr.wait()
	return nil
}

// wait reaps the process. When it has exited, and before it is reaped (so that its group ID
// cannot have been reused), the rest of its group is killed: a plugin takes what it started
// down with it.
func (pr *proc) wait() {
	awaitExit(pr.pid)
	pr.mu.Lock()
	killGroup(pr.pid)
	pr.mu.Unlock()
	err := pr.cmd.Wait()
	// Until the rest of the group is gone too (reaped by its parent, or by init), or a bound:
	// a process that ignored the kill's wake-up for longer is the kernel's business.
	for deadline := time.Now().Add(time.Second); !groupGone(pr.pid) && time.Now().Before(deadline); {
		killGroup(pr.pid) // where awaitExit cannot wait without reaping, the first kill
		time.Sleep(5 * time.Millisecond)
	}
	pr.mu.Lock()
	pr.reaped, pr.state, pr.waitErr = true, pr.cmd.ProcessState, err
	pr.mu.Unlock()
	pr.wd.remove(pr.pid)
	t := time.NewTimer(pipeGrace)
	for _, r := range []*pipeReader{pr.stdout, pr.stderr} {
		select {
		case <-r.eof:
		case <-t.C:
		}
	}
	t.Stop()
	pr.closePipes()
	close(pr.done)
}

func (pr *proc) closePipes() {
	pr.stdout.close()
	pr.stderr.close()
}

// kill SIGKILLs the process group, if the process is running; a start after it fails.
func (pr *proc) kill() {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.stopped = true
	if pr.pid != 0 && !pr.reaped {
		killGroup(pr.pid)
	}
}

// exitState says how the process ended: "exit status 3", "signal: killed".
func (pr *proc) exitState() string {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	switch {
	case pr.state != nil:
		return pr.state.String()
	case pr.pid == 0:
		return "not started"
	default:
		return "exit status unknown"
	}
}

// Wait waits until the process is reaped, as runner.Runner.
func (pr *proc) Wait(context.Context) error {
	<-pr.done
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.waitErr
}

// Kill kills the process group, as runner.Runner (go-plugin calls it after its graceful
// shutdown, or on a failed start).
func (pr *proc) Kill(context.Context) error {
	pr.kill()
	return nil
}

func (pr *proc) Stdout() io.ReadCloser { return pr.stdout }
func (pr *proc) Stderr() io.ReadCloser { return pr.stderr }
func (pr *proc) Name() string          { return pr.name }

// ID is the process ID, "" before the start (go-plugin then has nothing to kill).
func (pr *proc) ID() string {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.pid == 0 {
		return ""
	}
	return strconv.Itoa(pr.pid)
}

// Diagnose adds nothing: the supervisor explains failed starts itself.
func (pr *proc) Diagnose(context.Context) string { return "" }

func (pr *proc) PluginToHost(network, addr string) (string, string, error) { return network, addr, nil }
func (pr *proc) HostToPlugin(network, addr string) (string, string, error) { return network, addr, nil }

var _ runner.Runner = (*proc)(nil)

// pipeReader is a plugin's stdout or stderr. Once the host closes it, reads end as at the
// end of the output rather than with an error, which go-plugin would log.
type pipeReader struct {
	f       *os.File
	once    sync.Once
	eofOnce sync.Once
	eof     chan struct{} // closed when a read reached the end of the output
}

func newPipeReader(f *os.File) *pipeReader { return &pipeReader{f: f, eof: make(chan struct{})} }

func (r *pipeReader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if errors.Is(err, os.ErrClosed) {
		err = io.EOF
	}
	if err == io.EOF {
		r.eofOnce.Do(func() { close(r.eof) })
	}
	return n, err
}

func (r *pipeReader) Close() error {
	r.close()
	return nil
}

func (r *pipeReader) close() { r.once.Do(func() { r.f.Close() }) }
