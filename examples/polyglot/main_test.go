package polyglot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/host"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

// EnvOptional names the environment variable that lets these tests skip when a runtime they
// need is missing. Without it they fail, saying what to install: CI installs everything.
const EnvOptional = "CHUNKKIT_POLYGLOT_OPTIONAL"

// The plugins examples/install.sh installs, as examples.plugins.json names them.
const (
	nodePlugin = "node-gpt"
	pyPlugin   = "py-sentencepiece"
)

// dir holds the installed example plugins, the chunkkit binary and the Go tiktoken plugin with
// their manifests; TestMain fills it once. setupErr says why it could not.
var (
	dir      string
	setupErr error
)

// helperEnv makes the test binary a host process for the tests that kill one (see
// helperMain).
const helperEnv = "CHUNKKIT_POLYGLOT_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helperMain(mode, os.Args[len(os.Args)-2], os.Args[len(os.Args)-1]))
	}
	tmp, err := os.MkdirTemp("", "chunkkit-polyglot-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir = tmp
	setupErr = setup(tmp)
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// setup installs everything into d, or says what is missing.
func setup(d string) error {
	if missing := missingRuntimes(); len(missing) > 0 {
		return &missingError{missing}
	}
	install := exec.Command("../install.sh", d)
	if out, err := install.CombinedOutput(); err != nil {
		return fmt.Errorf("examples/install.sh %s: %v\n%s", d, err, out)
	}
	build := exec.Command("go", "build", "-o", d+string(filepath.Separator),
		"github.com/chunkkit/chunkkit/cmd/chunkkit",
		"github.com/chunkkit/chunkkit/plugins/tiktoken/cmd/chunkkit-tiktoken")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return host.BuildManifest(d, []host.Entry{{Name: "tiktoken", Binary: "chunkkit-tiktoken", Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}})
}

// missingRuntimes lists what the example plugins need that this machine lacks.
func missingRuntimes() []string {
	var missing []string
	for _, cmd := range []string{"node", "npm", "spm_train", "spm_encode"} {
		if _, err := exec.LookPath(cmd); err != nil {
			missing = append(missing, cmd+" (on $PATH)")
		}
	}
	probe := exec.Command("/usr/bin/python3", "-c", "import grpc, grpc_tools.protoc, sentencepiece, cryptography")
	if out, err := probe.CombinedOutput(); err != nil {
		missing = append(missing, fmt.Sprintf("/usr/bin/python3 with grpc, grpc_tools, sentencepiece and cryptography (%v: %s)", err, strings.TrimSpace(lastLine(string(out)))))
	}
	if _, err := os.Stat("/usr/share/grpc-proto/grpc/health/v1/health.proto"); err != nil {
		missing = append(missing, "/usr/share/grpc-proto/grpc/health/v1/health.proto")
	}
	return missing
}

type missingError struct{ missing []string }

func (e *missingError) Error() string {
	return "the example plugins need what this machine lacks: " + strings.Join(e.missing, "; ") +
		"\ninstall: apt-get install nodejs npm python3-grpcio python3-grpc-tools python3-sentencepiece python3-cryptography sentencepiece grpc-proto" +
		"\n(or set " + EnvOptional + "=1 to skip these tests)"
}

// need stops t unless the plugins are installed: a skip when runtimes are missing and
// $CHUNKKIT_POLYGLOT_OPTIONAL is 1, a failure otherwise.
func need(t testing.TB) {
	t.Helper()
	if setupErr == nil {
		return
	}
	var me *missingError
	if errors.As(setupErr, &me) && os.Getenv(EnvOptional) == "1" {
		t.Skipf("skipped (%s=1): %v", EnvOptional, setupErr)
	}
	t.Fatal(setupErr)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// newHost returns a host over the installed plugins that logs into the returned buffer.
func newHost(t testing.TB) (*host.Host, *syncBuffer) {
	t.Helper()
	need(t)
	cat, err := host.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	logs := new(syncBuffer)
	h := host.New(cat, host.Options{Logger: hclog.New(&hclog.LoggerOptions{Name: "host", Output: logs, Level: hclog.Debug})})
	t.Cleanup(func() { h.Close() })
	return h, logs
}

// helperMain is a host process for the kill tests; it prints "ready" once the plugin serves,
// then waits to be killed. Mode "host" opens spec through host.Host (as chunkkit does: Linux
// kills the plugin with its host). Mode "bare" starts the plugin as a plain child with the
// handshake environment, which leaves only the plugin's own watch of its parent to end it.
func helperMain(mode, pluginDir, spec string) int {
	ctx := context.Background()
	cat, err := host.Load(pluginDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	switch mode {
	case "host":
		h := host.New(cat, host.Options{Logger: hclog.NewNullLogger()})
		tc, err := h.TokenCounter(ctx, spec)
		if err == nil {
			_, err = tc.Count(ctx, []string{"warm up"})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 1
		}
	case "bare":
		sp, err := host.ParseSpec(spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 1
		}
		p, _ := cat.Lookup(sp.Plugin)
		cmd := exec.Command(p.Path, p.Args...)
		cmd.Env = append(os.Environ(), handshakeEnv()...)
		out, err := cmd.StdoutPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err == nil {
			_, err = bufio.NewReader(out).ReadString('\n')
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 1
		}
	default:
		fmt.Fprintln(os.Stderr, "helper: unknown mode", mode)
		return 1
	}
	fmt.Println("ready")
	time.Sleep(time.Hour)
	return 0
}

// handshakeEnv is what go-plugin puts in a plugin's environment, without AutoMTLS.
func handshakeEnv() []string {
	return []string{
		sdkplugin.MagicCookieKey + "=" + sdkplugin.MagicCookieValue,
		"PLUGIN_PROTOCOL_VERSIONS=" + strconv.Itoa(sdkplugin.ProtocolVersion),
		"PLUGIN_MIN_PORT=0", "PLUGIN_MAX_PORT=0",
	}
}

// syncBuffer is a strings.Builder that go-plugin's goroutines may write while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
