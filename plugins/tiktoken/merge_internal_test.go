package tiktoken

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMergeScanAndHeapAgree(t *testing.T) {
	t.Parallel()
	e, err := newFast("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "e", "t", "h", " ", "in", "ing", "🦀", "中", "\u0301", "0", "=", "'"}
	pieces := []string{"", "a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	for range 300 {
		var sb strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		if sb.Len() < heapFrom {
			pieces = append(pieces, sb.String())
		}
	}
	for _, p := range pieces {
		scan := e.mergeScan(nil, p)
		heap := e.mergeHeap(nil, p)
		if diff := cmp.Diff(scan, heap); diff != "" {
			t.Errorf("piece %q: scan and heap merges differ (-scan +heap):\n%s", p, diff)
		}
		if len(p) > 0 && (len(scan) == 0 || scan[len(scan)-1] != len(p)) {
			t.Errorf("piece %q: merged token ends %v do not end at %d", p, scan, len(p))
		}
	}
}
