package serve_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/internal/pluginclient"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

// asPluginEnv makes the test binary serve a plugin instead of running tests, so the tests
// below can start a real plugin process without building one.
const asPluginEnv = "CHUNKKIT_SERVE_TEST_AS_PLUGIN"

func TestMain(m *testing.M) {
	if os.Getenv(asPluginEnv) == "1" {
		err := serve.TokenCounter(plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}, "runes": sdk.Runes{}}),
			serve.WithName("serve-test"), serve.WithVersion("9.9.9"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestRunByHandExplainsAndFails(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(withoutCookie(os.Environ()), asPluginEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("run by hand: %v, want exit status 1", err)
	}
	if stderr.String() != serve.NotLaunchedMessage {
		t.Errorf("stderr = %q, want %q", stderr.String(), serve.NotLaunchedMessage)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", stdout.String())
	}
}

func TestAHostStartsTheProcessAndTalksToIt(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), asPluginEnv+"=1")
	var logs syncBuffer
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  pluginclient.Handshake(),
		VersionedPlugins: pluginclient.VersionedPlugins("serve-test"),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Cmd:              cmd,
		AutoMTLS:         true,
		Logger:           hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Debug}),
	})
	defer client.Kill()
	rpc, err := client.Client()
	if err != nil {
		t.Fatalf("start: %v\nlogs:\n%s", err, logs.String())
	}
	if v := client.NegotiatedVersion(); v != plugin.ProtocolVersion {
		t.Errorf("negotiated protocol version %d, want %d", v, plugin.ProtocolVersion)
	}
	raw, err := rpc.Dispense(string(plugin.KindTokenizer))
	if err != nil {
		t.Fatal(err)
	}
	tc := raw.(*pluginclient.TokenizerClient)
	info, err := tc.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := plugin.Info{Name: "serve-test", Version: "9.9.9", Models: []string{"runes", "words"}, ProtocolVersion: "1.2", Kinds: []plugin.Kind{plugin.KindTokenizer}}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
	got, err := tc.WithModel("words").Count(t.Context(), []string{"one two", "three"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{2, 1}, got); diff != "" {
		t.Errorf("Count (-want +got):\n%s", diff)
	}
	if _, err := tc.Count(t.Context(), []string{"x"}); !errors.Is(err, sdk.ErrUnsupported) {
		t.Errorf("Count with no model on a two-model plugin = %v, want an error matching sdk.ErrUnsupported", err)
	}
}

func TestThePluginExitsWhenItsHostDies(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX shell to orphan the plugin; the parent watch is covered by TestWatchParent")
	}
	dir := t.TempDir()
	out, errLog := filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")
	// sh plays a host that dies: it starts the plugin in the background, waits for its
	// handshake line (so the plugin has seen its first parent), prints its pid and exits,
	// leaving the plugin re-parented.
	cmd := exec.Command("sh", "-c", `"$0" >"$1" 2>"$2" & i=0; while [ ! -s "$1" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; echo $!`, os.Args[0], out, errLog)
	cmd.Env = append(os.Environ(), asPluginEnv+"=1", plugin.MagicCookieKey+"="+plugin.MagicCookieValue)
	pidText, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err != nil {
		t.Fatalf("pid %q: %v", pidText, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	for alive(pid) {
		if ctx.Err() != nil {
			logs, _ := os.ReadFile(errLog)
			t.Fatalf("the orphaned plugin (pid %d) still runs 20s after its parent died\nstderr:\n%s", pid, logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	logs, _ := os.ReadFile(errLog)
	if !strings.Contains(string(logs), "the host process is gone") {
		t.Errorf("stderr does not say why the plugin stopped:\n%s", logs)
	}
	if socket := socketPath(t, out); socket != "" {
		if _, err := os.Stat(socket); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the plugin's socket %s was left behind (stat: %v)", socket, err)
		}
	}
}

// alive reports whether pid runs; a zombie (exited, not yet reaped by whoever adopted it)
// does not.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false
		}
		p, err := os.FindProcess(pid)
		return err == nil && p.Signal(syscall.Signal(0)) == nil
	}
	// The state follows the parenthesised command name: "pid (comm) S ...".
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// socketPath reads the plugin's unix socket from its handshake line, "1|1|unix|PATH|grpc|...".
func socketPath(t *testing.T, stdoutFile string) string {
	t.Helper()
	f, err := os.Open(stdoutFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	parts := strings.Split(strings.TrimSpace(line), "|")
	if len(parts) < 5 || parts[2] != "unix" {
		t.Errorf("handshake line %q is not 1|1|unix|PATH|grpc|...", line)
		return ""
	}
	return parts[3]
}

func withoutCookie(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, plugin.MagicCookieKey+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// syncBuffer is a bytes.Buffer that go-plugin's goroutines may write while a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
