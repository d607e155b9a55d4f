package main_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/host/hosttest"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// TestPluginAnswersLikeThePackage builds this command, lists it in a manifest, starts it
// through a chunkkit host as the spec "tiktoken:ENCODING" does, and checks that the plugin
// answers exactly as the package does in-process and refuses unknown encodings.
func TestPluginAnswersLikeThePackage(t *testing.T) {
	t.Parallel()
	h := hosttest.Open(t, hosttest.Plugin{Dir: ".", Binary: "chunkkit-tiktoken", Name: host.TiktokenPlugin, Kinds: []plugin.Kind{plugin.KindTokenizer}})

	ctx := context.Background()
	texts := []string{"", "Hello, world!", "<|endoftext|> stays text", "🦀 and 中文", "bad \xff byte", strings.Repeat("a", 5000)}
	for _, model := range []string{"cl100k_base", "o200k_base@reference", "r50k_base"} {
		t.Run("tiktoken:"+model+" answers as in-process", func(t *testing.T) {
			remote, err := h.TokenCounter(ctx, "tiktoken:"+model)
			if err != nil {
				t.Fatal(err)
			}
			enc, backend, err := tiktoken.ParseModel(model)
			if err != nil {
				t.Fatal(err)
			}
			local, err := tiktoken.New(enc, backend)
			if err != nil {
				t.Fatal(err)
			}
			hosttest.SameCounts(t, local, remote, texts)
		})
	}
	t.Run("an unknown encoding is unsupported", func(t *testing.T) {
		tc, err := h.TokenCounter(ctx, "tiktoken:gpt2")
		if err == nil {
			_, err = tc.Count(ctx, []string{"x"})
		}
		if !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), "gpt2") {
			t.Errorf("tiktoken:gpt2: error = %v, want one matching sdk.ErrUnsupported naming gpt2", err)
		}
	})
}
