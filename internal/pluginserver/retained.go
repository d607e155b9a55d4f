package pluginserver

import (
	"container/list"
	"context"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/convert"
	"github.com/chunkkit/chunkkit/internal/protocol/rpcstatus"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
)

// What a plugin keeps for CountRanges (protocol 1.1): at least the 64 most recent
// RetainBoundaries requests, as tokenizer.proto promises, and more while they fit 256 MiB.
const (
	retainedRequests = 64
	retainedBytes    = 256 << 20
)

// retained keeps the texts of RetainBoundaries requests by handle, least recently used first
// out. It is safe for concurrent use.
type retained struct {
	mu       sync.Mutex
	next     uint64
	keep     int // requests always kept
	maxBytes int // bytes kept beyond the first keep requests
	bytes    int
	order    *list.List // of *keptTexts, most recent at the front
	byHandle map[uint64]*list.Element
}

type keptTexts struct {
	handle uint64
	model  string
	texts  []string
	bytes  int
}

func newRetained(keep, maxBytes int) *retained {
	return &retained{keep: keep, maxBytes: maxBytes, order: list.New(), byHandle: map[uint64]*list.Element{}}
}

// put keeps texts for model and returns their handle, never 0.
func (r *retained) put(model string, texts []string) uint64 {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	k := &keptTexts{handle: r.next, model: model, texts: texts, bytes: n}
	r.byHandle[k.handle] = r.order.PushFront(k)
	r.bytes += n
	for r.order.Len() > r.keep && r.bytes > r.maxBytes {
		old := r.order.Remove(r.order.Back()).(*keptTexts)
		delete(r.byHandle, old.handle)
		r.bytes -= old.bytes
	}
	return k.handle
}

// get returns the texts kept under handle for model.
func (r *retained) get(handle uint64, model string) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byHandle[handle]
	if !ok {
		return nil, status.Errorf(codes.FailedPrecondition, "retained texts %d are no longer kept (the plugin keeps the %d most recent requests); send the texts with Count", handle, r.keep)
	}
	k := e.Value.(*keptTexts)
	if k.model != model {
		return nil, status.Errorf(codes.InvalidArgument, "retained texts %d were measured for model %q, not %q", handle, k.model, model)
	}
	r.order.MoveToFront(e)
	return k.texts, nil
}

func (t *tokenizerServer) RetainBoundaries(ctx context.Context, req *tokenizerv1.RetainRequest) (resp *tokenizerv1.RetainedBoundaries, err error) {
	defer recoverPanic(t.s, "RetainBoundaries", &err)
	tc, err := model(ctx, t.s.Counters, req.GetModel())
	if err != nil {
		return nil, err
	}
	texts := convert.StringsView(req.GetTexts())
	defer t.calls.hold(ctx)()
	bounds, err := tc.Boundaries(ctx, texts)
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	if !req.GetPackedEnds() {
		return &tokenizerv1.RetainedBoundaries{Ends: commonv1.NewEndsList(bounds), Handle: t.kept.put(req.GetModel(), texts)}, nil
	}
	packed, err := packEnds(bounds)
	if err != nil {
		return nil, err
	}
	return &tokenizerv1.RetainedBoundaries{PackedEnds: packed, Handle: t.kept.put(req.GetModel(), texts)}, nil
}

func (t *tokenizerServer) CountRanges(ctx context.Context, req *tokenizerv1.CountRangesRequest) (resp *tokenizerv1.CountResponse, err error) {
	defer recoverPanic(t.s, "CountRanges", &err)
	tc, err := model(ctx, t.s.Counters, req.GetModel())
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(req.GetTexts()))
	var buf []byte
	for i, c := range req.GetTexts() {
		buf = buf[:0]
		for j, p := range c.GetPieces() {
			switch piece := p.GetPiece().(type) {
			case *tokenizerv1.Piece_Literal:
				buf = append(buf, piece.Literal...)
			case *tokenizerv1.Piece_Range:
				rg := piece.Range
				kept, err := t.kept.get(rg.GetHandle(), req.GetModel())
				if err != nil {
					return nil, err
				}
				if int(rg.GetText()) >= len(kept) {
					return nil, status.Errorf(codes.InvalidArgument, "text %d piece %d: text %d of retained texts %d, which hold %d", i, j, rg.GetText(), rg.GetHandle(), len(kept))
				}
				s := kept[rg.GetText()]
				if rg.GetStart() > rg.GetEnd() || rg.GetEnd() > uint64(len(s)) {
					return nil, status.Errorf(codes.InvalidArgument, "text %d piece %d: range [%d, %d) outside a text of %d bytes", i, j, rg.GetStart(), rg.GetEnd(), len(s))
				}
				buf = append(buf, s[rg.GetStart():rg.GetEnd()]...)
			default:
				return nil, status.Errorf(codes.InvalidArgument, "text %d piece %d: neither literal nor range", i, j)
			}
		}
		texts[i] = string(buf)
	}
	defer t.calls.hold(ctx)()
	counts, err := tc.Count(ctx, texts)
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &tokenizerv1.CountResponse{Counts: convert.Int64s(counts)}, nil
}
