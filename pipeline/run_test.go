package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// docs returns n small Markdown inputs of varying length.
func docs(n int) []pipeline.Input {
	out := make([]pipeline.Input, n)
	for i := range out {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Document %d\n\n", i)
		for p := 0; p < 1+i%7; p++ {
			fmt.Fprintf(&sb, "## Part %d\n\n%s\n\n", p, strings.Repeat(fmt.Sprintf("word%d ", p), 10+i%13))
		}
		out[i] = pipeline.Input{ID: fmt.Sprintf("doc-%03d", i), Format: pipeline.FormatMarkdown, Data: []byte(sb.String())}
	}
	return out
}

func seq(ins []pipeline.Input) iter.Seq2[pipeline.Input, error] {
	return func(yield func(pipeline.Input, error) bool) {
		for _, in := range ins {
			if !yield(in, nil) {
				return
			}
		}
	}
}

// jittery delays every Chunk call by up to a millisecond, so workers finish out of order.
type jittery struct{ sdk.Chunker }

func (j jittery) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	time.Sleep(time.Duration(rand.IntN(1000)) * time.Microsecond)
	return j.Chunker.Chunk(ctx, req, doc)
}

func collect(t *testing.T, ctx context.Context, ins iter.Seq2[pipeline.Input, error], o pipeline.Options) []pipeline.Result {
	t.Helper()
	var out []pipeline.Result
	for r := range pipeline.Run(ctx, ins, o) {
		r.Elapsed = 0
		out = append(out, r)
	}
	return out
}

func TestRunYieldsInInputOrderWhateverTheWorkers(t *testing.T) {
	t.Parallel()
	ins := docs(60)
	base := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 32}}
	want := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: base, Workers: 1})
	if len(want) != len(ins) {
		t.Fatalf("got %d results for %d inputs", len(want), len(ins))
	}
	for i, r := range want {
		if r.Err != nil || r.Index != i || r.Input.ID != ins[i].ID || len(r.Chunks) == 0 {
			t.Fatalf("result %d: index %d, id %q, %d chunks, err %v", i, r.Index, r.Input.ID, len(r.Chunks), r.Err)
		}
		if r.Bytes != len(ins[i].Data) {
			t.Errorf("result %d: Bytes = %d, want %d", i, r.Bytes, len(ins[i].Data))
		}
	}
	for _, workers := range []int{2, 4, 16} {
		t.Run(fmt.Sprintf("with %d workers", workers), func(t *testing.T) {
			got := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: jittery{base}, Workers: workers, Window: workers + 1})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("results differ from one worker's (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunReportsInputErrorsInPlaceAndGoesOn(t *testing.T) {
	t.Parallel()
	ins := docs(3)
	stream := func(yield func(pipeline.Input, error) bool) {
		_ = yield(ins[0], nil) &&
			yield(pipeline.Input{Source: "stdin", Line: 2}, errors.New("stdin:2: not a document object")) &&
			yield(pipeline.Input{ID: "bad", Format: pipeline.FormatMarkdown, Data: []byte("a\xffb")}, nil) &&
			yield(ins[2], nil)
	}
	got := collect(t, context.Background(), stream, pipeline.Options{Chunker: &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}, Workers: 2})
	if len(got) != 4 {
		t.Fatalf("got %d results, want 4", len(got))
	}
	if got[0].Err != nil || got[3].Err != nil {
		t.Errorf("good documents failed: %v, %v", got[0].Err, got[3].Err)
	}
	if got[1].Err == nil || !strings.Contains(got[1].Err.Error(), "stdin:2") {
		t.Errorf("stream error = %v, want it in place", got[1].Err)
	}
	if got[2].Err == nil || !errors.Is(got[2].Err, sdk.ErrInvalidInput) || !strings.HasPrefix(got[2].Err.Error(), "bad: ") {
		t.Errorf("invalid UTF-8 = %v, want an input error named after the document", got[2].Err)
	}
}

// TestRunStreams checks that the first Result comes out before the last Input is read: the
// input iterator waits for the consumer to have seen a Result before it yields its last one.
func TestRunStreams(t *testing.T) {
	t.Parallel()
	ins := docs(10)
	seen := make(chan struct{})
	stream := func(yield func(pipeline.Input, error) bool) {
		for i, in := range ins {
			if i == len(ins)-1 {
				select {
				case <-seen:
				case <-time.After(10 * time.Second):
					t.Error("no Result came out before the last input was read")
				}
			}
			if !yield(in, nil) {
				return
			}
		}
	}
	n := 0
	for r := range pipeline.Run(context.Background(), stream, pipeline.Options{Chunker: &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}, Workers: 2}) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if n == 0 {
			close(seen)
		}
		n++
	}
	if n != len(ins) {
		t.Errorf("got %d results, want %d", n, len(ins))
	}
}

// TestRunBoundsTheDocumentsInFlight counts inputs taken from the iterator but not yet yielded.
func TestRunBoundsTheDocumentsInFlight(t *testing.T) {
	t.Parallel()
	ins := docs(200)
	var taken, yielded, most atomic.Int64
	stream := func(yield func(pipeline.Input, error) bool) {
		for _, in := range ins {
			if n := taken.Add(1) - yielded.Load(); n > most.Load() {
				most.Store(n)
			}
			if !yield(in, nil) {
				return
			}
		}
	}
	const workers, window = 3, 5
	for r := range pipeline.Run(context.Background(), stream, pipeline.Options{Chunker: jittery{&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}}, Workers: workers, Window: window}) {
		yielded.Add(1)
		time.Sleep(50 * time.Microsecond) // a slow writer
		_ = r
	}
	// The producer may hold one input it has taken but not yet queued.
	if m := most.Load(); m > window+1 {
		t.Errorf("%d documents in flight at most, want at most the window (%d) + 1", m, window)
	}
}

// blocking is a chunker that blocks on one document until its context ends.
type blocking struct {
	sdk.Chunker
	id string
}

func (b blocking) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	if doc.ID == b.id {
		<-ctx.Done()
		return nil, fmt.Errorf("plugin %q: %w", "stuck", ctx.Err())
	}
	return b.Chunker.Chunk(ctx, req, doc)
}

func TestRunEndsAHungDocumentAtTheTimeout(t *testing.T) {
	t.Parallel()
	ins := docs(6)
	c := blocking{&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}, ins[2].ID}
	start := time.Now()
	got := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: c, Workers: 2, Timeout: time.Second})
	if time.Since(start) > 5*time.Second {
		t.Errorf("the run took %s", time.Since(start))
	}
	for i, r := range got {
		if i == 2 {
			if r.Err == nil || !errors.Is(r.Err, context.DeadlineExceeded) ||
				!strings.Contains(r.Err.Error(), ins[2].ID) || !strings.Contains(r.Err.Error(), "1s") || !strings.Contains(r.Err.Error(), "stuck") {
				t.Errorf("hung document: err = %v, want one naming the document, the timeout and the plugin", r.Err)
			}
			continue
		}
		if r.Err != nil {
			t.Errorf("document %d: %v", i, r.Err)
		}
	}
}

func TestRunStopsWhenTheLoopEndsOrTheContextIsCancelled(t *testing.T) {
	before := runtime.NumGoroutine()
	ins := docs(100)
	c := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}
	n := 0
	for range pipeline.Run(context.Background(), seq(ins), pipeline.Options{Chunker: c, Workers: 4}) {
		if n++; n == 3 {
			break
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	// An input stream that never ends, as standard input that is never closed.
	forever := func(yield func(pipeline.Input, error) bool) {
		for i := 0; ; i++ {
			if i == 5 {
				cancel()
			}
			if i >= 10 {
				<-time.After(time.Hour)
			}
			if !yield(ins[i%len(ins)], nil) {
				return
			}
		}
	}
	done := make(chan int)
	go func() {
		n := 0
		for r := range pipeline.Run(ctx, forever, pipeline.Options{Chunker: c, Workers: 2}) {
			_ = r
			n++
		}
		done <- n
	}()
	select {
	case n := <-done:
		if n > 10 {
			t.Errorf("%d results after cancelling at the 6th input", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	// Every goroutine but the one blocked in the endless iterator ends.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before+1 {
		t.Errorf("%d goroutines after the runs, %d before", g, before)
	}
}

func TestRunWithoutAChunkerIsAConfigError(t *testing.T) {
	t.Parallel()
	got := collect(t, context.Background(), seq(docs(1)), pipeline.Options{})
	if len(got) != 1 || !errors.Is(got[0].Err, sdk.ErrInvalidConfig) {
		t.Errorf("got %+v, want one config error", got)
	}
}

// TestRunBoundsTheBytesInFlight checks Options.InFlightBytes: documents whose bytes do not fit
// start only as the ones before them are yielded, and never fewer than the workers run.
func TestRunBoundsTheBytesInFlight(t *testing.T) {
	t.Parallel()
	ins := docs(40)
	inner := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}
	for _, tt := range []struct {
		name          string
		workers       int
		bytes         int
		least, atMost int32
	}{
		{"small documents run many at a worker", 1, 0, 3, 16},
		{"a budget of one byte runs a document a worker", 1, 1, 1, 1},
		{"and two at two workers", 2, 1, 2, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := &counting{Chunker: inner, wait: 3 * time.Millisecond}
			got := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: w, Workers: tt.workers, InFlightBytes: tt.bytes})
			if len(got) != len(ins) {
				t.Fatalf("%d results for %d inputs", len(got), len(ins))
			}
			for i, r := range got {
				if r.Err != nil || r.Index != i {
					t.Fatalf("result %d: index %d, err %v", i, r.Index, r.Err)
				}
			}
			if m := w.most.Load(); m < tt.least || m > tt.atMost {
				t.Errorf("%d documents in Chunk at once at most, want %d to %d", m, tt.least, tt.atMost)
			}
		})
	}
}

// TestRunTellsTheBytesInFlight checks Options.InFlight: each call is the input bytes of some
// documents in flight, one document more or less than the call before, and the largest of
// them, as the calls so far say; the run ends with none; and with a window of 3 documents,
// never more than 4 are counted (the window, and one the reader has taken in but not yet
// queued).
func TestRunTellsTheBytesInFlight(t *testing.T) {
	t.Parallel()
	ins := docs(40)
	sizes := map[int]bool{} // the bytes of every input
	for _, in := range ins {
		sizes[len(in.Data)] = true
	}
	var seen, largests []int
	o := pipeline.Options{Chunker: jittery{&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}}, Workers: 2, Window: 3,
		InFlight: func(n, largest int) { seen, largests = append(seen, n), append(largests, largest) }} // calls come one at a time
	if got := len(collect(t, context.Background(), seq(ins), o)); got != len(ins) {
		t.Fatalf("%d results, want %d", got, len(ins))
	}
	if len(seen) != 2*len(ins) {
		t.Fatalf("InFlight called %d times, want %d (a document taken in, a document yielded)", len(seen), 2*len(ins))
	}
	largest := 0
	for size := range sizes {
		largest = max(largest, size)
	}
	prev := 0
	flying := map[int]int{} // the sizes in flight, as the calls say
	for i, n := range seen {
		d := n - prev
		switch {
		case sizes[d]:
			flying[d]++
		case sizes[-d] && flying[-d] > 0:
			if flying[-d]--; flying[-d] == 0 {
				delete(flying, -d)
			}
		default:
			t.Fatalf("call %d: %d bytes after %d, a change that is no document's size in flight", i, n, prev)
		}
		want := 0
		for size := range flying {
			want = max(want, size)
		}
		if largests[i] != want {
			t.Fatalf("call %d: largest %d in flight, want %d", i, largests[i], want)
		}
		if n < 0 || n > 4*largest {
			t.Fatalf("call %d: %d bytes in flight, want between 0 and 4 documents' (%d)", i, n, 4*largest)
		}
		prev = n
	}
	if prev != 0 {
		t.Errorf("the run ends with %d bytes in flight, want 0", prev)
	}
}
