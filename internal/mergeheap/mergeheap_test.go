package mergeheap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHeapPopsByRankThenPosition(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	var want []Candidate
	var h Heap
	for i := range 500 {
		c := New(uint32(r.IntN(20)), int32(r.IntN(1000)))
		want = append(want, c)
		if i%2 == 0 {
			h.Push(c)
		} else {
			h = append(h, c)
			h.Init()
		}
	}
	slices.Sort(want)
	for i, w := range want {
		got := h.Pop()
		if got != w {
			t.Fatalf("pop %d: rank %d pos %d, want rank %d pos %d", i, got.Rank(), got.Pos(), w.Rank(), w.Pos())
		}
		if i > 0 && (got.Rank() < want[i-1].Rank() || got.Rank() == want[i-1].Rank() && got.Pos() < want[i-1].Pos()) {
			t.Fatalf("pop %d out of order", i)
		}
	}
	if len(h) != 0 {
		t.Errorf("%d left", len(h))
	}
	if c := New(7, 1<<30); c.Rank() != 7 || c.Pos() != 1<<30 {
		t.Errorf("New(7, 1<<30) unpacks to %d, %d", c.Rank(), c.Pos())
	}
}
