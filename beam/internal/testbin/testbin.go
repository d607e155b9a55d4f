package testbin

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
