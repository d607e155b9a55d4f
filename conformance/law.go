package conformance

import (
	"context"
	"strconv"
	"testing"
)

// law is one property an implementation of an sdk interface must have. Its name reads as a
// sentence in test output; check returns nil when the property holds and otherwise an error
// that says which input broke it and how.
type law[X any] struct {
	name  string
	check func(ctx context.Context, x X) error
}

// runLaws runs each law as a subtest of t.
func runLaws[X any](t *testing.T, laws []law[X], x X) {
	t.Helper()
	for _, l := range laws {
		t.Run(l.name, func(t *testing.T) {
			t.Helper()
			if err := l.check(t.Context(), x); err != nil {
				t.Error(err)
			}
		})
	}
}

// concurrentGoroutines is how many goroutines the concurrency laws run at once.
const concurrentGoroutines = 8

// reversed returns a reversed copy of s.
func reversed[E any](s []E) []E {
	out := make([]E, len(s))
	for i, e := range s {
		out[len(s)-1-i] = e
	}
	return out
}

// rotated returns a copy of s rotated left by k.
func rotated[E any](s []E, k int) []E {
	if len(s) == 0 {
		return nil
	}
	k %= len(s)
	return append(append(make([]E, 0, len(s)), s[k:]...), s[:k]...)
}

// quote shortens a text for an error message to its first 40 runes.
func quote(s string) string {
	const limit = 40
	n := 0
	for i := range s {
		if n == limit {
			return strconv.Quote(s[:i]) + "..."
		}
		n++
	}
	return strconv.Quote(s)
}
