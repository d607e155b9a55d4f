package host

import (
	"context"
	"errors"
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

// mergingCounter returns the plugin counter of spec from a new host of the plugins in dir,
// after checking no goroutine or process of bin outlives the test.
func mergingCounter(t *testing.T, dir, bin, spec string) *pluginCounter {
	t.Helper()
	checkLeaks(t, bin)
	tc, err := newHost(t, dir, Options{}).TokenCounter(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return tc.(*pluginCounter)
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
	pc := mergingCounter(t, dir, bin, "plugin:served:words")
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

	calls0 := pc.PluginCalls()
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
	if got := pc.PluginCalls() - calls0; got != 1 {
		t.Errorf("%d calls on the plugin for %d documents' RetainBoundaries, want 1", got, n)
	}
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
// that caused it (the others are answered, on the new process where it crashed or hung the old
// one), whichever member it is, and that merging stays off for a while after a failure.
func TestAMergedCallThatFailsIsMadeAgainByEachDocument(t *testing.T) {
	for _, tt := range []struct {
		name        string
		bad         int    // the member whose text is the fault: 0 leads
		text        string // the fault
		leaderFails bool   // the leader fails too
		want        []string
	}{
		{name: "a panic on a joiner's text", bad: 1, text: "PANIC", want: []string{`plugin "faulty"`, "panic"}},
		{name: "a crash on a joiner's text", bad: 2, text: "CRASH", want: []string{`plugin "faulty"`}},
		{name: "a hang on the leader's text", bad: 0, text: "HANG", want: []string{`plugin "faulty"`, "deadline"}},
		// The merged call is the leader's, with its deadline: a plugin that hangs on it costs
		// the leader, whatever text made it hang, and the joiner whose text it was.
		{name: "a hang on a joiner's text", bad: 1, text: "HANG", leaderFails: true, want: []string{`plugin "faulty"`, "deadline"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// A host of its own: a crash or a hang costs it two failures (the merged call's and
			// the document's own), which the restart limit counts.
			dir, bin := setup(t)
			pc := mergingCounter(t, dir, bin, "plugin:faulty")
			tu := newTurns(1)
			texts := [][]string{{"the leader's text"}, {"a joiner's text"}, {"another joiner"}, {"a third joiner"}}
			texts[tt.bad] = []string{tt.text}
			errs := make([]error, len(texts))
			bounds := make([][][]int, len(texts))
			tu.sem <- struct{}{}
			var wg sync.WaitGroup
			for i := range texts {
				// The document that hangs the plugin has a deadline to end at, and so has the
				// leader, whose deadline the merged call has; the others have time to wait for
				// both, as their paused clocks would give them under pipeline.Run.
				timeout := 20 * time.Second
				if i == tt.bad || i == 0 {
					timeout = 1500 * time.Millisecond
				}
				ctx, cancel := context.WithTimeout(tu.ctx(context.Background()), timeout)
				defer cancel()
				wg.Go(func() { bounds[i], _, errs[i] = pc.RetainBoundaries(ctx, texts[i]) })
				if i == 0 {
					waitMembers(t, &pc.retains, 1)
				}
			}
			waitMembers(t, &pc.retains, len(texts))
			<-tu.sem
			wg.Wait()
			for i := range texts {
				if i == tt.bad || i == 0 && tt.leaderFails {
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
			// Merging is off now: a caller that queues leads nothing.
			tu.sem <- struct{}{}
			done := make(chan error, 1)
			go func() {
				_, _, err := pc.RetainBoundaries(tu.ctx(t.Context()), []string{"after the failure"})
				done <- err
			}()
			time.Sleep(50 * time.Millisecond)
			if n := members(&pc.retains); n != 0 {
				t.Errorf("%d callers in a batch after a failed merged call, want merging off", n)
			}
			<-tu.sem
			if err := <-done; err != nil {
				t.Errorf("the call after the failure: %v", err)
			}
		})
	}
}

// TestAPieceOutsideItsDocumentIsInvalidWhenMerged checks that a piece past its own document's
// texts is refused, though the merged call's plugin holds other documents' texts after them.
func TestAPieceOutsideItsDocumentIsInvalidWhenMerged(t *testing.T) {
	dir, bin := setupServed(t, "tokenizer")
	pc := mergingCounter(t, dir, bin, "plugin:served:words")
	tu := newTurns(1)
	rets := make([]sdk.Retained, 2)
	tu.sem <- struct{}{}
	var wg sync.WaitGroup
	for i := range rets {
		wg.Go(func() {
			_, rets[i], _ = pc.RetainBoundaries(tu.ctx(t.Context()), []string{fmt.Sprintf("document %d", i)})
		})
		waitMembers(t, &pc.retains, i+1)
	}
	<-tu.sem
	wg.Wait()
	for i, r := range rets {
		_, err := r.CountPieces(t.Context(), [][]sdk.Piece{{{Text: 1, Start: 0, End: 3}}})
		if !errors.Is(err, sdk.ErrInvalidInput) || !strings.Contains(err.Error(), "text 1, but 1 texts are retained") {
			t.Errorf("document %d: a piece of text 1 of 1: err = %v, want invalid input", i, err)
		}
		_, err = r.CountPieces(t.Context(), [][]sdk.Piece{{{Text: 0, Start: 2, End: 99}}})
		if !errors.Is(err, sdk.ErrInvalidInput) {
			t.Errorf("document %d: a range past its text: err = %v, want invalid input", i, err)
		}
	}
}

// TestACallerThatCannotParkCallsAlone checks that a Host used without a scheduler that parks
// never merges: every call is its own.
func TestACallerThatCannotParkCallsAlone(t *testing.T) {
	dir, bin := setupServed(t, "tokenizer")
	pc := mergingCounter(t, dir, bin, "plugin:served:words")
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
