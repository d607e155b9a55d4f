package servetest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
	"github.com/chunkkit/chunkkit/sdk/serve/servetest"
)

func TestACounterServedInProcessKeepsTheCounterLaws(t *testing.T) {
	t.Parallel()
	for _, model := range []string{"words", "runes"} {
		t.Run(model+" over the wire passes the conformance kit", func(t *testing.T) {
			t.Parallel()
			tc := servetest.TokenCounter(t, plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}, "runes": sdk.Runes{}}), model)
			conformance.TokenCounter(t, tc)
		})
	}
}

func TestTheServedCounterAnswersLikeTheInProcessOne(t *testing.T) {
	t.Parallel()
	tc := servetest.TokenCounter(t, plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}}), "")
	texts := []string{"one two  three", "", "日本 語"}
	want, _ := sdk.Words{}.Boundaries(context.Background(), texts)
	got, err := tc.Boundaries(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Boundaries (-want +got):\n%s", diff)
	}
	if n, ok := tc.(sdk.Namer); !ok || n.Name() != "plugin:servetest" {
		t.Errorf("the counter's name is not plugin:servetest (Namer: %t)", ok)
	}
}

func TestAnUnknownModelIsUnsupported(t *testing.T) {
	t.Parallel()
	tc := servetest.TokenCounter(t, plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}}), "bpe")
	if _, err := tc.Count(t.Context(), []string{"x"}); !errors.Is(err, sdk.ErrUnsupported) {
		t.Errorf("Count = %v, want an error matching sdk.ErrUnsupported", err)
	}
}

// lines is a sentence splitter for the test: a sentence ends after each '\n' and at the end.
type lines struct{}

func (lines) Split(ctx context.Context, texts []string) ([][]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]int, len(texts))
	for i, t := range texts {
		var ends []int
		for j := 0; j < len(t); j++ {
			if t[j] == '\n' {
				ends = append(ends, j+1)
			}
		}
		if len(t) > 0 && (len(ends) == 0 || ends[len(ends)-1] != len(t)) {
			ends = append(ends, len(t))
		}
		out[i] = ends
	}
	return out, nil
}

func TestASplitterServedInProcessKeepsTheSplitterLaws(t *testing.T) {
	t.Parallel()
	s := servetest.SentenceSplitter(t, plugin.MapOf(map[string]sdk.SentenceSplitter{"lines": lines{}}), "lines")
	got, err := s.Split(t.Context(), []string{"a\nb", ""})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]int{{2, 3}, nil}, got); diff != "" {
		t.Errorf("Split (-want +got):\n%s", diff)
	}
	conformance.SentenceSplitter(t, s)
}
