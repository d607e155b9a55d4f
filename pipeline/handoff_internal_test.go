package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestElasticDeadline(t *testing.T) {
	t.Parallel()
	t.Run("it ends with DeadlineExceeded once its time is up", func(t *testing.T) {
		t.Parallel()
		e := newElastic(context.Background(), 20*time.Millisecond)
		defer e.release()
		select {
		case <-e.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("not done after its deadline")
		}
		if !errors.Is(e.Err(), context.DeadlineExceeded) {
			t.Errorf("Err = %v, want DeadlineExceeded", e.Err())
		}
	})
	t.Run("a paused clock does not run out", func(t *testing.T) {
		t.Parallel()
		e := newElastic(context.Background(), 50*time.Millisecond)
		defer e.release()
		e.pause()
		time.Sleep(120 * time.Millisecond)
		if e.Err() != nil {
			t.Fatalf("Err = %v while paused", e.Err())
		}
		e.resume()
		if d, _ := e.Deadline(); time.Until(d) < 20*time.Millisecond {
			t.Errorf("after the pause %s are left, want about the 50ms there were", time.Until(d))
		}
		select {
		case <-e.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("not done after its deadline")
		}
	})
	t.Run("the parent's end ends it, and the parent's earlier deadline is its own", func(t *testing.T) {
		t.Parallel()
		soon := time.Now().Add(time.Minute)
		parent, cancel := context.WithDeadline(context.Background(), soon)
		e := newElastic(parent, time.Hour)
		defer e.release()
		if d, ok := e.Deadline(); !ok || !d.Equal(soon) {
			t.Errorf("Deadline = %v, %t, want the parent's %v", d, ok, soon)
		}
		if v := e.Value("missing"); v != nil {
			t.Errorf("Value of a missing key = %v", v)
		}
		cancel()
		select {
		case <-e.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("not done after the parent was cancelled")
		}
		if !errors.Is(e.Err(), context.Canceled) {
			t.Errorf("Err = %v, want Canceled", e.Err())
		}
	})
	t.Run("release ends it", func(t *testing.T) {
		t.Parallel()
		e := newElastic(context.Background(), time.Hour)
		e.release()
		if !errors.Is(e.Err(), context.Canceled) {
			t.Errorf("Err = %v after release, want Canceled", e.Err())
		}
	})
}

func TestElasticPausesNest(t *testing.T) {
	t.Parallel()
	e := newElastic(context.Background(), 60*time.Millisecond)
	defer e.release()
	e.pause()
	e.pause()
	e.resume() // one pause is still on
	time.Sleep(120 * time.Millisecond)
	if e.Err() != nil {
		t.Fatalf("Err = %v with one pause still on", e.Err())
	}
	e.resume()
	select {
	case <-e.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not done after its last pause ended and its time ran out")
	}
}

// TestAParkedDocumentHoldsNoPlace checks sdk.StartPark through a document's handoff: the
// document gives its work place up and takes no wait place (another document may call), its
// clock stops while it is parked, and it takes a work place back when it resumes.
func TestAParkedDocumentHoldsNoPlace(t *testing.T) {
	t.Parallel()
	p := newPlaces(1)
	start := make(chan struct{})
	close(start)
	h := p.hold(context.Background(), start)
	if !h.work {
		t.Fatal("the document has no work place")
	}
	ctx, cancel := h.chunking(context.Background(), 80*time.Millisecond)
	defer cancel()
	resume, ok := sdk.StartPark(ctx)
	if !ok {
		t.Fatal("a document's context cannot park")
	}
	if h.work || h.wait {
		t.Errorf("parked, the document holds work %t, wait %t; want neither", h.work, h.wait)
	}
	other := p.hold(context.Background(), start) // takes the free work place
	otherCtx, otherCancel := other.chunking(context.Background(), 0)
	defer otherCancel()
	done := sdk.StartWait(otherCtx) // the wait place is free too
	time.Sleep(150 * time.Millisecond)
	if ctx.Err() != nil {
		t.Errorf("the parked document's clock ran: %v", ctx.Err())
	}
	done()
	other.done()
	resume()
	if !h.work {
		t.Error("the document did not take its work place back")
	}
	h.done()
}

// TestAParkedDocumentsOwnCallKeepsItsDeadline checks that a document's own call runs on its
// clock while the document is also parked on another's.
func TestAParkedDocumentsOwnCallKeepsItsDeadline(t *testing.T) {
	t.Parallel()
	p := newPlaces(1)
	start := make(chan struct{})
	close(start)
	h := p.hold(context.Background(), start)
	ctx, cancel := h.chunking(context.Background(), 80*time.Millisecond)
	defer cancel()
	done := sdk.StartWait(ctx) // its own call
	resume, _ := sdk.StartPark(ctx)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the document's own call ran past its deadline while the document was parked")
	}
	resume()
	done()
	h.done()
}
