// Package hosttest builds plugin commands and starts a chunkkit host on them, for the tests
// of plugins: the same binary, manifest and host a user gets from `make build`.
package hosttest

import (
	"context"
	"os/exec"
	"path"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/sdk"
)

// Plugin is one plugin command to build: Dir is its package directory as `go build` takes
// it ("." for the test's own), Binary the file to build (its name in the manifest), Name the
// plugin name specs use, Kinds what it serves (host.KindTokenizer, host.KindSentence).
type Plugin struct {
	Dir, Binary, Name string
	Kinds             []string
}

// Build builds each plugin into a temporary directory, writes the manifest there as
// `chunkkit plugins manifest` does, and returns the directory.
func Build(tb testing.TB, plugins ...Plugin) string {
	tb.Helper()
	dir := tb.TempDir()
	entries := make([]host.Entry, 0, len(plugins))
	for _, p := range plugins {
		bin := p.Binary
		if bin == "" {
			bin = path.Base(p.Dir)
		}
		build := exec.Command("go", "build", "-o", filepath.Join(dir, bin), p.Dir)
		if out, err := build.CombinedOutput(); err != nil {
			tb.Fatalf("go build %s: %v\n%s", p.Dir, err, out)
		}
		entries = append(entries, host.Entry{Name: p.Name, Binary: bin, Kinds: p.Kinds})
	}
	if err := host.BuildManifest(dir, entries); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Open builds the plugins and returns a host that starts them on demand, silent, closed when
// the test ends.
func Open(tb testing.TB, plugins ...Plugin) *host.Host {
	tb.Helper()
	cat, err := host.Load(Build(tb, plugins...))
	if err != nil {
		tb.Fatal(err)
	}
	h := host.New(cat, host.Options{Logger: hclog.NewNullLogger()})
	tb.Cleanup(func() { h.Close() })
	return h
}

// SameCounts checks that remote (a counter through a plugin) gives exactly the counts and
// boundaries local (the same counter in-process) gives for texts.
func SameCounts(tb testing.TB, local, remote sdk.TokenCounter, texts []string) {
	tb.Helper()
	ctx := context.Background()
	wantCounts, err := local.Count(ctx, texts)
	if err != nil {
		tb.Fatal(err)
	}
	wantBounds, err := local.Boundaries(ctx, texts)
	if err != nil {
		tb.Fatal(err)
	}
	gotCounts, err := remote.Count(ctx, texts)
	if err != nil {
		tb.Fatal(err)
	}
	gotBounds, err := remote.Boundaries(ctx, texts)
	if err != nil {
		tb.Fatal(err)
	}
	if diff := cmp.Diff(wantCounts, gotCounts); diff != "" {
		tb.Errorf("Count (-in-process +plugin):\n%s", diff)
	}
	if diff := cmp.Diff(wantBounds, gotBounds, cmpopts.EquateEmpty()); diff != "" {
		tb.Errorf("Boundaries (-in-process +plugin):\n%s", diff)
	}
}
