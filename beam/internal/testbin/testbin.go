package testbin

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/chunkkit/chunkkit/host"
)

// Packages are the root module's commands Build builds.
var Packages = []string{"./cmd/chunkkit", "./plugins/tiktoken/cmd/chunkkit-tiktoken", "./plugins/sentence/cmd/chunkkit-sentence"}

// Build builds Packages and extra (packages of this module, built here) into a new temporary
// folder, writes the plugins' manifest there with `chunkkit plugins manifest` (as make build
// does) and returns the folder; the caller removes it.
func Build(extra ...string) (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("testbin: cannot tell where the sources are")
	}
	beamRoot := filepath.Join(filepath.Dir(file), "..", "..")
	dir, err := os.MkdirTemp("", "chunkbeam-bin-")
	if err != nil {
		return "", err
	}
	out := dir + string(filepath.Separator)
	builds := []*exec.Cmd{exec.Command("go", append([]string{"build", "-o", out}, Packages...)...)}
	builds[0].Dir = filepath.Join(beamRoot, "..")
	if len(extra) > 0 {
		b := exec.Command("go", append([]string{"build", "-o", out}, extra...)...)
		b.Dir = beamRoot
		builds = append(builds, b)
	}
	for _, b := range builds {
		if msg, err := b.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("testbin: go build %v in %s: %v\n%s", b.Args[4:], b.Dir, err, msg)
		}
	}
	var msg bytes.Buffer
	manifest := exec.Command(filepath.Join(dir, "chunkkit"), "plugins", "manifest", dir)
	manifest.Stdout, manifest.Stderr = &msg, &msg
	if err := manifest.Run(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("testbin: chunkkit plugins manifest %s: %v\n%s", dir, err, msg.Bytes())
	}
	return dir, nil
}

// Setup is Build for a TestMain: it also points the host at the folder ($CHUNKKIT_PLUGIN_DIR).
// The returned function removes the folder.
func Setup(extra ...string) (dir string, cleanup func(), err error) {
	dir, err = Build(extra...)
	if err != nil {
		return "", nil, err
	}
	if err := os.Setenv(host.EnvPluginDir, dir); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}
