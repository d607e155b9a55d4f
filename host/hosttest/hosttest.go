// Package hosttest builds plugin commands and starts a chunkkit host on them, for the tests
// of plugins: the same binary, manifest and host a user gets from `make build`. It imports no
// internal package, so a plugin outside this module tests its real process with it:
//
//	func TestThePluginPassesTheConformanceKit(t *testing.T) {
//		h := hosttest.Open(t, hosttest.Plugin{Dir: "."})
//		conformance.TokenCounter(t, hosttest.TokenCounter(t, h, "plugin:example:words"))
//	}
package hosttest

import (
	"context"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// Plugin is one plugin command to build: Dir is its package directory as `go build` takes
// it ("." for the test's own), Binary the file to build (its name in the manifest; default the
// base name of Dir, or "plugin" for "."), Name the plugin name specs use and Kinds what it
// serves (plugin.KindTokenizer, plugin.KindSentence). An empty Name or Kinds is asked of the
// built binary (host.Inspect), as `chunkkit plugins add` does.
type Plugin struct {
	Dir, Binary, Name string
	Kinds             []plugin.Kind
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
			bin = path.Base(filepath.ToSlash(p.Dir))
		}
		if bin == "." || bin == "/" {
			bin = "plugin"
		}
		if runtime.GOOS == "windows" && filepath.Ext(bin) == "" {
			bin += ".exe"
		}
		build := exec.Command("go", "build", "-o", filepath.Join(dir, bin), p.Dir)
		if out, err := build.CombinedOutput(); err != nil {
			tb.Fatalf("hosttest: go build %s: %v\n%s", p.Dir, err, out)
		}
		if p.Name == "" || len(p.Kinds) == 0 {
			info, err := host.Inspect(context.Background(), filepath.Join(dir, bin), nil, host.Options{})
			if err != nil {
				tb.Fatalf("hosttest: %s: %v", p.Dir, err)
			}
			if p.Name == "" {
				p.Name = info.Name
			}
			if len(p.Kinds) == 0 {
				p.Kinds = info.Kinds
			}
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

// TokenCounter returns h's token counter for spec, such as "plugin:example:words", failing tb
// if the host cannot make it (the plugin does not start, does not serve the model, or fails the
// host's checks of its answers).
func TokenCounter(tb testing.TB, h *host.Host, spec string) sdk.TokenCounter {
	tb.Helper()
	tc, err := h.TokenCounter(context.Background(), spec)
	if err != nil {
		tb.Fatalf("hosttest: %v", err)
	}
	return tc
}

// SentenceSplitter returns h's sentence splitter for spec, failing tb as TokenCounter does.
func SentenceSplitter(tb testing.TB, h *host.Host, spec string) sdk.SentenceSplitter {
	tb.Helper()
	s, err := h.SentenceSplitter(context.Background(), spec)
	if err != nil {
		tb.Fatalf("hosttest: %v", err)
	}
	return s
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
