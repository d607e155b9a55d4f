package pluginserver

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestRetainedKeepsTheMostRecentRequests(t *testing.T) {
	t.Parallel()
	r := newRetained(2, 10) // always 2 requests; more while they fit 10 bytes
	a := r.put("m", []string{"aaaa"})
	b := r.put("m", []string{"bbbb"})
	if a == 0 || b == 0 || a == b {
		t.Fatalf("handles %d, %d: want distinct and not 0", a, b)
	}
	c := r.put("m", []string{"cc"}) // 10 bytes: all three fit
	if _, err := r.get(a, "m"); err != nil {
		t.Errorf("a dropped while everything fits: %v", err)
	}
	d := r.put("m", []string{"dddd"}) // 14 bytes: the least recently used (b) goes
	if _, err := r.get(b, "m"); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("b: err = %v, want FailedPrecondition", err)
	}
	for _, h := range []uint64{a, c, d} {
		if _, err := r.get(h, "m"); err != nil {
			t.Errorf("handle %d: %v", h, err)
		}
	}
	big := r.put("m", []string{strings.Repeat("x", 100)}) // over the bytes: only the keep most recent stay
	if got, err := r.get(big, "m"); err != nil || got[0] != strings.Repeat("x", 100) {
		t.Errorf("the newest request: %v", err)
	}
	if r.order.Len() != 2 {
		t.Errorf("%d requests kept over the byte bound, want the 2 always kept", r.order.Len())
	}
	if _, err := r.get(big, "other"); status.Code(err) != codes.InvalidArgument {
		t.Errorf("another model's handle: err = %v, want InvalidArgument", err)
	}
}
