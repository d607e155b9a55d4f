package host

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

// The test plugins, built once by TestMain: faultyBin misbehaves on request
// (testdata/faulty), servedBin is built on sdk/serve (testdata/served).
var faultyBin, servedBin string

// helperEnv makes the test binary act as a host process for the tests that kill a host:
// its value is the mode, helperDirEnv the plugin directory, helperSpecEnv the spec to open.
const (
	helperEnv     = "CHUNKKIT_HOST_TEST_HELPER"
	helperDirEnv  = "CHUNKKIT_HOST_TEST_DIR"
	helperSpecEnv = "CHUNKKIT_HOST_TEST_SPEC"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helperMain(mode, os.Getenv(helperDirEnv), os.Getenv(helperSpecEnv)))
	}
	dir, err := os.MkdirTemp("", "ckhost-") // short: sockets live below it
	if err != nil {
		fmt.Fprintln(os.Stderr, "host tests:", err)
		os.Exit(1)
	}
	// A $TMPDIR of their own, so that the tests can check that no socket or temporary file of a
	// host or plugin is left in it.
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "host tests:", err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", tmp)
	faultyBin, servedBin = filepath.Join(dir, "faulty"), filepath.Join(dir, "served")
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./testdata/faulty", "./testdata/served")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "host tests: building the test plugins: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// helperMain is a host process: it opens spec with the plugins in dir, counts once, prints
// the plugin's PID and waits to be killed. In mode "sigterm" it also calls CloseOnSignal.
func helperMain(mode, dir, spec string) int {
	sp, err := ParseSpec(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	cat, err := Load(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	logger := hclog.New(&hclog.LoggerOptions{Name: "helper", Level: hclog.Info, Output: os.Stderr})
	h := New(cat, Options{Logger: logger})
	tc, err := h.TokenCounter(context.Background(), spec)
	if err == nil {
		_, err = tc.Count(context.Background(), []string{"warm up"})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	if mode == "sigterm" {
		CloseOnSignal(h)
	}
	fmt.Println(pluginPID(h, sp.Plugin))
	time.Sleep(time.Hour)
	return 0
}

// pluginPID returns the PID of the running process of the plugin called name, or 0.
func pluginPID(h *Host, name string) int {
	h.mu.Lock()
	s := h.sups[name]
	h.mu.Unlock()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	inst := s.cur
	s.mu.Unlock()
	if inst == nil {
		return 0
	}
	select {
	case <-inst.ready: // orders the reads below after the start's writes
	default:
		return 0
	}
	if inst.client == nil {
		return 0
	}
	pid, _ := strconv.Atoi(inst.client.ID())
	return pid
}

// starts returns how many processes the host started for the plugin called name.
func starts(h *Host, name string) int {
	h.mu.Lock()
	s := h.sups[name]
	h.mu.Unlock()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.starts
}

var linkSeq atomic.Int64

// setup puts a link to the faulty plugin, under a name unique to the test, and a manifest
// listing it as "faulty" with args into a new directory. It returns the directory and the
// binary's path.
func setup(t *testing.T, args ...string) (dir, bin string) {
	t.Helper()
	dir = t.TempDir()
	bin = linkFaulty(t, dir)
	err := BuildManifest(dir, []Entry{{Name: "faulty", Binary: filepath.Base(bin), Args: args, Kinds: []plugin.Kind{plugin.KindTokenizer, plugin.KindSentence}}})
	if err != nil {
		t.Fatal(err)
	}
	return dir, bin
}

// linkFaulty links the faulty plugin into dir under a name unique to the test (so that its
// processes can be told from other tests') and returns its path.
func linkFaulty(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, fmt.Sprintf("fk%d", linkSeq.Add(1)))
	if err := os.Link(faultyBin, bin); err != nil {
		copyFile(t, faultyBin, bin)
	}
	return bin
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// newHost returns a Host for the manifests in dir, closed when the test ends. Its logs are
// shown when the test fails.
func newHost(t *testing.T, dir string, opts Options) *Host {
	t.Helper()
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Logger == nil {
		var buf lockedBuffer
		opts.Logger = hclog.New(&hclog.LoggerOptions{Name: "test", Level: hclog.Debug, Output: &buf})
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("host log:\n%s", buf.String())
			}
		})
	}
	h := New(cat, opts)
	t.Cleanup(func() { h.Close() })
	return h
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// checkLeaks makes the test fail if, when it ends (after the cleanups registered later, such
// as the host's Close), a process of bin is left — running or a zombie —, a child process of
// the test, a host's directory or a plugin's socket in $TMPDIR, or goroutines started since.
// Call it before creating the host. Tests that call it must not be parallel: goroutines,
// children and $TMPDIR are process-wide.
func checkLeaks(t *testing.T, bin string) {
	t.Helper()
	requireLinux(t)
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		if procs := leftBy(bin); len(procs) > 0 {
			t.Errorf("plugin processes left after Close: %s", strings.Join(procs, "; "))
		}
		if kids := childrenOf(os.Getpid()); len(kids) > 0 {
			t.Errorf("child processes left after Close: %s", strings.Join(kids, "; "))
		}
		if left := tempLeftovers(); len(left) > 0 {
			t.Errorf("left in $TMPDIR after Close: %s", strings.Join(left, ", "))
		}
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if after := runtime.NumGoroutine(); after > before {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("goroutines: %d before, %d after Close:\n%s", before, after, buf)
		}
	})
}

func requireLinux(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux: reads the process table in /proc")
	}
}

// processesOf lists the processes, zombies included, whose executable is bin: by the
// command name in /proc/PID/stat (which a zombie keeps) or by argv[0].
func processesOf(bin string) []string {
	base := filepath.Base(bin)
	if len(base) > 15 {
		base = base[:15] // the kernel's comm is at most 15 bytes
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return []string{"cannot read /proc: " + err.Error()}
	}
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, state, ok := procStat(pid)
		if !ok {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		argv0, _, _ := strings.Cut(string(cmdline), "\x00")
		if comm == base || argv0 == bin {
			out = append(out, fmt.Sprintf("pid %d state %s", pid, state))
		}
	}
	return out
}

// leftBy lists the processes of bin that are running, or are zombies the test process should
// have reaped. A zombie whose parent is another process (init, after the plugin's own
// parent was killed with it) is that process's to reap, not the host's: some container
// inits never do.
func leftBy(bin string) []string {
	var out []string
	for _, p := range processesOf(bin) {
		var pid int
		var state string
		fmt.Sscanf(p, "pid %d state %s", &pid, &state)
		if state == "Z" && parentOf(pid) != os.Getpid() {
			continue
		}
		out = append(out, p)
	}
	return out
}

// parentOf returns the parent process ID of pid, or 0.
func parentOf(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // state, ppid, ...
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// childrenOf lists the processes, zombies included, whose parent is pid.
func childrenOf(pid int) []string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return []string{"cannot read /proc: " + err.Error()}
	}
	var out []string
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(data)
		closing := strings.LastIndexByte(s, ')')
		if closing < 0 {
			continue
		}
		fields := strings.Fields(s[closing+1:]) // state, ppid, ...
		if len(fields) < 2 || fields[1] != strconv.Itoa(pid) {
			continue
		}
		comm, state, _ := procStat(child)
		out = append(out, fmt.Sprintf("pid %d (%s) state %s", child, comm, state))
	}
	return out
}

// tempLeftovers lists what hosts and plugins may leave in $TMPDIR: hosts' private directories
// and go-plugin's sockets and socket directories.
func tempLeftovers() []string {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return []string{"cannot read $TMPDIR: " + err.Error()}
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "plugin") || strings.HasPrefix(e.Name(), "chunkkit-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// procStat returns the command name and state of a process.
func procStat(pid int) (comm, state string, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", "", false
	}
	s := string(data)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open || closing+3 > len(s) {
		return "", "", false
	}
	return s[open+1 : closing], s[closing+2 : closing+3], true
}

// alive reports whether pid is a process that has not terminated (zombies are dead).
func alive(pid int) bool {
	_, state, ok := procStat(pid)
	return ok && state != "Z" && state != "X"
}

// startHelper runs the test binary as a host process in mode that opens spec with the plugins
// in dir, and returns it with the PID of the plugin it started.
func startHelper(t *testing.T, mode, dir, spec string) (*exec.Cmd, int, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDirEnv+"="+dir, helperSpecEnv+"="+spec)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
		io.Copy(io.Discard, out)
	}()
	var pid int
	select {
	case s := <-line:
		pid, err = strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			cmd.Wait()
			t.Fatalf("helper printed %q, want a PID; stderr:\n%s", s, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("helper printed no PID within 20s; stderr:\n%s", stderr.String())
	}
	t.Cleanup(func() {
		if alive(pid) {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
		}
	})
	return cmd, pid, &stderr
}

// waitGone waits up to d for pid to terminate and reports whether it did.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for alive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
