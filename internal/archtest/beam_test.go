package archtest

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestRootModuleRequiresNoBeam checks that the root module's build list holds no module of
// Apache Beam: the transform lives in the nested module beam/, whose go.mod alone requires
// it, so `go get github.com/chunkkit/chunkkit` never downloads Beam. (TestImportRules checks
// the packages; this checks the module graph, which a go.mod edit could grow without a single
// import.)
func TestRootModuleRequiresNoBeam(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH, so the module graph cannot be checked: %v", err)
	}
	const root = "../.."
	watchSources(t, root)
	cmd := exec.Command(goCmd, "list", "-m", "all")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m all: %v\n%s", err, stderr.Bytes())
	}
	mods := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(mods) < 2 || !strings.HasPrefix(mods[0], "github.com/chunkkit/chunkkit") {
		t.Fatalf("go list -m all printed %q...: not this repository's module graph", mods[0])
	}
	for _, m := range mods {
		if strings.HasPrefix(m, beamSDK) {
			t.Errorf("the root module's build list holds %s; Beam belongs to beam/go.mod only", m)
		}
	}
}
