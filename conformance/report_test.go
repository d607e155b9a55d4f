package conformance

import (
	"context"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestCheckTokenCounterReportsEveryLaw(t *testing.T) {
	t.Parallel()
	good := CheckTokenCounter(context.Background(), sdk.Words{})
	if len(good) != len(counterLaws()) {
		t.Fatalf("%d results for %d laws", len(good), len(counterLaws()))
	}
	for _, r := range good {
		if r.Err != nil {
			t.Errorf("Words broke %q: %v", r.Law, r.Err)
		}
	}
	failed := 0
	for _, r := range CheckTokenCounter(context.Background(), offByOne{}) {
		if r.Err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Error("a counter whose counts are off by one passed every law")
	}
}

// offByOne counts one token too many.
type offByOne struct{ sdk.Words }

func (o offByOne) Count(ctx context.Context, texts []string) ([]int, error) {
	n, err := o.Words.Count(ctx, texts)
	for i := range n {
		n[i]++
	}
	return n, err
}
