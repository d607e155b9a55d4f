package chunkers_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func TestNew(t *testing.T) {
	t.Parallel()
	cfg := chunkers.Config{Counter: sdk.Words{}, MaxTokens: 100, OverlapTokens: chunkers.ExactOverlap(10)}
	for _, tc := range []struct {
		name string
		opts chunkers.Options
		want sdk.Chunker
	}{
		{"", chunkers.Options{Config: cfg, HeadingChunks: true}, &chunkers.HeadingAware{Config: cfg, HeadingChunks: true}},
		{"heading", chunkers.Options{Config: cfg}, &chunkers.HeadingAware{Config: cfg}},
		{"sections", chunkers.Options{Config: cfg, SplitLevel: 3, PackSections: true}, &chunkers.Sections{Config: cfg, SplitLevel: 3, PackSections: true}},
		{"fixed", chunkers.Options{Config: cfg, SplitLevel: 3}, &chunkers.FixedTokens{Config: cfg}},
		{"noop", chunkers.Options{Config: cfg}, &chunkers.Noop{Counter: cfg.Counter}},
	} {
		t.Run("strategy "+tc.name+" makes its chunker", func(t *testing.T) {
			got, err := chunkers.New(tc.name, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, tc := range []struct {
		name, strategy string
		opts           chunkers.Options
	}{
		{"an unknown strategy", "semantic", chunkers.Options{Config: cfg}},
		{"no counter", "heading", chunkers.Options{}},
		{"an overlap as large as the budget", "fixed", chunkers.Options{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: 8}}},
		{"an unknown context mode", "sections", chunkers.Options{Config: chunkers.Config{Counter: sdk.Words{}, Context: "headings"}}},
	} {
		t.Run(tc.name+" is an invalid config", func(t *testing.T) {
			if _, err := chunkers.New(tc.strategy, tc.opts); !errors.Is(err, sdk.ErrInvalidConfig) {
				t.Errorf("error %v does not match sdk.ErrInvalidConfig", err)
			}
		})
	}
}

func TestStrategiesAreAllKnownToNew(t *testing.T) {
	t.Parallel()
	names := chunkers.Strategies()
	if names[0] != chunkers.DefaultStrategy {
		t.Errorf("Strategies()[0] = %q, want the default %q", names[0], chunkers.DefaultStrategy)
	}
	for _, n := range names {
		if _, err := chunkers.New(n, chunkers.Options{Config: chunkers.Config{Counter: sdk.Words{}}}); err != nil {
			t.Errorf("New(%q): %v", n, err)
		}
	}
}

func TestExactOverlap(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]int{-3: chunkers.NoOverlap, 0: chunkers.NoOverlap, 1: 1, 64: 64} {
		if got := chunkers.ExactOverlap(n); got != want {
			t.Errorf("ExactOverlap(%d) = %d, want %d", n, got, want)
		}
	}
}
