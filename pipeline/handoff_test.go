package pipeline_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// busy is a chunker that records how many documents do host work at once: inside Chunk, but
// not while it waits on the plugin it pretends to call (StartWait). A document's wait lasts
// until a later document has started, or a second. (The window must hold every document: a
// wait for a later start could otherwise wait on its own place in the window.)
type busy struct {
	sdk.Chunker
	mu       sync.Mutex
	working  int
	most     int
	started  atomic.Int32 // documents that began their host work
	overlaps atomic.Int32 // waits that ended because a later document started
}

func (b *busy) enter() {
	b.mu.Lock()
	b.working++
	b.most = max(b.most, b.working)
	b.mu.Unlock()
}

func (b *busy) leave() {
	b.mu.Lock()
	b.working--
	b.mu.Unlock()
}

func (b *busy) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	b.enter()
	mine := b.started.Add(1)
	b.leave()
	resume := sdk.StartWait(ctx)
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
		if b.started.Load() > mine {
			b.overlaps.Add(1)
			break
		}
	}
	resume()
	b.enter()
	defer b.leave()
	return b.Chunker.Chunk(ctx, req, doc)
}

func TestRunLetsADocumentWorkWhileAnotherWaitsOnAPlugin(t *testing.T) {
	t.Parallel()
	ins := docs(20)
	for _, workers := range []int{1, 3} {
		b := &busy{Chunker: &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 32}}}
		results := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: b, Workers: workers, Window: len(ins)})
		for i, r := range results {
			if r.Err != nil || r.Index != i {
				t.Fatalf("workers %d: result %d: index %d, err %v", workers, i, r.Index, r.Err)
			}
		}
		if b.most > workers {
			t.Errorf("workers %d: %d documents did host work at once", workers, b.most)
		}
		// Without the handoff every wait at -j 1 runs out its second: no other document starts.
		// The last documents have no later one to wait for.
		if n := b.overlaps.Load(); n < int32(len(ins)-2*workers) {
			t.Errorf("workers %d: only %d of %d waits saw another document start meanwhile", workers, n, len(ins))
		}
	}
}

// counting is a chunker that records the most documents inside Chunk at once. Each document
// works for a millisecond or, with wait set, waits that long on a "plugin" (sdk.StartWait).
type counting struct {
	sdk.Chunker
	wait      time.Duration
	now, most atomic.Int32
}

func (c *counting) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	if c.wait > 0 {
		resume := sdk.StartWait(ctx)
		time.Sleep(c.wait)
		resume()
	} else {
		time.Sleep(time.Millisecond)
	}
	return c.Chunker.Chunk(ctx, req, doc)
}

func TestRunWithoutWaitsChunksAtMostWorkersDocumentsAtOnce(t *testing.T) {
	t.Parallel()
	for _, workers := range []int{1, 2, 5} {
		c := &counting{Chunker: &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 32}}}
		collect(t, context.Background(), seq(docs(40)), pipeline.Options{Chunker: c, Workers: workers})
		if got := c.most.Load(); got > int32(workers) {
			t.Errorf("workers %d: %d documents were chunked at once", workers, got)
		}
	}
}

// oneAtATime is a chunker whose every document makes one call to a pretend plugin that answers
// one call at a time, in 20 ms; the call of the document with hangID never ends but at its
// context's end, as a stopped plugin's does.
type oneAtATime struct {
	sdk.Chunker
	hangID string
	plugin sync.Mutex
}

func (o *oneAtATime) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	resume := sdk.StartWait(ctx)
	err := o.call(ctx, doc.ID == o.hangID)
	resume()
	if err != nil {
		return nil, err
	}
	return o.Chunker.Chunk(ctx, req, doc)
}

func (o *oneAtATime) call(ctx context.Context, hang bool) error {
	got := make(chan struct{})
	go func() { o.plugin.Lock(); close(got) }()
	select {
	case <-got:
	case <-ctx.Done():
		go func() { <-got; o.plugin.Unlock() }()
		return ctx.Err()
	}
	defer o.plugin.Unlock()
	if hang {
		<-ctx.Done()
		return ctx.Err()
	}
	select {
	case <-time.After(20 * time.Millisecond):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// At -j 1 a plugin that hangs on one document's call fails that document only: the next one,
// which did its host work meanwhile, queues for its call without using up its timeout. (At
// -j N the N calls in flight on a stopped plugin all end at their timeouts.)
func TestAHungPluginCallEndsItsDocumentOnlyAtTheTimeout(t *testing.T) {
	t.Parallel()
	ins := docs(6)
	for _, workers := range []int{1} {
		o := &oneAtATime{Chunker: &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 32}}, hangID: ins[1].ID}
		results := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: o, Workers: workers, Timeout: 500 * time.Millisecond})
		for i, r := range results {
			if i == 1 {
				if !errors.Is(r.Err, context.DeadlineExceeded) || !strings.Contains(r.Err.Error(), "not chunked within") {
					t.Errorf("workers %d: the hung document: err = %v, want its timeout", workers, r.Err)
				}
				continue
			}
			if r.Err != nil {
				t.Errorf("workers %d: document %d, queued behind the hung call: %v", workers, i, r.Err)
			}
		}
	}
}
