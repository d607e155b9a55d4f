package main

import (
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/host/hosttest"
	"github.com/chunkkit/chunkkit/sdk/serve/servetest"
)

// The models in-process: the fastest check.
func TestTheModelsKeepTheCounterLaws(t *testing.T) {
	for _, model := range models().Models() {
		t.Run(model, func(t *testing.T) {
			tc, err := models().Model(t.Context(), model)
			if err != nil {
				t.Fatal(err)
			}
			conformance.TokenCounter(t, tc)
		})
	}
}

// Over the real gRPC stack, served in-process: no binary needed.
func TestTheModelsKeepTheCounterLawsOverTheWire(t *testing.T) {
	conformance.TokenCounter(t, servetest.TokenCounter(t, models(), "words"))
}

// The built binary, started and checked by a chunkkit host, as users run it.
func TestTheBinaryPassesTheConformanceKitThroughTheHost(t *testing.T) {
	h := hosttest.Open(t, hosttest.Plugin{Dir: "."})
	for _, spec := range []string{"plugin:example:words", "plugin:example:runes"} {
		t.Run(spec, func(t *testing.T) {
			conformance.TokenCounter(t, hosttest.TokenCounter(t, h, spec))
		})
	}
}
