package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

const guide = "../../docs/plugins.md"

// fileBlocks returns the code blocks of the guide that follow a "<!-- file: NAME -->" line, by
// NAME: the files a reader writes.
func fileBlocks(t *testing.T) map[string]string {
	t.Helper()
	doc, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?ms)^<!-- file: (\\S+) -->\n```\\w*\n(.*?)^```$")
	files := make(map[string]string)
	for _, m := range re.FindAllStringSubmatch(string(doc), -1) {
		if _, dup := files[m[1]]; dup {
			t.Fatalf("%s shows %s twice", guide, m[1])
		}
		files[m[1]] = m[2]
	}
	if len(files) == 0 {
		t.Fatalf("%s has no code block after a <!-- file: NAME --> line", guide)
	}
	return files
}

func TestTheGuideShowsThisPluginVerbatim(t *testing.T) {
	t.Parallel()
	files := fileBlocks(t)
	for _, name := range []string{"main.go", "main_test.go"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if files[name] != string(src) {
			t.Errorf("%s does not show examples/plugin/%s verbatim after <!-- file: %s -->; copy it again:\n%s", guide, name, name, src)
		}
	}
	if len(files) != 2 {
		t.Errorf("%s shows %d files, want main.go and main_test.go only: the test below writes exactly those", guide, len(files))
	}
}

// The commands the guide tells a reader to run, in order. The test runs them, but for go get,
// which it replaces by a replace directive to this checkout (no network, and the code under
// test rather than a release).
var guideCommands = []string{
	"mkdir myplugin && cd myplugin",
	"go mod init example.com/myplugin",
	"go get github.com/chunkkit/chunkkit@latest",
	"go mod tidy",
	"go test ./...",
}

// TestTheGuideWorksInAFreshModuleOutsideTheRepository follows docs/plugins.md section 1 as a
// plugin author would: a new module in an empty folder outside this repository, the files of the
// guide's code blocks, go mod tidy and go test. It fails when the guide leaves out a step, shows
// code that does not build outside the module (an internal import), or a test that fails.
func TestTheGuideWorksInAFreshModuleOutsideTheRepository(t *testing.T) {
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH, so the guide's commands cannot run: %v", err)
	}
	doc, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	last := 0
	for _, c := range guideCommands {
		i := bytes.Index(doc[last:], []byte("\n"+c+"\n"))
		if i < 0 {
			t.Fatalf("%s does not show the command %q (after the ones before it) on a line of its own", guide, c)
		}
		last += i + 1
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "myplugin")
	if rel, err := filepath.Rel(repo, dir); err == nil && !strings.HasPrefix(rel, "..") {
		t.Fatalf("the temporary directory %s is inside the repository %s", dir, repo)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// go.sum of this repository has the checksums of every module the plugin needs, so go mod
	// tidy works offline from the module cache.
	sums, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil && bytes.Contains(out, []byte("disabled by GOPROXY=off")) {
			t.Fatalf("go %s in %s: %v\n%s\nthe module cache lacks a go.mod of the module graph: run make mod-graph (go list -m all) once, online", strings.Join(args, " "), dir, err, out)
		}
		if err != nil {
			t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
		t.Logf("go %s: %s", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
		return string(out)
	}
	run("mod", "init", "example.com/myplugin")
	run("mod", "edit", "-replace", "github.com/chunkkit/chunkkit="+repo, "-require", "github.com/chunkkit/chunkkit@v0.0.0")
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sums, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range fileBlocks(t) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Offline, tidy cannot look up what only the tests of dependencies import (testify for
	// go-hclog, say); -e keeps going, and those are not needed to build and test the plugin.
	run("mod", "tidy", "-e")
	args := []string{"test", "-count=1", "-v"}
	if runtime.GOOS != "windows" {
		args = append(args, "-race")
	}
	out := run(append(args, "./...")...)
	for _, test := range []string{"TestTheModelsKeepTheCounterLaws", "TestTheModelsKeepTheCounterLawsOverTheWire", "TestTheBinaryPassesTheConformanceKitThroughTheHost"} {
		if !strings.Contains(out, "--- PASS: "+test+" ") {
			t.Errorf("go test in %s did not pass %s:\n%s", dir, test, out)
		}
	}
	if !strings.Contains(out, "ok  \texample.com/myplugin") {
		t.Errorf("go test in %s did not report ok:\n%s", dir, out)
	}
}
