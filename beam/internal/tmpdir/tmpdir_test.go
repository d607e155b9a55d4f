package tmpdir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOwnMovesTheTemporaryFolderAndRemovesIt(t *testing.T) {
	parent := t.TempDir()
	t.Setenv("TMPDIR", parent)
	restore, err := Own()
	if err != nil {
		t.Fatal(err)
	}
	dir := os.TempDir()
	if filepath.Dir(dir) != parent {
		t.Fatalf("os.TempDir() = %s, want a folder in %s", dir, parent)
	}
	f, err := os.CreateTemp("", "beamloopbackworker-*") // what Beam's loopback mode leaves
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if got := os.TempDir(); got != parent {
		t.Errorf("after restore os.TempDir() = %s, want %s", got, parent)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}

func TestOwnUnsetsATMPDIRThatWasNotSet(t *testing.T) {
	t.Setenv("TMPDIR", "") // the test's way to have it put back afterwards
	os.Unsetenv("TMPDIR")
	restore, err := Own()
	if err != nil {
		t.Fatal(err)
	}
	dir, set := os.LookupEnv("TMPDIR")
	if !set {
		t.Fatal("Own did not set $TMPDIR")
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if v, set := os.LookupEnv("TMPDIR"); set {
		t.Errorf("after restore $TMPDIR = %q, want it unset as it was", v)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", dir, err)
	}
}
