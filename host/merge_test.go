package host

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// turns is a scheduler as pipeline.Run is one, for these tests: a call takes one of its turns
// (sdk.StartWait blocks until one is free) and a caller that joined another's call parks.
type turns struct {
	sem    chan struct{}
	parked sync.WaitGroup
}

func newTurns(n int) *turns { return &turns{sem: make(chan struct{}, n)} }

func (tu *turns) ctx(ctx context.Context) context.Context {
	ctx = sdk.WithWaitHook(ctx, func() func() {
		tu.sem <- struct{}{}
		return func() { <-tu.sem }
	})
	return sdk.WithParkHook(ctx, func() func() { return func() {} })
}

// members returns how many callers the open batch of g holds.
func members[M any](g *merger[M]) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open == nil {
		return 0
	}
	return len(g.open.members)
}

// waitMembers waits until the open batch of g holds n callers.
func waitMembers[M any](t *testing.T, g *merger[M], n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for members(g) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d callers in the open batch after 10s, want %d", members(g), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCallsThatQueueForTheirTurnAreMerged queues five documents' RetainBoundaries and then
// their CountPieces behind a call in flight: each group is one call to the plugin, and each
// document gets what its own call returns.
func TestCallsThatQueueForTheirTurnAreMerged(t *testing.T) {
	dir, bin := setupServed(t, "tokenizer")
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	tc, err := h.TokenCounter(context.Background(), "plugin:served:words")
	if err != nil {
		t.Fatal(err)
	}
	pc := tc.(*pluginCounter)
	tu := newTurns(1)
	ctx := tu.ctx(t.Context())
	const n = 5
	texts := make([][]string, n)
	items := make([][][]sdk.Piece, n)
	for i := range n {
		texts[i] = []string{fmt.Sprintf("document %d has a first block", i), "", strings.Repeat("word ", i+1)}
		items[i] = [][]sdk.Piece{
			{sdk.LiteralPiece("Doc › "), {Text: 0, Start: 9, End: len(texts[i][0])}, sdk.LiteralPiece("\n\n"), {Text: 2, Start: 0, End: 5}},
			{{Text: 2, Start: 0, End: len(texts[i][2])}},
			{},
		}
	}
	bounds := make([][][]int, n)
	retained := make([]sdk.Retained, n)
	errs := make([]error, n)

	tu.sem <- struct{}{} // a call in flight: the callers queue
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { bounds[i], retained[i], errs[i] = pc.RetainBoundaries(ctx, texts[i]) })
		if i == 0 {
			waitMembers(t, &pc.retains, 1) // the first leads
		}
	}
	waitMembers(t, &pc.retains, n)
	<-tu.sem
	wg.Wait()
	var first *pluginRetained
	offsets := map[int]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("document %d: %v", i, errs[i])
		}
		want, _ := sdk.Words{}.Boundaries(ctx, texts[i])
		if diff := cmp.Diff(want, bounds[i]); diff != "" {
			t.Errorf("document %d: boundaries (-want +got):\n%s", i, diff)
		}
		r, ok := retained[i].(*pluginRetained)
		if !ok {
			t.Fatalf("document %d: Retained is %T", i, retained[i])
		}
		if first == nil {
			first = r
		}
		// The leader's texts come first; the others' in the order they joined.
		if r.kept != first.kept || r.offset%len(texts[0]) != 0 || offsets[r.offset] || (i == 0) != (r.offset == 0) {
			t.Errorf("document %d: kept %p offset %d, want the leader's kept %p and its own place in it: the calls were not one", i, r.kept, r.offset, first.kept)
		}
		offsets[r.offset] = true
	}

	counts := make([][]int, n)
	tu.sem <- struct{}{}
	for i := range n {
		wg.Go(func() { counts[i], errs[i] = retained[i].CountPieces(ctx, items[i]) })
		if i == 0 {
			waitMembers(t, &pc.counts, 1)
		}
	}
	waitMembers(t, &pc.counts, n)
	<-tu.sem
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("document %d: CountPieces: %v", i, errs[i])
		}
		built, err := sdk.Build(texts[i], items[i])
		if err != nil {
			t.Fatal(err)
		}
		want, _ := sdk.Words{}.Count(ctx, built)
		if diff := cmp.Diff(want, counts[i]); diff != "" {
			t.Errorf("document %d: CountPieces (-want +got):\n%s", i, diff)
		}
	}
	// Alone, a merged document's Retained still counts its own texts.
	got, err := retained[3].CountPieces(t.Context(), items[3])
	if err != nil || !cmp.Equal(counts[3], got) {
		t.Errorf("CountPieces alone: %v, %v; want %v", got, err, counts[3])
	}
}

// TestAMergedCallThatFailsIsMadeAgainByEachDocument checks that an error names the document
// that caused it (the others are answered) and that a plugin that hangs on a merged call costs
// the leader, whose deadline passed, not the documents that joined it.
func TestAMergedCallThatFailsIsMadeAgainByEachDocument(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	tc, err := h.TokenCounter(context.Background(), "plugin:faulty")
	if err != nil {
		t.Fatal(err)
	}
	pc := tc.(*pluginCounter)
	for _, tt := range []struct {
		name    string
		fault   string        // the text of the leader's document (0) or of document 1
		leader  bool          // the fault is the leader's
		timeout time.Duration // the leader's
		want    []string      // in the failing document's error
	}{
		{name: "a panic in the plugin", fault: "PANIC", want: []string{`plugin "faulty"`, "panic"}},
		{name: "a hang", fault: "HANG", leader: true, timeout: 500 * time.Millisecond, want: []string{`plugin "faulty"`, "deadline"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tu := newTurns(1)
			texts := [][]string{{"the leader's text"}, {"a joiner's text"}, {"another joiner"}}
			bad := 1
			if tt.leader {
				bad = 0
			}
			texts[bad] = []string{tt.fault}
			errs := make([]error, len(texts))
			bounds := make([][][]int, len(texts))
			tu.sem <- struct{}{}
			var wg sync.WaitGroup
			for i := range texts {
				ctx := tu.ctx(context.Background())
				if i == 0 && tt.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.timeout)
					defer cancel()
				}
				wg.Go(func() { bounds[i], _, errs[i] = pc.RetainBoundaries(ctx, texts[i]) })
				if i == 0 {
					waitMembers(t, &pc.retains, 1)
				}
			}
			waitMembers(t, &pc.retains, len(texts))
			<-tu.sem
			wg.Wait()
			for i := range texts {
				if i == bad {
					if errs[i] == nil {
						t.Errorf("document %d (%q): no error", i, texts[i][0])
						continue
					}
					for _, w := range tt.want {
						if !strings.Contains(errs[i].Error(), w) {
							t.Errorf("document %d: error %q lacks %q", i, errs[i], w)
						}
					}
					continue
				}
				if errs[i] != nil {
					t.Errorf("document %d (%q): %v, want its answer", i, texts[i][0], errs[i])
					continue
				}
				want, _ := sdk.Words{}.Boundaries(context.Background(), texts[i])
				if !cmp.Equal(want, bounds[i]) {
					t.Errorf("document %d: boundaries %v, want %v", i, bounds[i], want)
				}
			}
		})
	}
}

// TestACallerThatCannotParkCallsAlone checks that a Host used without a scheduler that parks
// never merges: every call is its own.
func TestACallerThatCannotParkCallsAlone(t *testing.T) {
	dir, _ := setupServed(t, "tokenizer")
	h := newHost(t, dir, Options{})
	tc, err := h.TokenCounter(context.Background(), "plugin:served:words")
	if err != nil {
		t.Fatal(err)
	}
	pc := tc.(*pluginCounter)
	var wg sync.WaitGroup
	rets := make([]sdk.Retained, 4)
	for i := range rets {
		wg.Go(func() {
			_, r, err := pc.RetainBoundaries(t.Context(), []string{fmt.Sprintf("text %d", i)})
			if err != nil {
				t.Error(err)
			}
			rets[i] = r
		})
	}
	wg.Wait()
	for i, r := range rets {
		if p, ok := r.(*pluginRetained); ok && p.offset != 0 {
			t.Errorf("call %d was merged (offset %d) without a scheduler that parks", i, p.offset)
		}
	}
}
