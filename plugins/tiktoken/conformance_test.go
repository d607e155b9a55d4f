package tiktoken_test

import (
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk/serve/servetest"
)

func TestBacktrackAndFastBackendsConformOnEveryEncoding(t *testing.T) {
	t.Parallel()
	for _, backend := range []tiktoken.Backend{tiktoken.Backtrack, tiktoken.Fast} {
		for _, enc := range tiktoken.Encodings() {
			t.Run(string(backend)+"/"+enc, func(t *testing.T) {
				t.Parallel()
				conformance.TokenCounter(t, counter(t, enc, backend))
			})
		}
	}
}

// The kit's corpus holds a 100 kB run of one letter, which takes the Reference backend about
// 13 s per call, and the kit makes dozens of calls; so this runs only with -reference-long.
func TestReferenceBackendConforms(t *testing.T) {
	if !*referenceLong {
		t.Skip("the reference backend takes minutes on the kit's 100 kB single-letter text; run with -reference-long")
	}
	t.Parallel()
	conformance.TokenCounter(t, counter(t, "cl100k_base", tiktoken.Reference))
}

// TestServedCounterConformsAndMatchesInProcess serves Counters as a plugin in-process, over the
// same gRPC stack the host uses, and checks that the plugin keeps the laws and answers like the
// in-process counter.
func TestServedCounterConformsAndMatchesInProcess(t *testing.T) {
	t.Parallel()
	served := servetest.TokenCounter(t, tiktoken.NewCounters(), "cl100k_base")
	conformance.TokenCounter(t, served)

	var texts []string
	for _, g := range loadGolden(t) {
		texts = append(texts, g.text)
	}
	ctx := t.Context()
	want, err := counter(t, "cl100k_base", tiktoken.Backtrack).Boundaries(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := served.Boundaries(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		if len(want[i]) != len(got[i]) || (len(want[i]) > 0 && want[i][len(want[i])-1] != got[i][len(got[i])-1]) {
			t.Errorf("text %d: served Boundaries give %d tokens, in-process %d", i, len(got[i]), len(want[i]))
		}
	}
}
