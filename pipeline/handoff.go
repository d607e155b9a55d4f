package pipeline

import (
	"context"
	"sync"
	"time"

	"github.com/chunkkit/chunkkit/sdk"
)

// places bounds what documents do at once: work holds Options.Workers places for documents
// doing host work (reading, parsing, chunking), wait as many for documents waiting on a
// plugin's answer (sdk.StartWait, which the host's plugin clients call around each call). A
// document gives its work place up while it waits, the way Go's runtime hands off a processor
// during a system call, so at -j 1 the host parses and chunks the next document while the
// plugin tokenizes this one; the plugin still has at most -j calls of the run to answer. Run
// starts inFlight times as many goroutines as work places, so documents queue for both.
type places struct {
	work, wait sem
}

func newPlaces(n int) *places { return &places{work: make(sem, n), wait: make(sem, n)} }

// sem is a counting semaphore.
type sem chan struct{}

// take blocks until a place is free and takes it, or until ctx is done; it reports whether it
// took one.
func (s sem) take(ctx context.Context) bool {
	select {
	case s <- struct{}{}:
		return true
	default:
	}
	select {
	case s <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// give frees a place taken by take.
func (s sem) give() { <-s }

// handoff is one document's hold on the places: its wait hook trades the work place for a wait
// place during the document's first wait on a plugin and trades back when its last wait ends
// (a chunker may wait on several calls at once). Time spent queued for a place does not count
// against the document's timeout: its clock stops (see elastic).
type handoff struct {
	p     *places
	ctx   context.Context // the run's: once it is done, no place is waited for
	mu    sync.Mutex
	work  bool // holds a work place
	wait  bool // holds a wait place
	waits int  // calls the document waits on (hook)
	parks int  // calls of others the document waits on (park)
	// parkPaused says the document's clock is stopped for its parks (syncClock).
	parkPaused bool
	limit      *elastic // the document's timeout, once chunking starts; nil without one
}

// hold takes a work place for one document once after is closed (the document before it has
// taken its place), or gives up when ctx, the run's, is done, and returns the document's
// handoff.
func (p *places) hold(ctx context.Context, after <-chan struct{}) *handoff {
	h := &handoff{p: p, ctx: ctx}
	select {
	case <-after:
		h.work = p.work.take(ctx)
	case <-ctx.Done():
	}
	return h
}

// budget bounds the input bytes of the documents in flight: take admits a document when its
// bytes fit the limit, or when fewer than min documents are in flight, whatever their size.
type budget struct {
	mu      sync.Mutex
	used    int
	docs    int
	limit   int
	min     int
	changed chan struct{}           // closed and replaced by every give
	notify  func(used, largest int) // Options.InFlight, called under mu
	sizes   map[int]int             // with notify: how many documents in flight have each size
	largest int                     // with notify: the largest size in flight
}

func newBudget(limit, min int) *budget {
	return &budget{limit: limit, min: min, changed: make(chan struct{})}
}

// take waits until n bytes are admitted and reports true, or reports false once ctx is done.
func (b *budget) take(ctx context.Context, n int) bool {
	for {
		b.mu.Lock()
		if b.docs < b.min || b.used+n <= b.limit {
			b.used += n
			b.docs++
			if b.notify != nil {
				b.sized(n, 1)
			}
			b.mu.Unlock()
			return true
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// sized counts one document of n bytes more (d = 1) or less (d = -1) in flight and calls
// notify. b.mu is held.
func (b *budget) sized(n, d int) {
	if b.sizes == nil {
		b.sizes = map[int]int{}
	}
	if b.sizes[n] += d; b.sizes[n] == 0 {
		delete(b.sizes, n)
	}
	switch {
	case d > 0:
		b.largest = max(b.largest, n)
	case n == b.largest && b.sizes[n] == 0:
		b.largest = 0
		for size := range b.sizes {
			b.largest = max(b.largest, size)
		}
	}
	b.notify(b.used, b.largest)
}

// give returns the n bytes of a document that take admitted.
func (b *budget) give(n int) {
	b.mu.Lock()
	b.used -= n
	b.docs--
	if b.notify != nil {
		b.sized(n, -1)
	}
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// chunking returns the context a document is chunked with: ctx with its wait hook and, when
// timeout is positive, a deadline timeout from now that queueing for places moves later. cancel
// releases it.
func (h *handoff) chunking(ctx context.Context, timeout time.Duration) (cctx context.Context, cancel func()) {
	cancel = func() {}
	if timeout > 0 {
		e := newElastic(ctx, timeout)
		h.mu.Lock()
		h.limit = e
		h.mu.Unlock()
		ctx, cancel = e, e.release
	}
	return sdk.WithParkHook(sdk.WithWaitHook(ctx, h.hook), h.park), cancel
}

// done gives back whatever places the document holds.
func (h *handoff) done() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.work {
		h.p.work.give()
		h.work = false
	}
	if h.wait {
		h.p.wait.give()
		h.wait = false
	}
}

// queue takes a place of s for the document, with its timeout's clock stopped meanwhile.
func (h *handoff) queue(s sem) bool {
	if h.limit == nil {
		return s.take(h.ctx)
	}
	h.limit.pause()
	defer h.limit.resume()
	return s.take(h.ctx)
}

// hook is the document's sdk.WithWaitHook hook.
func (h *handoff) hook() (resume func()) {
	h.mu.Lock()
	h.waits++
	h.syncClock() // the document's own call runs on its clock, even while it is also parked
	if h.waits == 1 {
		if h.work {
			h.p.work.give()
			h.work = false
		}
		h.wait = h.queue(h.p.wait)
	}
	h.mu.Unlock()
	return h.once(func() {
		h.waits--
		if h.waits == 0 && h.wait {
			h.p.wait.give()
			h.wait = false
		}
		h.syncClock()
		h.rejoin()
	})
}

// park is the document's sdk.WithParkHook hook: the document waits on a call another document
// makes for it (host plugin clients merge the calls of documents queued for a wait place), so
// it gives its work place up, takes no wait place, and its clock stops: the call's maker has
// the call's deadline.
func (h *handoff) park() (resume func()) {
	h.mu.Lock()
	h.parks++
	if h.work {
		h.p.work.give()
		h.work = false
	}
	h.syncClock()
	h.mu.Unlock()
	return h.once(func() {
		h.parks--
		h.syncClock()
		h.rejoin()
	})
}

// syncClock stops the document's clock while it is parked and makes no call of its own (a call
// of its own keeps its deadline), and starts it again otherwise; h.mu is held.
func (h *handoff) syncClock() {
	want := h.parks > 0 && h.waits == 0
	if h.limit == nil || want == h.parkPaused {
		return
	}
	if want {
		h.limit.pause()
	} else {
		h.limit.resume()
	}
	h.parkPaused = want
}

// once returns a function that runs f with h.mu held, the first time it is called.
func (h *handoff) once(f func()) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			f()
		})
	}
}

// rejoin takes a work place back once the document waits on nothing; h.mu is held.
func (h *handoff) rejoin() {
	if h.waits == 0 && h.parks == 0 && !h.work {
		h.work = h.queue(h.p.work)
	}
}

// elastic is a context whose clock can stop: a document's timeout, which the time it spends
// queued for a place does not use up. Its Err is context.DeadlineExceeded once the deadline
// passes, so the host sees an ordinary deadline (and replaces a plugin that missed it); a
// deadline of the parent's that comes first wins. The deadline moves only while the document
// is queued, never during a plugin call, so a call's deadline is fixed when it starts.
type elastic struct {
	parent   context.Context
	done     chan struct{}
	mu       sync.Mutex
	deadline time.Time
	pauses   int           // pause calls not yet resumed: the clock runs at 0
	left     time.Duration // while paused: the time that was left
	timer    *time.Timer
	err      error
	unwatch  func() bool
}

func newElastic(parent context.Context, timeout time.Duration) *elastic {
	e := &elastic{parent: parent, done: make(chan struct{}), deadline: time.Now().Add(timeout)}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.timer = time.AfterFunc(timeout, e.expire)
	e.unwatch = context.AfterFunc(parent, func() { e.finish(parent.Err()) })
	return e
}

func (e *elastic) Deadline() (time.Time, bool) {
	e.mu.Lock()
	d := e.deadline
	e.mu.Unlock()
	if pd, ok := e.parent.Deadline(); ok && pd.Before(d) {
		return pd, true
	}
	return d, true
}

func (e *elastic) Done() <-chan struct{} { return e.done }

func (e *elastic) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

func (e *elastic) Value(key any) any { return e.parent.Value(key) }

// pause stops the clock: until resume, the deadline does not come nearer. Pauses nest: the
// clock runs again once every pause has been resumed.
func (e *elastic) pause() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return
	}
	e.pauses++
	if e.pauses > 1 {
		return
	}
	e.left = time.Until(e.deadline)
	e.timer.Stop()
}

// resume starts the clock again with the time that was left when it paused.
func (e *elastic) resume() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil || e.pauses == 0 {
		return
	}
	e.pauses--
	if e.pauses > 0 {
		return
	}
	e.deadline = time.Now().Add(e.left)
	e.timer.Reset(e.left)
}

// expire ends the context when its deadline has passed, or sets the timer again when it moved.
func (e *elastic) expire() {
	e.mu.Lock()
	if left := time.Until(e.deadline); e.pauses > 0 || (left > 0 && e.err == nil) {
		if e.pauses == 0 {
			e.timer.Reset(left)
		}
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	e.finish(context.DeadlineExceeded)
}

func (e *elastic) finish(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return
	}
	e.err = err
	e.timer.Stop()
	close(e.done)
}

// release ends the context and its timer and watch, as a context.CancelFunc.
func (e *elastic) release() {
	e.unwatch()
	e.finish(context.Canceled)
}
