package tiktoken_test

import (
	"context"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
)

// shared builds each counter once for the whole test binary: a Reference counter takes about
// a second to build.
var shared = tiktoken.NewCounters()

// counter returns the shared counter for encoding and backend.
func counter(t testing.TB, encoding string, backend tiktoken.Backend) *tiktoken.Counter {
	t.Helper()
	tc, err := shared.Model(context.Background(), encoding+"@"+string(backend))
	if err != nil {
		t.Fatal(err)
	}
	return tc.(*tiktoken.Counter)
}

// backends lists every backend, for tables that run on each.
var backends = []tiktoken.Backend{tiktoken.Backtrack, tiktoken.Fast, tiktoken.Reference}
