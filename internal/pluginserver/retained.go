package pluginserver

import (
	"container/list"
	"context"
	"slices"
	"sync"
	"unsafe"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/convert"
	"github.com/chunkkit/chunkkit/internal/protocol/rpcstatus"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
)

// What a plugin keeps for CountRanges (protocol 1.1): at least the 64 most recent
// RetainBoundaries requests, as tokenizer.proto promises, and more while they fit 32 MiB (their
// texts, and the marks of an sdk.RangeCounter that says their size). A
// host needs the texts of the documents it has in flight only (4 per worker with pipeline.Run,
// each counting the chunks of its window soon after measuring it); with 256 MiB, the plugin's
// peak RSS on a 110 MB corpus was 289 MB, most of it texts long counted.
const (
	retainedRequests = 64
	retainedBytes    = 32 << 20
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
	mark   any // what an sdk.RangeCounter kept of the texts, or nil
	bytes  int
}

func newRetained(keep, maxBytes int) *retained {
	return &retained{keep: keep, maxBytes: maxBytes, order: list.New(), byHandle: map[uint64]*list.Element{}}
}

// put keeps texts for model, with the mark an sdk.RangeCounter returned for them (or nil),
// and returns their handle, never 0. The bytes kept are the texts' and the mark's, when it
// says (Size): the tiktoken plugin's checkpoints are a third of the texts' size.
func (r *retained) put(model string, texts []string, mark any) uint64 {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	if m, ok := mark.(interface{ Size() int }); ok {
		n += m.Size()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	k := &keptTexts{handle: r.next, model: model, texts: texts, mark: mark, bytes: n}
	r.byHandle[k.handle] = r.order.PushFront(k)
	r.bytes += n
	for r.order.Len() > r.keep && r.bytes > r.maxBytes {
		old := r.order.Remove(r.order.Back()).(*keptTexts)
		delete(r.byHandle, old.handle)
		r.bytes -= old.bytes
	}
	return k.handle
}

// get returns the texts kept under handle for model, and their mark.
func (r *retained) get(handle uint64, model string) ([]string, any, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byHandle[handle]
	if !ok {
		return nil, nil, status.Errorf(codes.FailedPrecondition, "retained texts %d are no longer kept (the plugin keeps the %d most recent requests); send the texts with Count", handle, r.keep)
	}
	k := e.Value.(*keptTexts)
	if k.model != model {
		return nil, nil, status.Errorf(codes.InvalidArgument, "retained texts %d were measured for model %q, not %q", handle, k.model, model)
	}
	r.order.MoveToFront(e)
	return k.texts, k.mark, nil
}

func (t *tokenizerServer) RetainBoundaries(ctx context.Context, req *tokenizerv1.RetainRequest) (resp *tokenizerv1.RetainedBoundaries, err error) {
	defer recoverPanic(t.s, "RetainBoundaries", &err)
	tc, err := model(ctx, t.s.Counters, req.GetModel())
	if err != nil {
		return nil, err
	}
	texts := convert.StringsView(req.GetTexts())
	defer t.calls.hold(ctx)()
	var (
		bounds [][]int
		mark   any
	)
	if rc, ok := tc.(sdk.RangeCounter); ok {
		bounds, mark, err = rc.MeasureMarked(ctx, texts)
	} else {
		bounds, err = tc.Boundaries(ctx, texts)
	}
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	if !req.GetPackedEnds() {
		return &tokenizerv1.RetainedBoundaries{Ends: commonv1.NewEndsList(bounds), Handle: t.kept.put(req.GetModel(), texts, mark), PackedTexts: true}, nil
	}
	packed, err := packEnds(bounds)
	if err != nil {
		return nil, err
	}
	return &tokenizerv1.RetainedBoundaries{PackedEnds: packed, Handle: t.kept.put(req.GetModel(), texts, mark), PackedTexts: true}, nil
}

func (t *tokenizerServer) CountRanges(ctx context.Context, req *tokenizerv1.CountRangesRequest) (resp *tokenizerv1.CountResponse, err error) {
	defer recoverPanic(t.s, "CountRanges", &err)
	tc, err := model(ctx, t.s.Counters, req.GetModel())
	if err != nil {
		return nil, err
	}
	var b textsBuilder
	if len(req.GetPackedTexts()) > 0 && len(req.GetTexts()) > 0 {
		return nil, status.Errorf(codes.InvalidArgument, "both texts (%d) and packed_texts (%d bytes): send one", len(req.GetTexts()), len(req.GetPackedTexts()))
	}
	if packed := req.GetPackedTexts(); len(packed) > 0 {
		err = t.buildPacked(&b, req.GetModel(), packed, req.GetHandles())
	} else {
		err = t.buildComposites(&b, req.GetModel(), req.GetTexts())
	}
	if err != nil {
		return nil, err
	}
	defer t.calls.hold(ctx)()
	var counts []int
	if rc, ok := tc.(sdk.RangeCounter); ok && len(b.ranges) > 0 {
		counts, err = rc.CountMarked(ctx, b.marked())
	} else {
		counts, err = tc.Count(ctx, b.texts())
	}
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &tokenizerv1.CountResponse{Counts: convert.Int64s(counts)}, nil
}

// buildComposites builds the texts of composites, the messages of CountRangesRequest.texts.
func (t *tokenizerServer) buildComposites(b *textsBuilder, model string, composites []*tokenizerv1.Composite) error {
	for i, c := range composites {
		for j, p := range c.GetPieces() {
			switch piece := p.GetPiece().(type) {
			case *tokenizerv1.Piece_Literal:
				b.add(convert.StringView(piece.Literal))
			case *tokenizerv1.Piece_Range:
				rg := piece.Range
				if err := t.addRange(b, model, rg.GetHandle(), rg.GetText(), rg.GetStart(), rg.GetEnd(), i, j); err != nil {
					return err
				}
			default:
				return status.Errorf(codes.InvalidArgument, "text %d piece %d: neither literal nor range", i, j)
			}
		}
		b.end()
	}
	return nil
}

// buildPacked builds the texts of packed, CountRangesRequest.packed_texts (protocol 1.2). It
// reads packed twice: first to check every piece and size b for the texts, so that building
// them copies each byte once (a request's texts are a document's chunks, megabytes, and a
// growing buffer copied them twice over and cleared what it grew into), then to build them.
func (t *tokenizerServer) buildPacked(b *textsBuilder, model string, packed []byte, handles []uint64) error {
	kept := keptOf{t: t, model: model, handles: handles}
	var (
		texts, several, ranges, bufBytes int
		pieces, bytes                    int // of the composite being read
	)
	_, err := tokenizerv1.RangePackedTexts(packed,
		func(i, j int, p tokenizerv1.PackedPiece) error {
			pieces++
			if p.IsLiteral {
				bytes += len(p.Literal)
				return nil
			}
			s, _, err := kept.rangeOf(p, i, j)
			bytes += len(s)
			ranges++
			return err
		},
		func(int) error {
			texts++
			if pieces > 1 {
				several++
				bufBytes += bytes
			}
			pieces, bytes = 0, 0
			return nil
		})
	if err == nil {
		b.grow(texts, several, ranges, bufBytes)
		_, err = tokenizerv1.RangePackedTexts(packed,
			func(i, j int, p tokenizerv1.PackedPiece) error {
				if p.IsLiteral {
					b.add(convert.StringView(p.Literal))
					return nil
				}
				s, mark, err := kept.rangeOf(p, i, j)
				if err != nil {
					return err
				}
				if mark != nil {
					b.addMarked(s, mark, int(p.Text), int(p.Start))
				} else {
					b.add(s)
				}
				return nil
			},
			func(int) error {
				b.end()
				return nil
			})
	}
	if err != nil {
		if _, ok := status.FromError(err); ok {
			return err
		}
		return status.Errorf(codes.InvalidArgument, "%v", err)
	}
	return nil
}

// keptOf finds the texts the ranges of one packed request are of, by their index into its
// handles, each handle looked up once.
type keptOf struct {
	t       *tokenizerServer
	model   string
	handles []uint64
	found   []keptFound // by index into handles, once looked up
}

type keptFound struct {
	texts []string
	mark  any
	ok    bool
}

// rangeOf returns the text range piece p (of composite i, piece j) is, and the mark of the
// texts it is of.
func (k *keptOf) rangeOf(p tokenizerv1.PackedPiece, i, j int) (string, any, error) {
	if p.Handle >= uint64(len(k.handles)) {
		return "", nil, status.Errorf(codes.InvalidArgument, "text %d piece %d: handle %d of %d", i, j, p.Handle, len(k.handles))
	}
	if k.found == nil {
		k.found = make([]keptFound, len(k.handles))
	}
	f := &k.found[p.Handle]
	if !f.ok {
		texts, mark, err := k.t.kept.get(k.handles[p.Handle], k.model)
		if err != nil {
			return "", nil, err
		}
		*f = keptFound{texts: texts, mark: mark, ok: true}
	}
	s, err := keptRange(f.texts, k.handles[p.Handle], p.Text, p.Start, p.End, i, j)
	return s, f.mark, err
}

// addRange adds [start, end) of text text of the texts kept under handle to the text b is
// building, for piece j of composite i.
func (t *tokenizerServer) addRange(b *textsBuilder, model string, handle uint64, text uint32, start, end uint64, i, j int) error {
	kept, mark, err := t.kept.get(handle, model)
	if err != nil {
		return err
	}
	s, err := keptRange(kept, handle, text, start, end, i, j)
	if err != nil {
		return err
	}
	if mark != nil {
		b.addMarked(s, mark, int(text), int(start))
		return nil
	}
	b.add(s)
	return nil
}

// keptRange returns [start, end) of text text of kept, the texts kept under handle, for piece
// j of composite i.
func keptRange(kept []string, handle uint64, text uint32, start, end uint64, i, j int) (string, error) {
	if int(text) >= len(kept) {
		return "", status.Errorf(codes.InvalidArgument, "text %d piece %d: text %d of retained texts %d, which hold %d", i, j, text, handle, len(kept))
	}
	s := kept[text]
	if start > end || end > uint64(len(s)) {
		return "", status.Errorf(codes.InvalidArgument, "text %d piece %d: range [%d, %d) outside a text of %d bytes", i, j, start, end, len(s))
	}
	return s[start:end], nil
}

// textsBuilder builds the texts of a CountRanges request. Most of them are one range of a kept
// text, a chunk of a document measured before: such a text is the kept text's substring, not
// copied. The others are built in one buffer: a request holds thousands of them, and one
// allocation each cost as much as their bytes did.
//
// Ranges of texts an sdk.RangeCounter marked are also recorded, for its CountMarked.
type textsBuilder struct {
	out     []string // the texts ended; those built in buf are filled in by texts
	inBuf   []span   // where in buf the texts built there are, with their index in out
	buf     []byte
	first   string // the first piece of the text being built, while it is its only one
	pieces  int    // the pieces of the text being built
	bufFrom int    // where in buf the text being built starts, once it has two pieces

	ranges    []sdk.MarkedRange // the marked ranges of every text, in order
	rangeEnds []int             // for each text ended, the end of its ranges in ranges
}

type span struct{ text, from, to int }

// grow makes room for texts more texts, several of them of several pieces, bufBytes more bytes
// of those, and ranges more marked ranges.
func (b *textsBuilder) grow(texts, several, ranges, bufBytes int) {
	b.out = slices.Grow(b.out, texts)
	b.inBuf = slices.Grow(b.inBuf, several)
	b.rangeEnds = slices.Grow(b.rangeEnds, texts)
	b.ranges = slices.Grow(b.ranges, ranges)
	b.buf = slices.Grow(b.buf, bufBytes)
}

// add adds piece to the text being built. Pieces alias what they were cut from (a kept text,
// the request): texts returns them, so they must stay unchanged until counted.
func (b *textsBuilder) add(piece string) {
	switch b.pieces {
	case 0:
		b.first = piece
	case 1:
		b.bufFrom = len(b.buf)
		b.buf = append(b.buf, b.first...)
		b.buf = append(b.buf, piece...)
	default:
		b.buf = append(b.buf, piece...)
	}
	b.pieces++
}

// length returns the bytes of the text being built so far.
func (b *textsBuilder) length() int {
	switch b.pieces {
	case 0:
		return 0
	case 1:
		return len(b.first)
	default:
		return len(b.buf) - b.bufFrom
	}
}

// addMarked adds piece, bytes [start, start+len(piece)) of text number of of the texts whose
// mark is mark, to the text being built.
func (b *textsBuilder) addMarked(piece string, mark any, of, start int) {
	b.ranges = append(b.ranges, sdk.MarkedRange{At: b.length(), Len: len(piece), Mark: mark, Of: of, Start: start})
	b.add(piece)
}

// end ends the text being built.
func (b *textsBuilder) end() {
	switch b.pieces {
	case 0:
		b.out = append(b.out, "")
	case 1:
		b.out = append(b.out, b.first)
	default:
		b.inBuf = append(b.inBuf, span{text: len(b.out), from: b.bufFrom, to: len(b.buf)})
		b.out = append(b.out, "")
	}
	b.first, b.pieces = "", 0
	b.rangeEnds = append(b.rangeEnds, len(b.ranges))
}

// texts returns the texts built, which share buf: it must not be added to afterwards.
func (b *textsBuilder) texts() []string {
	all := unsafe.String(unsafe.SliceData(b.buf), len(b.buf))
	for _, s := range b.inBuf {
		b.out[s.text] = all[s.from:s.to]
	}
	return b.out
}

// marked returns the texts built with their marked ranges, for sdk.RangeCounter.CountMarked.
// It is texts: nothing must be added afterwards.
func (b *textsBuilder) marked() []sdk.MarkedText {
	texts := b.texts()
	out := make([]sdk.MarkedText, len(texts))
	from := 0
	for i, text := range texts {
		to := b.rangeEnds[i]
		out[i] = sdk.MarkedText{Text: text, Ranges: b.ranges[from:to:to]}
		from = to
	}
	return out
}
