package bpe

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTrimDropsWhatALongPieceGrewAndKeepsTheCache encodes a piece long enough to grow a
// Scratch's buffers past what Trim is asked to keep: Trim drops them and keeps the cache, so
// that a short piece counted before is still a hit, and s still encodes a long piece as
// before; buffers within the limit stay.
func TestTrimDropsWhatALongPieceGrewAndKeepsTheCache(t *testing.T) {
	t.Parallel()
	v := loaded(t)[0]
	var s Scratch
	short := "chunkkitty"
	n := v.CountPiece(short, &s)
	const keep = 4 << 10
	long := strings.Repeat("a", 64*keep+1)
	want := slices.Clone(v.Encode(long, &s))
	if 4*cap(s.tokens) <= keep || 8*cap(s.bits) <= keep {
		t.Fatalf("a %d-byte piece grew the buffers to tokens %d, bits %d entries only", len(long), cap(s.tokens), cap(s.bits))
	}
	bytes := 4*cap(s.tokens) + 4*cap(s.cands) + 8*cap(s.bits)
	s.Trim(bytes)
	if 4*cap(s.tokens)+4*cap(s.cands)+8*cap(s.bits) != bytes {
		t.Errorf("Trim(%d) dropped a buffer of at most that", bytes)
	}
	s.Trim(keep)
	if 4*cap(s.tokens) > keep || 4*cap(s.cands) > keep || 8*cap(s.bits) > keep {
		t.Errorf("after Trim(%d): tokens %d, cands %d, bits %d entries", keep, cap(s.tokens), cap(s.cands), cap(s.bits))
	}
	if c := s.cached(keyOf(short), short); c == nil || int(c.count) != n || len(c.lens()) != n {
		t.Errorf("after Trim the cache has %q as %+v; want its %d tokens", short, c, n)
	}
	if got := v.Encode(long, &s); !slices.Equal(got, want) {
		t.Errorf("after Trim the long piece encodes to %d tokens, want %d", len(got), len(want))
	}
}

// TestTheCacheKeepsFourPiecesOfASet remembers five pieces that share a set of the piece
// cache, short and long ones: the four remembered last are hits with their counts and token
// lengths, and the first is dropped.
func TestTheCacheKeepsFourPiecesOfASet(t *testing.T) {
	t.Parallel()
	v := loaded(t)[0]
	var s Scratch
	v.CountPiece("warm", &s) // makes the cache
	set := func(p string) uint64 { return tableIndex(keyOf(p), cacheBits) &^ 3 }
	var pieces []string
	want := uint64(0)
	for i := 0; len(pieces) < 5; i++ {
		p := fmt.Sprintf("zq%dx", i)
		if i%2 == 1 {
			p = fmt.Sprintf("zq%dxylophonically", i) // 8 bytes or more: a hashed key
		}
		if v.contains(keyOf(p), p) {
			continue
		}
		if len(pieces) == 0 {
			want = set(p)
		}
		if set(p) == want {
			pieces = append(pieces, p)
		}
	}
	lens := make(map[string][]int)
	for _, p := range pieces {
		for _, id := range v.Encode(p, &s) {
			lens[p] = append(lens[p], v.TokenLen(id))
		}
		s.remember(v, keyOf(p), p, v.Encode(p, &s))
	}
	if c := s.cached(keyOf(pieces[0]), pieces[0]); c != nil {
		t.Errorf("%q, the first of five pieces of one set, is still remembered", pieces[0])
	}
	for _, p := range pieces[1:] {
		c := s.cached(keyOf(p), p)
		if c == nil {
			t.Errorf("%q is not remembered", p)
			continue
		}
		var got []int
		for i := 0; i < len(c.lens()); i++ {
			got = append(got, int(c.lens()[i]))
		}
		if int(c.count) != len(lens[p]) || !slices.Equal(got, lens[p]) {
			t.Errorf("%q is remembered as %d tokens %v, want %v", p, c.count, got, lens[p])
		}
		if n := v.CountPiece(p, &s); n != len(lens[p]) {
			t.Errorf("CountPiece(%q) = %d, want %d", p, n, len(lens[p]))
		}
	}
}
