package pluginserver

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
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

func TestRetainBoundariesAnswersPackedEndsWhenAsked(t *testing.T) {
	t.Parallel()
	s := &tokenizerServer{s: Server{Counters: plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}})}, kept: newRetained(4, 1<<20)}
	texts := [][]byte{[]byte("one two"), {}, []byte("three")}
	want := [][]int{{3, 7}, nil, {5}}
	plain, err := s.RetainBoundaries(t.Context(), &tokenizerv1.RetainRequest{Model: "words", Texts: texts})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.GetPackedEnds()) != 0 {
		t.Errorf("packed ends unasked: % x", plain.GetPackedEnds())
	}
	if got, _ := commonv1.EndsLists(plain.GetEnds()); !cmp.Equal(want, got) {
		t.Errorf("ends = %v, want %v", got, want)
	}
	packed, err := s.RetainBoundaries(t.Context(), &tokenizerv1.RetainRequest{Model: "words", Texts: texts, PackedEnds: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(packed.GetEnds()) != 0 || packed.GetHandle() == 0 {
		t.Errorf("packed answer has %d ends and handle %d, want none and a handle", len(packed.GetEnds()), packed.GetHandle())
	}
	if got, err := commonv1.Packed(packed.GetPackedEnds(), len(texts)); err != nil || !cmp.Equal(want, got) {
		t.Errorf("packed ends = %v (%v), want %v", got, err, want)
	}
}

// decreasing is a counter whose boundaries go backwards.
type decreasing struct{ sdk.Words }

func (decreasing) Boundaries(_ context.Context, texts []string) ([][]int, error) {
	return [][]int{{3, 1}}, nil
}

func TestDecreasingBoundariesCannotBePackedAndAreAnInternalError(t *testing.T) {
	t.Parallel()
	s := &tokenizerServer{s: Server{Counters: plugin.MapOf(map[string]sdk.TokenCounter{"d": decreasing{}})}, kept: newRetained(4, 1<<20)}
	_, err := s.RetainBoundaries(t.Context(), &tokenizerv1.RetainRequest{Model: "d", Texts: [][]byte{[]byte("abc")}, PackedEnds: true})
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "below the one before") {
		t.Errorf("err = %v, want INTERNAL about a decreasing offset", err)
	}
}
