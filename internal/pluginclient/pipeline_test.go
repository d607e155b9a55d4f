package pluginclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/internal/pluginserver"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// overlapping is a counter that records how many of its calls run at once; each call lasts a
// few milliseconds, so that requests in flight together meet. A text "fail" fails its call.
type overlapping struct {
	sdk.Words
	now, most, calls atomic.Int32
}

func (o *overlapping) enter(texts []string) error {
	o.calls.Add(1)
	n := o.now.Add(1)
	defer o.now.Add(-1)
	for {
		m := o.most.Load()
		if n <= m || o.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(5 * time.Millisecond)
	for _, t := range texts {
		if t == "fail" {
			return fmt.Errorf("%w: told to fail", sdk.ErrInvalidInput)
		}
	}
	return nil
}

func (o *overlapping) Count(ctx context.Context, texts []string) ([]int, error) {
	if err := o.enter(texts); err != nil {
		return nil, err
	}
	return o.Words.Count(ctx, texts)
}

func (o *overlapping) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if err := o.enter(texts); err != nil {
		return nil, err
	}
	return o.Words.Boundaries(ctx, texts)
}

func pipelineClient(t *testing.T, o *overlapping, inFlight int) *TokenizerClient {
	t.Helper()
	tc := goPluginConn(t, pluginserver.Server{Name: "fake", Counters: counterMap(map[string]sdk.TokenCounter{"words": o})}, plugin.KindTokenizer).(*TokenizerClient)
	tc.limits = limits{batch: 64, max: 1 << 20, inFlight: inFlight}
	return tc.WithModel("words")
}

func TestALargeCallTravelsAsRequestsTwoAtATimeInOrder(t *testing.T) {
	t.Parallel()
	var texts []string
	for i := range 60 {
		texts = append(texts, fmt.Sprintf("text %d of %s", i, strings.Repeat("w ", i%9)))
	}
	wantCounts, _ := sdk.Words{}.Count(t.Context(), texts)
	wantBounds, _ := sdk.Words{}.Boundaries(t.Context(), texts)
	for _, inFlight := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("%d in flight", inFlight), func(t *testing.T) {
			t.Parallel()
			o := &overlapping{}
			tc := pipelineClient(t, o, inFlight)
			counts, err := tc.Count(t.Context(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantCounts, counts); diff != "" {
				t.Errorf("Count (-want +got):\n%s", diff)
			}
			bounds, kept, err := tc.RetainBoundaries(t.Context(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantBounds, bounds); diff != "" {
				t.Errorf("RetainBoundaries (-want +got):\n%s", diff)
			}
			if o.calls.Load() < 10 {
				t.Fatalf("%d calls: the test means to split into many requests", o.calls.Load())
			}
			// The requests travel inFlight at once, and carry the call's ID, by which the Go
			// server counts them in turn (plugin.CallMetadata): one thread per call.
			if got := o.most.Load(); got != 1 {
				t.Errorf("at most %d requests of one call were counted at once, want 1", got)
			}
			// Every request's handle is found by its texts, whatever order the answers came in.
			items := [][]sdk.Piece{{{Text: 59, Start: 0, End: len(texts[59])}}, {{Text: 0, Start: 0, End: 4}}, {{Text: 31, Start: 5, End: 7}}}
			built, _ := sdk.Build(texts, items)
			want, _ := sdk.Words{}.Count(t.Context(), built)
			got, err := tc.CountRanges(t.Context(), kept, items)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("CountRanges (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTheFirstFailingRequestIsTheCallsError(t *testing.T) {
	t.Parallel()
	texts := make([]string, 40)
	for i := range texts {
		texts[i] = fmt.Sprintf("text number %d", i)
	}
	texts[17] = "fail"
	o := &overlapping{}
	tc := pipelineClient(t, o, 2)
	_, err := tc.Count(t.Context(), texts)
	if !errors.Is(err, sdk.ErrInvalidInput) || !strings.Contains(err.Error(), "told to fail") {
		t.Fatalf("err = %v, want the failing request's error", err)
	}
	spans, _ := batches("words", texts, tc.limits)
	if n := o.calls.Load(); int(n) >= len(spans) {
		t.Errorf("%d of %d requests were sent, want the ones after the failure left unsent", n, len(spans))
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := tc.Count(ctx, texts); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled call: err = %v, want context.Canceled", err)
	}
}
