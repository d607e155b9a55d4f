//go:build linux

package host

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/sdk"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

// Tests of plugins that misbehave on purpose, and of what the host guarantees about them:
// bounded shutdown, checked binaries, no orphan, no leaked environment, no stale socket.

// setupWrapper puts the faulty plugin and a shell script that runs it without exec (so the
// plugin is the script's child, not the host's) into a new directory, with a manifest listing
// the script as "faulty" with args. It returns the directory and the plugin binary's path.
func setupWrapper(t *testing.T, args ...string) (dir, bin string) {
	t.Helper()
	dir = t.TempDir()
	bin = linkFaulty(t, dir)
	script := "#!/bin/sh\n# no exec: the plugin is this shell's child\n'" + bin + "' \"$@\"\necho wrapper done >&2\n"
	if err := os.WriteFile(filepath.Join(dir, "wrap.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	err := BuildManifest(dir, []Entry{{Name: "faulty", Binary: "wrap.sh", Args: args, Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}})
	if err != nil {
		t.Fatal(err)
	}
	return dir, bin
}

// killAll SIGKILLs the processes of bin, so that a failing test does not leave them behind.
func killAll(bin string) {
	for _, p := range processesOf(bin) {
		var pid int
		if _, err := fmt.Sscanf(p, "pid %d", &pid); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// closeWithin runs h.Close and fails the test if it takes longer than d; after 20 s it gives
// up (SIGKILLing bin's processes, which unblocks the Close of a host that waits for them).
func closeWithin(t *testing.T, h *Host, d time.Duration, bin string) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { h.Close(); close(done) }()
	select {
	case <-done:
		if took := time.Since(start); took > d {
			t.Errorf("Close took %v, want at most %v", took.Round(time.Millisecond), d)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("Close still blocked after 20s; SIGKILLing the plugin")
		killAll(bin)
		<-done
	}
}

// stopProcess SIGSTOPs pid and waits until the kernel has stopped it.
func stopProcess(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if _, state, _ := procStat(pid); state == "T" {
			return
		}
	}
	t.Fatalf("process %d not stopped 2s after SIGSTOP", pid)
}

// A process that misses one call's deadline is killed at once; another call that was waiting
// on it, with time left, runs again on a new process instead of failing with it.
func TestACallWaitingOnAHungPluginIsRetriedOnANewProcess(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{StopTimeout: 5 * time.Second})
	tc, err := h.TokenCounter(context.Background(), "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	first := pluginPID(h, "faulty")
	defer syscall.Kill(first, syscall.SIGKILL)
	stopProcess(t, first)
	patient := make(chan error, 1)
	var got []int
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var err error
		got, err = tc.Count(ctx, []string{"the patient call"})
		patient <- err
	}()
	time.Sleep(100 * time.Millisecond) // the patient call is in flight on the stopped process
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = tc.Count(ctx, []string{"fine"})
	wantErr(t, err, []error{context.DeadlineExceeded}, `plugin "faulty"`, "deadline", "replaced")
	select {
	case err := <-patient:
		if err != nil {
			t.Fatalf("the call waiting with it: %v, want it retried on a new process", err)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("the waiting call took %v after the stop: it was not retried at once (StopTimeout 5s)", took)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the call waiting on the stopped process has not returned 15s after the other missed its deadline")
	}
	if len(got) != 1 || got[0] != 3 {
		t.Errorf("Count = %v, want [3]", got)
	}
	if n := starts(h, "faulty"); n != 2 {
		t.Errorf("started %d processes, want 2", n)
	}
	if !waitGone(first, 5*time.Second) {
		t.Errorf("the stopped plugin %d is still alive after its replacement", first)
	}
}

func TestCloseIsBoundedWhenAPluginStopsAnswering(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	if _, err := h.TokenCounter(context.Background(), "plugin:faulty"); err != nil {
		t.Fatal(err)
	}
	pid := pluginPID(h, "faulty")
	stopProcess(t, pid)
	defer syscall.Kill(pid, syscall.SIGCONT)
	// The default graceful shutdown is 2 s, then SIGKILL.
	start := time.Now()
	closeWithin(t, h, 4*time.Second, bin)
	if took := time.Since(start); took < DefaultStopTimeout {
		t.Errorf("Close took %v, less than the graceful %v: the plugin was not stopped", took, DefaultStopTimeout)
	}
	if alive(pid) {
		t.Errorf("stopped plugin %d still alive after Close", pid)
	}
}

func TestAPluginThatMissesADeadlineIsReplaced(t *testing.T) {
	for _, tt := range []struct {
		name  string
		wedge func(t *testing.T, tc sdk.TokenCounter, pid int)
	}{
		{"a call that hangs", func(t *testing.T, tc sdk.TokenCounter, _ int) {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			_, err := tc.Count(ctx, []string{"HANG"})
			wantErr(t, err, []error{context.DeadlineExceeded}, `plugin "faulty"`, "deadline", "replaced")
		}},
		{"a stopped process", func(t *testing.T, tc sdk.TokenCounter, pid int) {
			stopProcess(t, pid)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			_, err := tc.Count(ctx, []string{"fine"})
			wantErr(t, err, []error{context.DeadlineExceeded}, `plugin "faulty"`, "deadline", "replaced")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := setup(t)
			checkLeaks(t, bin)
			h := newHost(t, dir, Options{StopTimeout: 200 * time.Millisecond})
			tc, err := h.TokenCounter(context.Background(), "plugin:faulty")
			if err != nil {
				t.Fatal(err)
			}
			first := pluginPID(h, "faulty")
			defer syscall.Kill(first, syscall.SIGKILL)
			tt.wedge(t, tc, first)
			got, err := tc.Count(context.Background(), []string{"a fresh process"})
			if err != nil {
				t.Fatalf("call after the missed deadline: %v", err)
			}
			if got[0] != 3 {
				t.Errorf("Count = %v, want [3]", got)
			}
			if n := starts(h, "faulty"); n != 2 {
				t.Errorf("started %d processes, want 2: the wedged one was not replaced", n)
			}
			if !waitGone(first, 5*time.Second) {
				t.Errorf("wedged plugin %d still alive after its replacement", first)
			}
		})
	}
}

func TestCrashesUnderLoadAreUnavailableAndNeverTheCallersCancellation(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{MaxRestarts: 10000, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	ctx := context.Background()
	tc, err := h.TokenCounter(ctx, "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var calls, failed, canceled atomic.Int64
	var mu sync.Mutex
	var wrong []string
	var wg sync.WaitGroup
	for range 24 {
		wg.Go(func() {
			for !stop.Load() {
				_, err := tc.Count(ctx, []string{"a b c", "d e"})
				calls.Add(1)
				if err == nil {
					continue
				}
				failed.Add(1)
				if errors.Is(err, context.Canceled) {
					canceled.Add(1)
				}
				if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, sdk.ErrUnavailable) {
					mu.Lock()
					if len(wrong) < 5 {
						wrong = append(wrong, err.Error())
					}
					mu.Unlock()
				}
			}
		})
	}
	kills := 0
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); {
		time.Sleep(40 * time.Millisecond)
		if pid := pluginPID(h, "faulty"); pid > 0 && syscall.Kill(pid, syscall.SIGKILL) == nil {
			kills++
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d calls, %d failed, %d of them matching context.Canceled; %d kills", calls.Load(), failed.Load(), canceled.Load(), kills)
	if failed.Load() == 0 {
		t.Errorf("no call failed in %d kills: the test did not test anything", kills)
	}
	for _, w := range wrong {
		t.Errorf("a crash error that is not only sdk.ErrUnavailable: %s", w)
	}
}

func TestASwappedBinaryNeverRunsUnchecked(t *testing.T) {
	dir, bin := setup(t)
	marker := filepath.Join(t.TempDir(), "unchecked-binary-ran")
	evil := filepath.Join(dir, "evil")
	if err := os.WriteFile(evil, []byte("#!/bin/sh\necho ran >> '"+marker+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good")
	if err := os.Link(bin, good); err != nil {
		t.Fatal(err)
	}
	checkLeaks(t, bin)
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Swap the binary for the script and back, as fast as renames go, while the host starts it.
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		tmp := filepath.Join(dir, ".swap")
		for i := 0; !stop.Load(); i++ {
			src := good
			if i%2 == 1 {
				src = evil
			}
			os.Remove(tmp)
			if os.Link(src, tmp) == nil {
				os.Rename(tmp, bin)
			}
		}
	})
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	started, refused := 0, 0
	const tries = 20
	for i := range tries {
		h := New(cat, Options{Logger: hclog.NewNullLogger(), MaxRestarts: -1})
		_, err := h.TokenCounter(context.Background(), "plugin:faulty")
		h.Close()
		switch {
		case err == nil:
			started++
		case errors.Is(err, plugin.ErrChecksumsDoNotMatch):
			refused++
		default:
			t.Logf("try %d: %v", i, err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("try %d: the unchecked binary ran (%d checked starts, %d refused before)", i, started, refused)
		}
	}
	t.Logf("%d tries: %d started the checked binary, %d refused the swapped one", tries, started, refused)
	if started == 0 || refused == 0 {
		t.Logf("the swap never hit one of the two cases; the race was not exercised fully")
	}
}

func TestPluginFilesOthersCanWriteAreRefused(t *testing.T) {
	for _, tt := range []struct {
		name   string
		make   func(t *testing.T, dir, bin string) // makes the fault
		atLoad bool                                // Load refuses it already: the manifest is in that folder
		subs   []string
	}{
		{"a binary others can write", func(t *testing.T, _, bin string) { chmod(t, bin, 0o757) }, false, []string{"writable by other users", "chmod go-w"}},
		{"a binary its group can write", func(t *testing.T, _, bin string) { chmod(t, bin, 0o775) }, false, []string{"writable by other users", "chmod go-w"}},
		{"a plugin folder others can write", func(t *testing.T, dir, _ string) { chmod(t, dir, 0o777) }, true, []string{"writable by other users", "chmod go-w"}},
		{"a subfolder others can write", func(t *testing.T, dir, bin string) {
			sub := filepath.Join(dir, "sub")
			if err := os.Mkdir(sub, 0o777); err != nil {
				t.Fatal(err)
			}
			chmod(t, sub, 0o777)
			if err := os.Rename(bin, filepath.Join(sub, filepath.Base(bin))); err != nil {
				t.Fatal(err)
			}
			sum, _ := FileSHA256(filepath.Join(sub, filepath.Base(bin)))
			if err := WriteManifest(dir, []Entry{{Name: "faulty", Binary: "sub/" + filepath.Base(bin), SHA256: sum, Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}}); err != nil {
				t.Fatal(err)
			}
		}, false, []string{"writable by other users", "chmod go-w", "sub"}},
		{"a symlink to a binary outside the folder", func(t *testing.T, dir, bin string) {
			outside := filepath.Join(t.TempDir(), "outside")
			copyFile(t, bin, outside)
			os.Remove(bin)
			if err := os.Symlink(outside, bin); err != nil {
				t.Fatal(err)
			}
		}, false, []string{"outside", "plugin folder"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := setup(t)
			// A copy, not the test's hard link: a mode is the file's, shared by its links.
			copyFile(t, faultyBin, bin+".copy")
			if err := os.Rename(bin+".copy", bin); err != nil {
				t.Fatal(err)
			}
			checkLeaks(t, bin)
			tt.make(t, dir, bin)
			cat, err := Load(dir)
			if tt.atLoad {
				wantErr(t, err, []error{sdk.ErrInvalidConfig}, tt.subs...)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			h := New(cat, Options{Logger: hclog.NewNullLogger()})
			defer h.Close()
			_, err = h.TokenCounter(context.Background(), "plugin:faulty")
			wantErr(t, err, []error{sdk.ErrUnavailable}, append(tt.subs, `plugin "faulty"`)...)
			p, _ := cat.Lookup("faulty")
			err = p.Verify()
			wantErr(t, err, nil, tt.subs...)
		})
	}
	t.Run("a manifest others can write", func(t *testing.T) {
		dir, _ := setup(t)
		chmod(t, filepath.Join(dir, ManifestName), 0o666)
		_, err := Load(dir)
		wantErr(t, err, []error{sdk.ErrInvalidConfig}, ManifestName, "writable by other users", "chmod go-w")
	})
	t.Run("a binary owned by another user", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to give a file to another user")
		}
		dir, bin := setup(t)
		copyFile(t, faultyBin, bin+".own")
		os.Rename(bin+".own", bin)
		if err := os.Chown(bin, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		cat, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := cat.Lookup("faulty")
		wantErr(t, p.Verify(), nil, "owned by uid 4242")
	})
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestAManifestBinaryOutsideItsFolderIsRefused(t *testing.T) {
	t.Parallel()
	for _, binary := range []string{"../../../../bin/sh", "..", "a/../../b", "bin/../../x"} {
		dir := t.TempDir()
		file := writeManifest(t, dir, ManifestName, `{"plugins": [{"name": "p", "binary": "`+binary+`", "sha256": "`+strings.Repeat("0", 64)+`", "kinds": ["tokenizer"]}]}`)
		_, err := LoadManifest(file)
		wantErr(t, err, []error{sdk.ErrInvalidConfig}, "plugins[0].binary", strconv.Quote(binary), "inside")
		err = WriteManifest(dir, []Entry{{Name: "p", Binary: binary, SHA256: strings.Repeat("0", 64), Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}})
		wantErr(t, err, []error{sdk.ErrInvalidConfig}, "plugins[0].binary")
	}
}

func TestAForkingPluginStaysWithinTheStartTimeout(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		subs []string
	}{
		{"slow to start", []string{"-sleep=5s"}, []string{"start timeout (300ms)"}},
		{"writing to stdout", []string{"-garbage", "-sleep=50ms"}, []string{"wrote to stdout before the handshake"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := setupWrapper(t, tt.args...)
			checkLeaks(t, bin)
			defer killAll(bin)
			h := newHost(t, dir, Options{StartTimeout: 300 * time.Millisecond})
			start := time.Now()
			errc := make(chan error, 1)
			go func() {
				_, err := h.TokenCounter(context.Background(), "plugin:faulty")
				errc <- err
			}()
			select {
			case err := <-errc:
				wantErr(t, err, []error{sdk.ErrUnavailable}, tt.subs...)
				if took := time.Since(start); took > 2*time.Second {
					t.Errorf("failed start took %v, want about the start timeout", took.Round(time.Millisecond))
				}
			case <-time.After(20 * time.Second):
				killAll(bin)
				t.Fatalf("start still going 20s after a 300ms start timeout")
			}
			closeWithin(t, h, 3*time.Second, bin)
		})
	}
}

// forkingPlugins set up plugins whose processes have children.
var forkingPlugins = []struct {
	name  string
	setup func(t *testing.T) (dir, bin string)
}{
	{"a plugin that starts a child", func(t *testing.T) (string, string) { return setup(t, "-spawn-child") }},
	{"a shell wrapper without exec", func(t *testing.T) (string, string) { return setupWrapper(t) }},
}

func TestClosingAForkingPluginLeavesNoGrandchild(t *testing.T) {
	for _, tt := range forkingPlugins {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := tt.setup(t)
			checkLeaks(t, bin)
			defer killAll(bin)
			h := newHost(t, dir, Options{})
			tc, err := h.TokenCounter(context.Background(), "plugin:faulty")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tc.Count(context.Background(), []string{"a"}); err != nil {
				t.Fatal(err)
			}
			if procs := processesOf(bin); len(procs) < 1 {
				t.Fatalf("no process of %s running", bin)
			}
			closeWithin(t, h, 4*time.Second, bin)
		})
	}
}

func TestAKilledHostTakesItsPluginsChildrenDown(t *testing.T) {
	for _, tt := range forkingPlugins {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := tt.setup(t)
			defer killAll(bin)
			helper, _, stderr := startHelper(t, "sigkill", dir, "plugin:faulty")
			if procs := processesOf(bin); len(procs) < 1 {
				t.Fatalf("no process of %s running; helper stderr:\n%s", bin, stderr.String())
			}
			pattern := filepath.Join(os.TempDir(), fmt.Sprintf("%s%d-*", hostDirPrefix, helper.Process.Pid))
			if m, _ := filepath.Glob(pattern); len(m) != 1 {
				t.Fatalf("the helper host's private directory: %v, want one match of %s", m, pattern)
			}
			if err := helper.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			helper.Wait()
			deadline := time.Now().Add(3 * time.Second)
			for len(running(bin)) > 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if left := running(bin); len(left) > 0 {
				t.Errorf("3s after its host was SIGKILLed, processes of the plugin remain: %v", left)
			}
			// The watchdog also removed the dead host's private directory.
			for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if m, _ := filepath.Glob(pattern); len(m) == 0 {
					break
				}
			}
			if m, _ := filepath.Glob(pattern); len(m) > 0 {
				t.Errorf("3s after its host was SIGKILLed, its private directory remains: %v", m)
			}
		})
	}
}

// running lists the processes of bin that have not terminated (zombies are dead).
func running(bin string) []string {
	var out []string
	for _, p := range processesOf(bin) {
		if !strings.HasSuffix(p, "state Z") && !strings.HasSuffix(p, "state X") {
			out = append(out, p)
		}
	}
	return out
}

func TestAPluginGetsTheDocumentedEnvironmentAndNoStdin(t *testing.T) {
	t.Setenv("CHUNKKIT_TEST_SECRET", "hunter2")
	t.Setenv("CHUNKKIT_TEST_ALLOWED", "yes")
	for _, tt := range []struct {
		name  string
		env   string // the manifest entry's "env", JSON
		allow []string
	}{
		{"without an allowlist", "", nil},
		{"with an allowlist", `, "env": ["CHUNKKIT_TEST_ALLOWED"]`, []string{"CHUNKKIT_TEST_ALLOWED"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := setup(t)
			sum, err := FileSHA256(bin)
			if err != nil {
				t.Fatal(err)
			}
			writeManifest(t, dir, ManifestName, `{"plugins": [{"name": "faulty", "binary": "`+filepath.Base(bin)+
				`", "sha256": "`+sum+`", "kinds": ["tokenizer"]`+tt.env+`}]}`)
			checkLeaks(t, bin)
			h := newHost(t, dir, Options{})
			if _, err := h.TokenCounter(context.Background(), "plugin:faulty"); err != nil {
				t.Fatal(err)
			}
			pid := pluginPID(h, "faulty")
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
			if err != nil {
				t.Fatal(err)
			}
			env := make(map[string]string)
			for _, kv := range strings.Split(strings.TrimRight(string(data), "\x00"), "\x00") {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			if _, ok := env["CHUNKKIT_TEST_SECRET"]; ok {
				t.Errorf("the host's secret reached the plugin's environment")
			}
			for k := range env {
				if !documentedEnv(k) && !contains(tt.allow, k) {
					t.Errorf("plugin environment has %s, which is neither documented nor in the manifest's env", k)
				}
			}
			for _, k := range append([]string{"PATH", "TMPDIR", "CHUNKKIT_PLUGIN", "PLUGIN_UNIX_SOCKET_DIR", "PLUGIN_PROTOCOL_VERSIONS"}, tt.allow...) {
				if _, ok := env[k]; !ok {
					t.Errorf("plugin environment lacks %s", k)
				}
			}
			if block, _ := pem.Decode([]byte(env["PLUGIN_CLIENT_CERT"])); block == nil || block.Type != "CERTIFICATE" {
				t.Errorf("plugin environment has PLUGIN_CLIENT_CERT=%q, want the host's PEM certificate", env["PLUGIN_CLIENT_CERT"])
			}
			if got, want := env["CHUNKKIT_PLUGIN_PRELOAD"], `{"tokenizer":[""]}`; got != want {
				t.Errorf("plugin environment has CHUNKKIT_PLUGIN_PRELOAD=%q, want %q: the default model of the counter being made", got, want)
			}
			if got, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid)); got != os.DevNull {
				t.Errorf("plugin's stdin is %q, want %s", got, os.DevNull)
			}
		})
	}
}

// documentedEnv reports whether docs/reference/host.md lists k among what every plugin gets.
func documentedEnv(k string) bool {
	switch k {
	case "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "CHUNKKIT_PLUGIN", "CHUNKKIT_PLUGIN_LOG_LEVEL", "CHUNKKIT_PLUGIN_PRELOAD", "CHUNKKIT_PLUGIN_CPUPROFILE":
		return true
	}
	return strings.HasPrefix(k, "PLUGIN_")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestAStaleDirectoryOfADeadHostIsSweptOnTheNextStart(t *testing.T) {
	dir, bin := setup(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(os.TempDir(), fmt.Sprintf("chunkkit-plugins-%d-123", dead.Process.Pid))
	if err := os.MkdirAll(filepath.Join(stale, "plugin-dir1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "plugin-dir1", "plugin42"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	if _, err := h.TokenCounter(context.Background(), "plugin:faulty"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale directory %s of a dead host is still there (%v)", stale, err)
	}
}

func TestAPanicIsOneLineAndTheDumpGoesToTheDebugLog(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		targets    []error
		subs       []string
		once       string
	}{
		{"a panic the plugin recovers", "PANIC", []error{sdk.ErrBadResponse},
			[]string{`plugin "faulty"`, "panic in Count: faulty: panicking on purpose"}, "panicking on purpose"},
		{"a panic that kills the plugin", "GOPANIC", []error{sdk.ErrUnavailable},
			[]string{`plugin "faulty"`, "panic: faulty: panicking in a goroutine", "main.go:"}, "panicking in a goroutine"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := setup(t)
			checkLeaks(t, bin)
			var debug, warn lockedBuffer
			logger := hclog.NewInterceptLogger(&hclog.LoggerOptions{Name: "test", Level: hclog.Debug, Output: &debug})
			logger.RegisterSink(hclog.NewSinkAdapter(&hclog.LoggerOptions{Level: hclog.Warn, Output: &warn}))
			h := newHost(t, dir, Options{Logger: logger})
			tc, err := h.TokenCounter(context.Background(), "plugin:faulty")
			if err != nil {
				t.Fatal(err)
			}
			_, err = tc.Count(context.Background(), []string{tt.text})
			wantErr(t, err, tt.targets, tt.subs...)
			if n := strings.Count(fmt.Sprint(err), tt.once); n != 1 {
				t.Errorf("the panic appears %d times in the error, want once: %v", n, err)
			}
			if s := fmt.Sprint(err); goroutineDump.MatchString(s) || strings.Contains(s, "\n") {
				t.Errorf("the error carries the goroutine dump: %v", err)
			}
			h.Close()
			if goroutineDump.MatchString(warn.String()) || strings.Contains(warn.String(), tt.once) {
				t.Errorf("the panic reached the warning log (a CLI's stderr):\n%s", warn.String())
			}
			if !goroutineDump.MatchString(debug.String()) {
				t.Errorf("the goroutine dump is not in the debug log:\n%s", debug.String())
			}
		})
	}
}

// goroutineDump matches the header of a goroutine in a Go stack dump.
var goroutineDump = regexp.MustCompile(`goroutine \d+ \[`)

func TestCrashLoopErrorsGiveTheRealCauseOnce(t *testing.T) {
	t.Run("a plugin writing to stdout", func(t *testing.T) {
		dir, bin := setup(t, "-garbage")
		checkLeaks(t, bin)
		h := newHost(t, dir, Options{MaxRestarts: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
		var err error
		for range 3 {
			_, err = h.TokenCounter(context.Background(), "plugin:faulty")
		}
		wantErr(t, err, []error{ErrCrashLoop}, "keeps failing", "wrote to stdout before the handshake", "hello from faulty", "plugins must log to stderr")
		if strings.Contains(err.Error(), "Unrecognized remote plugin message") {
			t.Errorf("the error shows go-plugin's raw message: %v", err)
		}
		if n := strings.Count(err.Error(), "hello from faulty"); n != 1 {
			t.Errorf("the cause appears %d times, want once: %v", n, err)
		}
	})
	t.Run("a plugin crashing in calls", func(t *testing.T) {
		dir, bin := setup(t)
		checkLeaks(t, bin)
		h := newHost(t, dir, Options{MaxRestarts: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
		tc, err := h.TokenCounter(context.Background(), "plugin:faulty")
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			_, err = tc.Count(context.Background(), []string{"CRASH"})
			if n := strings.Count(fmt.Sprint(err), "crashing on purpose"); n != 1 {
				t.Errorf("call %d: the stderr line appears %d times, want once: %v", i, n, err)
			}
		}
		wantErr(t, err, []error{ErrCrashLoop}, "keeps failing", "exit status 3")
	})
}
