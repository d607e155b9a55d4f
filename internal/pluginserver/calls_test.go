package pluginserver

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// overlapping counts words, holding each call open until another runs beside it (or 300 ms
// have passed), and records how many of its calls ran at once at most.
type overlapping struct {
	sdk.Words
	now, most atomic.Int32
}

func (o *overlapping) Count(ctx context.Context, texts []string) ([]int, error) {
	n := o.now.Add(1)
	defer o.now.Add(-1)
	for {
		m := o.most.Load()
		if n <= m || o.most.CompareAndSwap(m, n) {
			break
		}
	}
	for end := time.Now().Add(300 * time.Millisecond); o.most.Load() < 2 && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	return o.Words.Count(ctx, texts)
}

func TestTheRequestsOfOneCallAreCountedInTurn(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		ids         [4]string // the call ID of each of four concurrent requests; "" sends none
		least, most int32     // how many requests may have run at once
	}{
		{"one call", [4]string{"7", "7", "7", "7"}, 1, 1},
		{"two calls", [4]string{"7", "7", "8", "8"}, 2, 2},
		{"no call IDs", [4]string{"", "", "", ""}, 2, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := &overlapping{}
			s := &tokenizerServer{s: Server{Counters: plugin.MapOf(map[string]sdk.TokenCounter{"w": o})}, calls: &calls{}}
			var wg sync.WaitGroup
			for _, id := range tt.ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ctx := t.Context()
					if id != "" {
						ctx = metadata.NewIncomingContext(ctx, metadata.Pairs(plugin.CallMetadata, id))
					}
					resp, err := s.Count(ctx, &tokenizerv1.CountRequest{Model: "w", Texts: [][]byte{[]byte("a b c")}})
					if err != nil || len(resp.GetCounts()) != 1 || resp.GetCounts()[0] != 3 {
						t.Errorf("Count = %v, %v; want [3]", resp.GetCounts(), err)
					}
				}()
			}
			wg.Wait()
			if got := o.most.Load(); got < tt.least || got > tt.most {
				t.Errorf("at most %d requests counted at once, want %d to %d", got, tt.least, tt.most)
			}
			if n := len(s.calls.turns); n != 0 {
				t.Errorf("%d calls' turns left after their requests ended", n)
			}
		})
	}
}
