package host

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestEveryPluginCallTellsTheCallerItWaits(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	var waits, resumes atomic.Int32
	ctx := sdk.WithWaitHook(context.Background(), func() func() {
		waits.Add(1)
		return func() { resumes.Add(1) }
	})
	tc, err := h.TokenCounter(ctx, "plugin:faulty:alpha")
	if err != nil {
		t.Fatal(err)
	}
	ss, err := h.SentenceSplitter(ctx, "plugin:faulty:beta")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"one two", "three"}
	calls := []struct {
		name string
		call func() error
	}{
		{"Count", func() error { _, err := tc.Count(ctx, texts); return err }},
		{"Boundaries", func() error { _, err := tc.Boundaries(ctx, texts); return err }},
		{"Split", func() error { _, err := ss.Split(ctx, texts); return err }},
		{"RetainBoundaries and CountPieces", func() error {
			_, kept, err := sdk.RetainBoundaries(ctx, tc, texts)
			if err != nil {
				return err
			}
			_, err = kept.CountPieces(ctx, [][]sdk.Piece{{{Text: 0, Start: 0, End: 3}}})
			return err
		}},
	}
	want := int32(0)
	for _, c := range calls {
		if err := c.call(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want++
		if c.name == "RetainBoundaries and CountPieces" {
			want++
		}
		if got := waits.Load(); got != want {
			t.Errorf("after %s: %d waits, want %d", c.name, got, want)
		}
		if got := resumes.Load(); got != want {
			t.Errorf("after %s: %d resumes, want %d", c.name, got, want)
		}
	}
}
