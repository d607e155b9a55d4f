package tiktoken

import (
	"runtime"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe"
)

// TestScratchesHandOutTheOneReturnedLast holds the backtracking encoder's pool to what keeps
// its working memory through the plugin: the Scratch returned last comes back first, even
// after garbage collections and from another goroutine; one returned beyond max is not kept
// for good, but reused while it lasts.
func TestScratchesHandOutTheOneReturnedLast(t *testing.T) {
	t.Parallel()
	p := scratches{max: 2}
	a, b, c := p.get(), p.get(), p.get()
	if a == b || b == c || a == c {
		t.Fatal("get handed out one Scratch twice")
	}
	p.put(a)
	p.put(b)
	p.put(c) // a third: an extra one
	if s := p.get(); s != b {
		t.Errorf("get after a, b, c were returned: %p, want b (%p)", s, b)
	}
	p.put(b)
	runtime.GC()
	runtime.GC()
	got := make(chan *bpe.Scratch)
	go func() { got <- p.get() }()
	if s := <-got; s != b {
		t.Errorf("get after two collections, from another goroutine: %p, want b (%p)", s, b)
	}
	if s := p.get(); s != a {
		t.Errorf("second get: %p, want a (%p)", s, a)
	}
	if s := p.get(); s == a || s == b {
		t.Errorf("third get handed out a Scratch already out")
	}
}
