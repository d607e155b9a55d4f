package pluginclient

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/chunkkit/chunkkit/internal/protocol/convert"
	"github.com/chunkkit/chunkkit/internal/protocol/rpcstatus"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
)

// ErrNotRetained is what RetainBoundaries and CountRanges return when the plugin cannot keep
// or no longer holds the texts (a 1.0 plugin, one that kept nothing, or a handle it dropped):
// the caller then sends the texts with Boundaries or Count, and the answer is the same.
var ErrNotRetained = errors.New("pluginclient: the plugin does not hold the texts")

// Kept names the texts of one RetainBoundaries call on the plugin: the handle of each request
// it was split into, and the first text of each.
type Kept struct {
	handles []uint64
	starts  []int // starts[i] is the index of the first text of request i
	// packed is set when every request's answer said the plugin reads packed composite texts
	// (protocol 1.2).
	packed bool
	texts  int // how many texts the call kept
}

// MergeKept returns one Kept that names the texts of every Kept of kepts, those of kepts[i]
// from offsets[i] on, so that one CountRanges counts pieces of texts kept by several
// RetainBoundaries calls (of one plugin process): a piece of text t of kepts[i] is text
// offsets[i]+t of the merged Kept.
func MergeKept(kepts []*Kept) (merged *Kept, offsets []int) {
	merged = &Kept{packed: true}
	offsets = make([]int, len(kepts))
	seen := make(map[*Kept]int, len(kepts)) // the documents of one merged RetainBoundaries share its Kept
	for i, k := range kepts {
		if off, ok := seen[k]; ok {
			offsets[i] = off
			continue
		}
		seen[k] = merged.texts
		offsets[i] = merged.texts
		for j, h := range k.handles {
			merged.handles = append(merged.handles, h)
			merged.starts = append(merged.starts, merged.texts+k.starts[j])
		}
		merged.packed = merged.packed && k.packed
		merged.texts += k.texts
	}
	return merged, offsets
}

// locate returns the index in handles of the request that holds text i and the index of the
// text within it.
func (k *Kept) locate(i int) (int, uint32, bool) {
	if k == nil || i < 0 || i >= k.texts {
		return 0, 0, false
	}
	// The request whose first text is the last at or before i: a merged Kept has a request
	// per document, and CountRanges locates every piece.
	j := sort.SearchInts(k.starts, i+1) - 1
	if j < 0 {
		return 0, 0, false
	}
	return j, uint32(i - k.starts[j]), true
}

// RetainBoundaries returns the token end offsets of each text, as Boundaries, and has the
// plugin keep the texts (protocol 1.1) so that CountRanges can count pieces of them. A plugin
// that does not speak 1.1 (or keeps nothing) gives ErrNotRetained, after which this client
// does not ask again; the caller then uses Boundaries.
func (c *TokenizerClient) RetainBoundaries(ctx context.Context, texts []string) ([][]int, *Kept, error) {
	if c.noRetain.Load() {
		return nil, nil, ErrNotRetained
	}
	var (
		mu      sync.Mutex
		handles = map[int]uint64{} // by the first text of each request
		packed  = true
	)
	bounds, err := batched(ctx, c.client, "boundaries", texts,
		func(ctx context.Context, s span, batch [][]byte) ([][]int, error) {
			resp, err := c.rpc.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: c.model, Texts: batch, PackedEnds: true})
			if err != nil {
				if status.Code(err) == codes.Unimplemented {
					c.noRetain.Store(true)
					return nil, ErrNotRetained
				}
				return nil, err
			}
			if resp.GetHandle() == 0 {
				return nil, ErrNotRetained
			}
			bounds, err := readEnds(resp.GetPackedEnds(), resp.GetEnds(), len(batch))
			if err != nil {
				return nil, err
			}
			mu.Lock()
			handles[s.lo] = resp.GetHandle()
			packed = packed && resp.GetPackedTexts()
			mu.Unlock()
			return bounds, nil
		},
		sdk.CheckBoundaries)
	if err != nil {
		return nil, nil, err
	}
	kept := &Kept{starts: slices.Sorted(maps.Keys(handles)), packed: packed, texts: len(texts)}
	for _, lo := range kept.starts {
		kept.handles = append(kept.handles, handles[lo])
	}
	return bounds, kept, nil
}

// CountRanges returns the token count of each item, the concatenation of its pieces, as Count
// would for that text: a piece of a text kept by the RetainBoundaries call that returned kept
// travels as a range, a literal piece as bytes. ErrNotRetained means the plugin no longer holds
// the texts; the caller then counts with Count.
func (c *TokenizerClient) CountRanges(ctx context.Context, kept *Kept, items [][]sdk.Piece) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, c.errorf("count", err)
	}
	for i, item := range items {
		for j, p := range item {
			if p.Text < 0 {
				continue
			}
			if _, _, ok := kept.locate(p.Text); !ok || p.Start < 0 || p.End < p.Start {
				return nil, c.errorf("count", fmt.Errorf("%w: item %d piece %d: no kept text %d or a bad range [%d, %d)", sdk.ErrInvalidInput, i, j, p.Text, p.Start, p.End))
			}
		}
	}
	if kept.packed {
		return c.countPacked(ctx, kept, items)
	}
	return c.countComposites(ctx, kept, items)
}

// countPacked sends items as packed_texts (protocol 1.2), requests of at most the batch size.
func (c *TokenizerClient) countPacked(ctx context.Context, kept *Kept, items [][]sdk.Piece) ([]int, error) {
	out := make([]int, 0, len(items))
	var buf []byte
	for lo := 0; lo < len(items); {
		buf = buf[:0]
		hi := lo
		for hi < len(items) && (hi == lo || len(buf)+packedSize(items[hi]) <= c.limits.batch) {
			item := items[hi]
			buf = tokenizerv1.AppendPackedComposite(buf, len(item))
			for _, p := range item {
				if p.Text < 0 {
					buf = tokenizerv1.AppendPackedLiteral(buf, p.Literal)
					continue
				}
				h, k, _ := kept.locate(p.Text)
				buf = tokenizerv1.AppendPackedRange(buf, h, k, uint64(p.Start), uint64(p.End))
			}
			hi++
		}
		counts, err := c.countRanges(ctx, &tokenizerv1.CountRangesRequest{Model: c.model, PackedTexts: buf, Handles: kept.handles}, lo, hi)
		if err != nil {
			return nil, err
		}
		out = append(out, counts...)
		lo = hi
	}
	return out, nil
}

// packedSize is the most bytes item takes in packed_texts.
func packedSize(item []sdk.Piece) int {
	n := binary.MaxVarintLen64
	for _, p := range item {
		if p.Text < 0 {
			n += binary.MaxVarintLen64 + len(p.Literal)
		} else {
			n += tokenizerv1.PackedRangeSize
		}
	}
	return n
}

// countComposites sends items as Composite messages, for a plugin from before protocol 1.2.
func (c *TokenizerClient) countComposites(ctx context.Context, kept *Kept, items [][]sdk.Piece) ([]int, error) {
	// The messages are allocated in bulk, a slice per type: a document's chunks make tens of
	// thousands of pieces, and one allocation each cost more than sending the text did.
	nPieces, nRanges := 0, 0
	for _, item := range items {
		nPieces += len(item)
		for _, p := range item {
			if p.Text >= 0 {
				nRanges++
			}
		}
	}
	compositeVals := make([]tokenizerv1.Composite, len(items))
	pieceVals := make([]tokenizerv1.Piece, nPieces)
	piecePtrs := make([]*tokenizerv1.Piece, nPieces)
	literalVals := make([]tokenizerv1.Piece_Literal, nPieces-nRanges)
	rangeOneofs := make([]tokenizerv1.Piece_Range, nRanges)
	rangeVals := make([]tokenizerv1.Range, nRanges)
	composites := make([]*tokenizerv1.Composite, len(items))
	sizes := make([]int, len(items))
	np, nl, nr := 0, 0, 0
	for i, item := range items {
		pieces := piecePtrs[np : np+len(item) : np+len(item)]
		for j, p := range item {
			pc := &pieceVals[np+j]
			pieces[j] = pc
			if p.Text < 0 {
				lit := &literalVals[nl]
				nl++
				lit.Literal = []byte(p.Literal)
				pc.Piece = lit
				sizes[i] += len(p.Literal) + 8
				continue
			}
			h, k, _ := kept.locate(p.Text)
			rv := &rangeVals[nr]
			rv.Handle, rv.Text, rv.Start, rv.End = kept.handles[h], k, uint64(p.Start), uint64(p.End)
			ro := &rangeOneofs[nr]
			ro.Range = rv
			nr++
			pc.Piece = ro
			sizes[i] += 32
		}
		np += len(item)
		compositeVals[i].Pieces = pieces
		composites[i] = &compositeVals[i]
		sizes[i] += protowire.SizeTag(2) + 8
	}
	out := make([]int, 0, len(items))
	for lo := 0; lo < len(items); {
		hi, size := lo, 0
		for hi < len(items) && (hi == lo || size+sizes[hi] <= c.limits.batch) {
			size += sizes[hi]
			hi++
		}
		counts, err := c.countRanges(ctx, &tokenizerv1.CountRangesRequest{Model: c.model, Texts: composites[lo:hi]}, lo, hi)
		if err != nil {
			return nil, err
		}
		out = append(out, counts...)
		lo = hi
	}
	return out, nil
}

// countRanges sends one CountRanges request, for items [lo, hi), and checks its answer.
func (c *TokenizerClient) countRanges(ctx context.Context, req *tokenizerv1.CountRangesRequest, lo, hi int) ([]int, error) {
	resp, err := c.rpc.CountRanges(ctx, req)
	if err != nil {
		if status.Code(err) == codes.FailedPrecondition {
			return nil, ErrNotRetained
		}
		return nil, c.errorf("count", rpcstatus.Decode(err))
	}
	counts, err := convert.Ints(resp.GetCounts())
	if err != nil {
		return nil, c.errorf("count", badResponse(err))
	}
	if len(counts) != hi-lo {
		return nil, c.errorf("count", fmt.Errorf("%w: %d counts for %d texts", sdk.ErrBadResponse, len(counts), hi-lo))
	}
	for i, n := range counts {
		if n < 0 {
			return nil, c.errorf("count", fmt.Errorf("%w: text %d: negative count %d", sdk.ErrBadResponse, lo+i, n))
		}
	}
	return counts, nil
}
