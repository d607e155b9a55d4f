package main_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/host/hosttest"
	"github.com/chunkkit/chunkkit/plugins/sentence"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// openHost builds this command and returns a host that starts it on demand.
func openHost(t *testing.T) *host.Host {
	return hosttest.Open(t, hosttest.Plugin{Dir: ".", Binary: "chunkkit-sentence", Name: "sentence", Kinds: []plugin.Kind{plugin.KindSentence}})
}

// TestPluginAnswersLikeThePackage starts the built plugin through a chunkkit host for each
// spec, runs the conformance laws through it, checks that it answers exactly as the package
// does in-process, and that an unknown model is refused.
func TestPluginAnswersLikeThePackage(t *testing.T) {
	t.Parallel()
	h := openHost(t)
	ctx := context.Background()
	texts := []string{
		"", "   ", "Hello world.  This is Mr. Smith.\n\nNew para? Yes!  ",
		"The U.S. economy grew 3.5% in 2020. It was good.", "中文句子。第二句！", "bad \xff byte. Next one.",
		strings.Repeat("Word. ", 500),
	}
	for spec, model := range map[string]string{
		"plugin:sentence:punkt:en": sentence.PunktEnglish,
		"plugin:sentence:uax29":    sentence.UAX29,
		"plugin:sentence":          sentence.PunktEnglish,
	} {
		t.Run(spec+" passes the conformance laws and answers as in-process", func(t *testing.T) {
			remote, err := h.SentenceSplitter(ctx, spec)
			if err != nil {
				t.Fatal(err)
			}
			conformance.SentenceSplitter(t, remote)
			local, err := sentence.New(model)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := local.Split(ctx, texts)
			got, err := remote.Split(ctx, texts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b []int) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
				t.Errorf("Split (-in-process +plugin):\n%s", diff)
			}
		})
	}
	t.Run("an unknown model is unsupported", func(t *testing.T) {
		s, err := h.SentenceSplitter(ctx, "plugin:sentence:punkt:fr")
		if err == nil {
			_, err = s.Split(ctx, []string{"x"})
		}
		if !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), "punkt:fr") {
			t.Errorf("plugin:sentence:punkt:fr: error = %v, want one matching sdk.ErrUnsupported naming punkt:fr", err)
		}
	})
}
