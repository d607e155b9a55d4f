package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/internal/pluginrpc"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

const binaryName = "chunkkit-example-plugin"

// TestExamplePlugin builds the example into a temporary directory and drives the binary as a
// host does, proving the whole path: build, checksum, handshake, mTLS, gRPC, sentinels.
func TestExamplePlugin(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, binaryName)
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sum := fileSHA256(t, bin)

	t.Run("a host with the right checksum counts through the plugin", func(t *testing.T) {
		t.Parallel()
		tc, logs := start(t, bin, sum)
		info, err := tc.Info(t.Context())
		if err != nil {
			t.Fatalf("Info: %v\nlogs:\n%s", err, logs)
		}
		want := pluginrpc.Info{Name: "example", Version: "1.0.0", Models: []string{"runes", "words"}, ProtocolVersion: "1.0", Kinds: []string{pluginrpc.KindTokenizer}}
		if diff := cmp.Diff(want, info); diff != "" {
			t.Errorf("Info (-want +got):\n%s", diff)
		}
		words := tc.WithModel("words")
		counts, err := words.Count(t.Context(), []string{"the quick brown fox", "", "jumps"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int{4, 0, 1}, counts); diff != "" {
			t.Errorf("Count (-want +got):\n%s", diff)
		}
		bounds, err := tc.WithModel("runes").Boundaries(t.Context(), []string{"añb"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][]int{{1, 3, 4}}, bounds); diff != "" {
			t.Errorf("Boundaries (-want +got):\n%s", diff)
		}
		if _, err := tc.WithModel("cl100k_base").Count(t.Context(), []string{"x"}); !errors.Is(err, sdk.ErrUnsupported) {
			t.Errorf("Count with a model the plugin lacks = %v, want an error matching sdk.ErrUnsupported", err)
		}
	})

	t.Run("the plugin keeps the counter laws over the wire", func(t *testing.T) {
		t.Parallel()
		tc, _ := start(t, bin, sum)
		conformance.TokenCounter(t, tc.WithModel("words"))
	})

	t.Run("a host with another checksum refuses to start the binary", func(t *testing.T) {
		t.Parallel()
		wrong := strings.Repeat("0", 64)
		client := plugin.NewClient(config(t, bin, wrong, new(syncBuffer)))
		defer client.Kill()
		if _, err := client.Client(); !errors.Is(err, plugin.ErrChecksumsDoNotMatch) {
			t.Errorf("start with a wrong checksum = %v, want plugin.ErrChecksumsDoNotMatch", err)
		}
	})

	t.Run("run by hand, the binary says what it is and exits 1", func(t *testing.T) {
		t.Parallel()
		cmd := exec.Command(bin)
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
	})

	t.Run("the manifest of docs/plugins.md makes it a spec the host understands", func(t *testing.T) {
		t.Parallel()
		pluginDir := t.TempDir()
		copyFile(t, bin, filepath.Join(pluginDir, binaryName))
		err := host.BuildManifest(pluginDir, []host.Entry{{Name: "example", Binary: binaryName, Kinds: []string{host.KindTokenizer}}})
		if err != nil {
			t.Fatal(err)
		}
		cat, err := host.Load(pluginDir)
		if err != nil {
			t.Fatal(err)
		}
		h := host.New(cat, host.Options{Logger: hclog.NewNullLogger()})
		defer h.Close()
		tc, err := h.TokenCounter(t.Context(), "plugin:example:words")
		if err != nil {
			t.Fatal(err)
		}
		counts, err := tc.Count(t.Context(), []string{"one two three"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int{3}, counts); diff != "" {
			t.Errorf("Count (-want +got):\n%s", diff)
		}
	})
}

// config is the ClientConfig a careful host uses: gRPC only, AutoMTLS, the binary's checksum
// checked before exec with a fresh hash, and a logger of its own.
func config(t *testing.T, bin, sum string, logs *syncBuffer) *plugin.ClientConfig {
	t.Helper()
	want, err := hex.DecodeString(sum)
	if err != nil {
		t.Fatal(err)
	}
	return &plugin.ClientConfig{
		HandshakeConfig:  pluginrpc.Handshake(),
		VersionedPlugins: pluginrpc.VersionedPlugins(pluginrpc.Plugins{Name: "example"}),
		Cmd:              exec.Command(bin),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         true,
		SecureConfig:     &plugin.SecureConfig{Checksum: want, Hash: sha256.New()},
		Logger:           hclog.New(&hclog.LoggerOptions{Name: "host", Output: logs, Level: hclog.Debug}),
	}
}

// start launches the plugin and returns its tokenizer client and the host's log buffer.
func start(t *testing.T, bin, sum string) (*pluginrpc.TokenizerClient, *syncBuffer) {
	t.Helper()
	logs := new(syncBuffer)
	client := plugin.NewClient(config(t, bin, sum, logs))
	t.Cleanup(client.Kill)
	rpc, err := client.Client()
	if err != nil {
		t.Fatalf("start %s: %v\nlogs:\n%s", bin, err, logs)
	}
	raw, err := rpc.Dispense(pluginrpc.KindTokenizer)
	if err != nil {
		t.Fatal(err)
	}
	return raw.(*pluginrpc.TokenizerClient), logs
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
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
