// Package mergeheap is the priority queue of the BPE mergers (plugins/tiktoken's fast backend
// and plugins/hftokenizer): a binary min-heap of candidate merges, each packed into one
// uint64 so that a single integer comparison orders them by rank, then leftmost first.
package mergeheap

// Candidate is a merge waiting in the heap: its rank in the high 32 bits, the position of its
// left part in the low 32.
type Candidate uint64

// New packs rank and pos.
func New(rank uint32, pos int32) Candidate {
	return Candidate(uint64(rank)<<32 | uint64(uint32(pos)))
}

// Rank is the rank c was pushed with.
func (c Candidate) Rank() uint32 { return uint32(c >> 32) }

// Pos is the position of c's left part.
func (c Candidate) Pos() int32 { return int32(uint32(c)) }

// Heap is a binary min-heap of candidates. Append candidates then call Init, or Push them.
type Heap []Candidate

// Init orders h after candidates were appended to it directly.
func (h Heap) Init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// Push adds c.
func (h *Heap) Push(c Candidate) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if s[i] >= s[parent] {
			return
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

// Pop removes and returns the smallest candidate; h must not be empty.
func (h *Heap) Pop() Candidate {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h Heap) down(i int) {
	for {
		child := 2*i + 1
		if child >= len(h) {
			return
		}
		if right := child + 1; right < len(h) && h[right] < h[child] {
			child = right
		}
		if h[child] >= h[i] {
			return
		}
		h[i], h[child] = h[child], h[i]
		i = child
	}
}
