package chunkbeam_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/chunkkit/chunkkit/host"
)

// binDir holds the chunkkit command and the plugins the tests use, with their manifest.
var binDir string

// TestMain builds the chunkkit command and the tiktoken and sentence plugins into a temporary
// folder, writes their manifest with `chunkkit plugins manifest` (as make build does), points
// the host at it through $CHUNKKIT_PLUGIN_DIR, and runs the tests on Prism, in this process
// (loopback), so the workers and their plugins are this process and its children.
func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "chunkbeam-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Built in the root module, with its go.mod: the command line exactly as users build it.
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
		"./cmd/chunkkit", "./plugins/tiktoken/cmd/chunkkit-tiktoken", "./plugins/sentence/cmd/chunkkit-sentence")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building chunkkit and its plugins: %v\n%s", err, out)
		return 1
	}
	var out bytes.Buffer
	manifest := exec.Command(filepath.Join(dir, "chunkkit"), "plugins", "manifest", dir)
	manifest.Stdout, manifest.Stderr = &out, &out
	if err := manifest.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "chunkkit plugins manifest %s: %v\n%s", dir, err, out.Bytes())
		return 1
	}
	binDir = dir
	os.Setenv(host.EnvPluginDir, dir)
	return ptest.MainRetWithDefault(m, "prism")
}

// chunkkitCLI runs the chunkkit command built for the tests and returns its standard output.
func chunkkitCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "chunkkit"), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chunkkit %q: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}
