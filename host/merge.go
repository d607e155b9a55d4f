package host

import (
	"context"
	"sync"

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
// to call); once the leader's turn comes, the batch is one call with the leader's deadline.
//
// The answer of a merged call is split so that each document gets exactly what its own call
// would have returned. When the merged call fails, each member whose context is still alive
// makes its own call (so that an error names the document that caused it, and a plugin that
// hung costs the leader whose deadline passed, not the documents that joined it).
//
// Merging needs the caller's scheduler to park (sdk.CanPark); without one (a Host used
// directly) every call is its own.

// mergeLimit bounds a batch: its texts' bytes (or a CountPieces batch's items) stay within one
// request's worth, so merging never makes a request larger than one document's could be.
const (
	mergeBytes   = 1 << 20
	mergeItems   = 16 << 10
	mergeMembers = 32
)

// batch is a merged call being collected (open) or made.
type batch[M any] struct {
	members []*M
	size    int
	closed  bool
	done    chan struct{} // closed when every member's answer is set
}

// merger collects the callers that queue for a call of one kind on one counter.
type merger[M any] struct {
	mu   sync.Mutex
	open *batch[M]
}

// join adds m to the open batch if there is one and it has room for size more, and returns
// it; otherwise it opens a batch with m as its leader and returns nil.
func (g *merger[M]) join(m *M, size, limit int) (joined *batch[M], led *batch[M]) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if b := g.open; b != nil && !b.closed && len(b.members) < mergeMembers && b.size+size <= limit {
		b.members = append(b.members, m)
		b.size += size
		return b, nil
	}
	b := &batch[M]{members: []*M{m}, size: size, done: make(chan struct{})}
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

// follow waits, parked, for the batch b that m joined, and reports whether m's answer is in
// (false: m must make its own call; ctx, m's context, may be done).
func follow[M any](ctx context.Context, b *batch[M], alone func(m *M) bool, m *M) bool {
	resume, _ := sdk.StartPark(ctx)
	select {
	case <-b.done:
	case <-ctx.Done():
	}
	resume()
	select {
	case <-b.done:
		return !alone(m)
	default:
		return false // m's context ended first: its own call reports how
	}
}

// retainCall is one document's RetainBoundaries in a batch.
type retainCall struct {
	texts    []string
	bounds   [][]int
	retained sdk.Retained
	err      error
	alone    bool // the merged call failed: make this call alone
}

// mergedRetain is RetainBoundaries through c's merger of RetainBoundaries calls: it reports
// false when the call was not merged (ctx cannot park, or the merged call failed for it) and
// the caller makes it alone.
func (c *pluginCounter) mergedRetain(ctx context.Context, texts []string) ([][]int, sdk.Retained, error, bool) {
	if !sdk.CanPark(ctx) {
		return nil, nil, nil, false
	}
	m := &retainCall{texts: texts}
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	joined, led := c.retains.join(m, size, mergeBytes)
	if joined != nil {
		if !follow(ctx, joined, func(m *retainCall) bool { return m.alone }, m) {
			return nil, nil, nil, false
		}
		return m.bounds, m.retained, m.err, true
	}
	defer sdk.StartWait(ctx)()
	members := c.retains.close(led)
	defer close(led.done)
	if len(members) == 1 {
		m.bounds, m.retained, m.err = c.retainAlone(ctx, texts)
		return m.bounds, m.retained, m.err, true
	}
	var all []string
	for _, m := range members {
		all = append(all, m.texts...)
	}
	bounds, kept, inst, err := c.keep(ctx, all)
	if err != nil {
		for _, m := range members[1:] {
			m.alone = true
		}
		if ctx.Err() == nil {
			// Not the leader's deadline: the leader, too, calls alone (its turn is still held).
			m.bounds, m.retained, m.err = c.retainAlone(ctx, texts)
		} else {
			m.err = err
		}
		return m.bounds, m.retained, m.err, true
	}
	off := 0
	for _, mm := range members {
		n := len(mm.texts)
		mm.bounds = bounds[off : off+n : off+n]
		mm.retained = &pluginRetained{c: c, inst: inst, kept: kept, offset: off, texts: mm.texts}
		off += n
	}
	return m.bounds, m.retained, nil, true
}

// countCall is one document's CountPieces in a batch.
type countCall struct {
	r      *pluginRetained
	items  [][]sdk.Piece
	counts []int
	err    error
	alone  bool
}

// mergedCount is CountPieces of r through c's merger of CountPieces calls: it reports false
// when the call was not merged and the caller makes it alone. Only the calls on texts kept by
// one plugin process merge (the current one when the leader's turn comes).
func (r *pluginRetained) mergedCount(ctx context.Context, items [][]sdk.Piece) ([]int, error, bool) {
	if !sdk.CanPark(ctx) {
		return nil, nil, false
	}
	c := r.c
	m := &countCall{r: r, items: items}
	size := 0
	for _, it := range items {
		size += len(it)
	}
	joined, led := c.counts.join(m, size, mergeItems)
	if joined != nil {
		if !follow(ctx, joined, func(m *countCall) bool { return m.alone }, m) {
			return nil, nil, false
		}
		return m.counts, m.err, true
	}
	defer sdk.StartWait(ctx)()
	members := c.counts.close(led)
	defer close(led.done)
	ok := func(mm *countCall) bool { return mm.r.inst == r.inst }
	var kepts []*pluginclient.Kept
	var mine []*countCall
	for _, mm := range members {
		if ok(mm) {
			kepts = append(kepts, mm.r.kept)
			mine = append(mine, mm)
		} else {
			mm.alone = true
		}
	}
	if len(mine) == 1 {
		m.counts, m.err = r.countAlone(ctx, items)
		return m.counts, m.err, true
	}
	merged, offsets := pluginclient.MergeKept(kepts)
	var all [][]sdk.Piece
	for i, mm := range mine {
		shift := offsets[i] + mm.r.offset
		for _, it := range mm.items {
			out := make([]sdk.Piece, len(it))
			for j, p := range it {
				if p.Text >= 0 {
					p.Text += shift
				}
				out[j] = p
			}
			all = append(all, out)
		}
	}
	var counts []int
	err := c.s.call(ctx, func(inst *instance) (err error) {
		if inst != r.inst {
			return pluginclient.ErrNotRetained
		}
		counts, err = inst.tokenizer.WithModel(c.model).CountRanges(ctx, merged, all)
		return err
	})
	if err != nil {
		for _, mm := range mine[1:] {
			mm.alone = true
		}
		if ctx.Err() == nil {
			m.counts, m.err = r.countAlone(ctx, items)
		} else {
			m.err = err
		}
		return m.counts, m.err, true
	}
	off := 0
	for _, mm := range mine {
		n := len(mm.items)
		mm.counts = counts[off : off+n : off+n]
		off += n
	}
	return m.counts, nil, true
}
