package host

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/chunkkit/chunkkit/internal/pluginclient"
	"github.com/chunkkit/chunkkit/sdk"
)

// Merging the calls of several documents into one request. pipeline.Run bounds the plugin
// calls in flight (-j N) and queues the documents whose call would be one more (sdk.StartWait
// blocks). A chunker's two calls per document, RetainBoundaries and CountPieces, then wait in
// line, each to be one request with a few milliseconds of work for the plugin, and each request
// costs both processes a round of wake-ups, framing and context switches whatever its size (the
// Node.js corpus, 64 documents: ~0.5 ms of CPU per call, a seventh of the plugin path's CPU).
// So the first document that queues for its turn leads a batch, and the ones that come while it
// waits join it (sdk.StartPark, which lets them give up their work place without taking a turn
// to call); once the leader's turn comes, the batch is one call, whose answer is split so that
// each document gets exactly what its own call would have returned.
//
// When the merged call fails, every member makes its own call again, one member of the batch
// at a time (the leader first, the others parked until their turn), so that an error names the
// document that caused it and a document that crashes the plugin does so alone, not with the
// others of its batch in flight. The merged call is the leader's: it has the leader's
// deadline, and a plugin that does not answer by then costs the leader, as it costs a document
// whose own call it does not answer (the supervisor replaces the process; the others call
// again on the new one). So a document whose text hangs the plugin costs the leader of the
// batch it joined too. And after a failure the counter merges nothing for a restart window
// (Options.RestartWindow), so that a failing plugin's documents, each of which costs one
// failure more when it was merged (the merged call's and its own), do not reach the restart
// limit twice as fast.
//
// Merging needs the caller's scheduler to park (sdk.CanPark); without one (a Host used
// directly) every call is its own.

// The bounds of a batch: its texts' bytes (RetainBoundaries) or its pieces (CountPieces), and
// its members. 1 MiB of text is ~10 ms of work for a BPE plugin.
const (
	mergeBytes   = 1 << 20
	mergePieces  = 16 << 10
	mergeMembers = 32
)

// batch is a merged call being collected (open) or made.
type batch[M any] struct {
	members []*M
	size    int
	closed  bool
	done    chan struct{} // closed when every member's answer is set, or the call failed
	failed  bool          // the merged call failed: each member calls alone
	retry   chan struct{} // after a failure, held by the member calling alone
}

// merger collects the callers that queue for a call of one kind on one counter.
type merger[M any] struct {
	mu   sync.Mutex
	open *batch[M]
	off  time.Time // no merging before: a merged call failed
}

// join adds m to the open batch if there is one and it has room for size more, and returns
// it; otherwise it opens a batch with m as its leader and returns it as led. It returns
// neither while merging is off.
func (g *merger[M]) join(m *M, size, limit int) (joined, led *batch[M]) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if time.Now().Before(g.off) {
		return nil, nil
	}
	if b := g.open; b != nil && !b.closed && len(b.members) < mergeMembers && b.size+size <= limit {
		b.members = append(b.members, m)
		b.size += size
		return b, nil
	}
	b := &batch[M]{members: []*M{m}, size: size, done: make(chan struct{}), retry: make(chan struct{}, 1)}
	g.open = b
	return nil, b
}

// close ends the collection of b and returns its members.
func (g *merger[M]) close(b *batch[M]) []*M {
	g.mu.Lock()
	defer g.mu.Unlock()
	b.closed = true
	if g.open == b {
		g.open = nil
	}
	return b.members
}

// abandon ends b, led with ctx, after its merged call failed with err: merging is off for
// window, and b's members call alone, one at a time, the leader first. It reports whether the
// leader calls alone too (false when err is the leader's own deadline or cancellation), and
// returns the function that passes the leader's turn on, to call once its own call is done.
func (g *merger[M]) abandon(ctx context.Context, b *batch[M], err error, window time.Duration) (alone bool, passOn func()) {
	g.mu.Lock()
	g.off = time.Now().Add(window)
	g.mu.Unlock()
	b.failed = true
	b.retry <- struct{}{}
	close(b.done)
	return !expired(ctx) || errors.Is(err, pluginclient.ErrNotRetained), func() { <-b.retry }
}

// follow waits, parked, for the batch b that m joined. It reports whether m's answer is in;
// when it is not, m calls alone and then calls release (which gives back b's retry turn, for
// which follow waited, still parked, when the merged call failed).
func follow[M any](ctx context.Context, b *batch[M]) (answered bool, release func()) {
	release = func() {}
	resume, _ := sdk.StartPark(ctx)
	defer resume()
	select {
	case <-b.done:
	case <-ctx.Done():
		return false, release // m's own call reports how its context ended
	}
	if !b.failed {
		return true, release
	}
	select {
	case b.retry <- struct{}{}:
		return false, func() { <-b.retry }
	case <-ctx.Done():
		return false, release
	}
}

// expired reports whether ctx is done or its deadline has passed (a call may end at its
// deadline a moment before its context does).
func expired(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	dl, ok := ctx.Deadline()
	return ok && !time.Now().Before(dl)
}

// retainCall is one document's RetainBoundaries in a batch.
type retainCall struct {
	texts    []string
	bounds   [][]int
	retained sdk.Retained
}

// mergedRetain is RetainBoundaries through c's merger: it reports false when the call was not
// merged (ctx cannot park, merging is off, or the merged call failed) and the caller makes it
// alone, and then calls release.
func (c *pluginCounter) mergedRetain(ctx context.Context, texts []string) (bounds [][]int, r sdk.Retained, err error, ok bool, release func()) {
	release = func() {}
	if !sdk.CanPark(ctx) || ctx.Err() != nil {
		return nil, nil, nil, false, release
	}
	m := &retainCall{texts: texts}
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	joined, led := c.retains.join(m, size, mergeBytes)
	switch {
	case joined != nil:
		answered, release := follow(ctx, joined)
		return m.bounds, m.retained, nil, answered, release
	case led == nil:
		return nil, nil, nil, false, release
	}
	defer sdk.StartWait(ctx)()
	members := c.retains.close(led)
	if len(members) == 1 {
		defer close(led.done)
		bounds, r, err = c.retainAlone(ctx, texts)
		return bounds, r, err, true, release
	}
	var all []string
	for _, mm := range members {
		all = append(all, mm.texts...)
	}
	b, kept, inst, err := c.keep(ctx, all)
	if err != nil {
		alone, passOn := c.retains.abandon(ctx, led, err, c.s.opts.RestartWindow)
		defer passOn()
		if !alone {
			return nil, nil, err, true, release
		}
		bounds, r, err = c.retainAlone(ctx, texts)
		return bounds, r, err, true, release
	}
	defer close(led.done)
	off := 0
	for _, mm := range members {
		n := len(mm.texts)
		mm.bounds = b[off : off+n : off+n]
		mm.retained = &pluginRetained{c: c, inst: inst, kept: kept, offset: off, texts: mm.texts}
		off += n
	}
	return m.bounds, m.retained, nil, true, release
}

// countCall is one document's CountPieces in a batch.
type countCall struct {
	r      *pluginRetained
	items  [][]sdk.Piece
	counts []int
	other  bool // its texts are another process's than the leader's: it calls alone
}

// mergedCount is CountPieces of r through c's merger, as mergedRetain. Only the calls on texts
// kept by the leader's process merge; the others call alone.
func (r *pluginRetained) mergedCount(ctx context.Context, items [][]sdk.Piece) (counts []int, err error, ok bool, release func()) {
	release = func() {}
	if !sdk.CanPark(ctx) || ctx.Err() != nil {
		return nil, nil, false, release
	}
	c := r.c
	m := &countCall{r: r, items: items}
	size := 0
	for _, it := range items {
		size += len(it)
	}
	joined, led := c.counts.join(m, size, mergePieces)
	switch {
	case joined != nil:
		answered, release := follow(ctx, joined)
		if answered && m.other {
			return nil, nil, false, release
		}
		return m.counts, nil, answered, release
	case led == nil:
		return nil, nil, false, release
	}
	defer sdk.StartWait(ctx)()
	members := c.counts.close(led)
	var kepts []*pluginclient.Kept
	var mine []*countCall
	for _, mm := range members {
		if mm.r.inst != r.inst {
			mm.other = true
			continue
		}
		kepts = append(kepts, mm.r.kept)
		mine = append(mine, mm)
	}
	if len(mine) == 1 {
		defer close(led.done)
		counts, err = r.countAlone(ctx, items)
		return counts, err, true, release
	}
	merged, offsets := pluginclient.MergeKept(kepts)
	var all [][]sdk.Piece
	for i, mm := range mine {
		all = append(all, shiftPieces(mm.items, offsets[i]+mm.r.offset)...)
	}
	var got []int
	err = c.s.call(ctx, func(inst *instance) (err error) {
		if inst != r.inst {
			return pluginclient.ErrNotRetained
		}
		got, err = inst.tokenizer.WithModel(c.model).CountRanges(ctx, merged, all)
		return err
	})
	if err != nil {
		alone, passOn := c.counts.abandon(ctx, led, err, c.s.opts.RestartWindow)
		defer passOn()
		if !alone {
			return nil, err, true, release
		}
		counts, err = r.countAlone(ctx, items)
		return counts, err, true, release
	}
	defer close(led.done)
	off := 0
	for _, mm := range mine {
		n := len(mm.items)
		mm.counts = got[off : off+n : off+n]
		off += n
	}
	return m.counts, nil, true, release
}
