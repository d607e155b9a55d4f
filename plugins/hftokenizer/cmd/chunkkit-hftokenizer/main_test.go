package main_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/host/hosttest"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// openHost builds this command and returns a host that starts it on demand.
func openHost(t *testing.T) *host.Host {
	return hosttest.Open(t, hosttest.Plugin{Dir: ".", Binary: "chunkkit-hftokenizer", Name: host.HFPlugin, Kinds: []plugin.Kind{plugin.KindTokenizer}})
}

// TestPluginAnswersLikeThePackage starts the built plugin through a chunkkit host for every
// reference tokenizer.json, runs the conformance laws through it, and checks that it answers
// exactly as the package does in-process, in both views; one process serves all the files.
// Under -short (make test's run with the race detector, which slows it ~3×) it checks the
// first file only; make test then runs it whole without the race detector.
func TestPluginAnswersLikeThePackage(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := reffiles.All(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		files = files[:1]
	}
	h := openHost(t)
	ctx := context.Background()
	texts := []string{
		"", "Hello, world!", "<|endoftext|> and </s> and [SEP]", "🦀 and 中文, Café", "bad \xff byte",
		strings.Repeat(" ", 60) + "x", strings.Repeat("IEEE 00000000 ", 300), "<think>why</think>",
	}
	for _, f := range files {
		for _, spec := range []string{"hf:" + f.Path, "hf:" + f.Path + hftokenizer.SpecialSuffix} {
			t.Run(f.Name+"/"+strings.TrimPrefix(filepath.Ext(spec), ".json"), func(t *testing.T) {
				remote, err := h.TokenCounter(ctx, spec)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasSuffix(spec, hftokenizer.SpecialSuffix) {
					conformance.TokenCounter(t, remote)
				}
				c := hftokenizer.NewCounters()
				local, err := c.Model(ctx, strings.TrimPrefix(spec, "hf:"))
				if err != nil {
					t.Fatal(err)
				}
				hosttest.SameCounts(t, local, remote, texts)
				if n, ok := remote.(sdk.Namer); !ok || n.Name() != spec {
					t.Errorf("Name = %v, want %s", remote, spec)
				}
			})
		}
	}
}

// TestBadFilesFailWhenTheCounterIsMade checks that a missing file, a file the plugin refuses
// and a relative path are dealt with when the counter is made, not at the first Count.
func TestBadFilesFailWhenTheCounterIsMade(t *testing.T) {
	t.Parallel()
	h := openHost(t)
	ctx := context.Background()
	dir := t.TempDir()

	missing := filepath.Join(dir, "nope", "tokenizer.json")
	_, err := h.TokenCounter(ctx, "hf:"+missing)
	if !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v, want ErrUnsupported naming %s", err, missing)
	}

	refused := filepath.Join(dir, "scripts.json")
	if err := os.WriteFile(refused, []byte(`{"added_tokens":[],"normalizer":null,"pre_tokenizer":{"type":"UnicodeScripts"},"model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0.0],["a",-1.0]]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = h.TokenCounter(ctx, "hf:"+refused)
	if !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), `pre-tokenizer type "UnicodeScripts"`) {
		t.Errorf("UnicodeScripts file: %v, want ErrUnsupported naming the pre-tokenizer", err)
	}

	// A relative path is the host's: the plugin gets it made absolute.
	files, err := reffiles.WriteAssembled(dir)
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := h.TokenCounter(ctx, "hf:"+rel)
	if err != nil {
		t.Fatalf("relative path %s: %v", rel, err)
	}
	counts, err := tc.Count(ctx, []string{"Hello world"})
	if err != nil || counts[0] != 2 {
		t.Errorf("relative path: Count = %v, %v; want [2]", counts, err)
	}
}
