package chunkbeam_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/chunkkit/chunkkit/beam/internal/testbin"
	"github.com/chunkkit/chunkkit/beam/internal/tmpdir"
)

// binDir holds the chunkkit command and the plugins the tests use, with their manifest.
var binDir string

// TestMain builds the chunkkit command and the tiktoken and sentence plugins with their
// manifest (testbin.Setup), points the host at them through $CHUNKKIT_PLUGIN_DIR, and runs the
// tests on Prism, in this process (loopback), so the workers and their plugins are this process
// and its children.
func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, cleanup, err := testbin.Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer cleanup()
	binDir = dir
	restore, err := tmpdir.Own() // Prism's loopback runs leave a file in it each (package tmpdir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer restore()
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
