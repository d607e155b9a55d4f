package bpe

import (
	"slices"
	"strings"
	"testing"
)

// TestTrimDropsWhatALongPieceGrewAndKeepsTheCache encodes a piece long enough to grow a
// Scratch's buffers past keepScratch: Trim drops them and keeps the cache, so that a short
// piece counted before is still a hit, and s still encodes a long piece as before.
func TestTrimDropsWhatALongPieceGrewAndKeepsTheCache(t *testing.T) {
	t.Parallel()
	v := loaded(t)[0]
	var s Scratch
	short := "chunkkitty"
	n := v.CountPiece(short, &s)
	long := strings.Repeat("a", 64*keepScratch+1)
	want := slices.Clone(v.Encode(long, &s))
	if cap(s.tokens) <= keepScratch && cap(s.cands) <= keepScratch && cap(s.bits) <= keepScratch {
		t.Fatalf("a %d-byte piece grew no buffer past %d entries: tokens %d, cands %d, bits %d",
			len(long), keepScratch, cap(s.tokens), cap(s.cands), cap(s.bits))
	}
	s.Trim()
	if cap(s.tokens) > keepScratch || cap(s.cands) > keepScratch || cap(s.bits) > keepScratch {
		t.Errorf("after Trim: tokens %d, cands %d, bits %d entries, want at most %d each",
			cap(s.tokens), cap(s.cands), cap(s.bits), keepScratch)
	}
	if lens, ok := s.cached(keyOf(short), short); !ok || len(lens) != n {
		t.Errorf("after Trim the cache has %q as %q, %v; want its %d tokens", short, lens, ok, n)
	}
	if got := v.Encode(long, &s); !slices.Equal(got, want) {
		t.Errorf("after Trim the long piece encodes to %d tokens, want %d", len(got), len(want))
	}
}
