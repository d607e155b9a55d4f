package conformance

import (
	"context"
	"time"

	"github.com/chunkkit/chunkkit/sdk"
)

// Result is the outcome of one law checked outside a test, as `chunkkit conformance` does.
type Result struct {
	// Law names the property, as a sentence.
	Law string
	// Err is nil when the law holds, else what broke it.
	Err error
	// Took is how long the check ran.
	Took time.Duration
}

// CheckTokenCounter checks tc against the same laws as TokenCounter, without a testing.T,
// and returns one Result per law in order. It stops early only when ctx is done.
func CheckTokenCounter(ctx context.Context, tc sdk.TokenCounter) []Result {
	return checkLaws(ctx, counterLaws(), tc)
}

// CheckSentenceSplitter checks s against the same laws as SentenceSplitter, without a
// testing.T, and returns one Result per law in order.
func CheckSentenceSplitter(ctx context.Context, s sdk.SentenceSplitter) []Result {
	return checkLaws(ctx, splitterLaws(), s)
}

func checkLaws[X any](ctx context.Context, laws []law[X], x X) []Result {
	out := make([]Result, 0, len(laws))
	for _, l := range laws {
		if err := ctx.Err(); err != nil {
			out = append(out, Result{Law: l.name, Err: err})
			continue
		}
		start := time.Now()
		err := l.check(ctx, x)
		out = append(out, Result{Law: l.name, Err: err, Took: time.Since(start)})
	}
	return out
}
