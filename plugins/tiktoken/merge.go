package tiktoken

import "github.com/chunkkit/chunkkit/internal/mergeheap"

// Byte-pair merging as tiktoken does it (_byte_pair_merge in its src/lib.rs): start from
// single bytes and repeatedly merge the adjacent pair whose concatenation has the lowest rank,
// the leftmost one on ties, until no adjacent pair is a token. Short pieces use tiktoken's
// quadratic scan, which is fastest for them; long pieces use a heap, O(n log n), so a long
// run without a split ("a"×100000) stays linear in practice.

// noRank marks a pair that is not a token.
const noRank = ^uint32(0)

// heapFrom is the piece length in bytes from which appendMerged uses the heap.
const heapFrom = 96

// appendMerged appends to dst the end offset, within piece, of each token piece merges into.
func (e *fastEncoder) appendMerged(dst []int, piece string) []int {
	if len(piece) < heapFrom {
		return e.mergeScan(dst, piece)
	}
	return e.mergeHeap(dst, piece)
}

// rank returns the rank of piece[from:to], or noRank.
func (e *fastEncoder) rank(piece string, from, to int) uint32 {
	if r, ok := e.ranks.get(piece[from:to]); ok {
		return r
	}
	return noRank
}

func (e *fastEncoder) mergeScan(dst []int, piece string) []int {
	// starts[i] is where part i begins; ranks[i] is the rank of merging parts i and i+1.
	var startsBuf [heapFrom + 1]int
	var ranksBuf [heapFrom + 1]uint32
	starts, ranks := startsBuf[:len(piece)+1], ranksBuf[:len(piece)+1]
	for i := range starts {
		starts[i] = i
	}
	pairRank := func(i int) uint32 {
		if i+2 < len(starts) {
			return e.rank(piece, starts[i], starts[i+2])
		}
		return noRank
	}
	for i := range ranks {
		ranks[i] = pairRank(i)
	}
	for {
		best, at := noRank, -1
		for i, r := range ranks[:len(ranks)-1] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		starts = append(starts[:at+1], starts[at+2:]...)
		ranks = append(ranks[:at+1], ranks[at+2:]...)
		ranks[at] = pairRank(at)
		if at > 0 {
			ranks[at-1] = pairRank(at - 1)
		}
	}
	for _, s := range starts[1:] {
		dst = append(dst, s)
	}
	return dst
}

// node is a part in mergeHeap's linked list of parts: the part starting at byte i is
// nodes[i]; rank is the rank of merging it with the next part.
type node struct {
	prev, next int32
	rank       uint32
}

func (e *fastEncoder) mergeHeap(dst []int, piece string) []int {
	n := int32(len(piece))
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i] = node{prev: int32(i) - 1, next: int32(i) + 1, rank: noRank}
	}
	nodes[n].next = -1
	pairRank := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 || nodes[j].next < 0 {
			return noRank
		}
		return e.rank(piece, int(i), int(nodes[j].next))
	}
	h := make(mergeheap.Heap, 0, n)
	for i := int32(0); i+2 <= n; i++ {
		if r := pairRank(i); r != noRank {
			nodes[i].rank = r
			h = append(h, mergeheap.New(r, i))
		}
	}
	h.Init()
	for len(h) > 0 {
		top := h.Pop()
		i := top.Pos()
		if nodes[i].rank != top.Rank() {
			continue // stale: the pair changed since it was pushed
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = pairRank(b)
			if nodes[b].rank != noRank {
				h.Push(mergeheap.New(nodes[b].rank, b))
			}
		}
	}
	for i := nodes[0].next; i >= 0; i = nodes[i].next {
		dst = append(dst, int(i))
	}
	return dst
}
