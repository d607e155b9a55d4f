package bpe

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestTrimDropsWhatALongPieceGrew encodes a piece long enough to grow a Scratch's buffers past
// what Trim is asked to keep: Trim drops them, and s still encodes a long piece as before;
// buffers within the limit stay.
func TestTrimDropsWhatALongPieceGrew(t *testing.T) {
	t.Parallel()
	v := loaded(t)[0]
	var s Scratch
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
	if got := v.Encode(long, &s); !slices.Equal(got, want) {
		t.Errorf("after Trim the long piece encodes to %d tokens, want %d", len(got), len(want))
	}
}

// TestTheCacheKeepsFourPiecesOfASet remembers five pieces that share a set of a piece cache,
// short and long ones: the four remembered last are hits with their counts and token lengths,
// and the first is dropped.
func TestTheCacheKeepsFourPiecesOfASet(t *testing.T) {
	t.Parallel()
	v := loaded(t)[0]
	var s Scratch
	var cache pieceCache // the Vocab's own is shared with the other tests
	set := func(p string) uint64 { return tableIndex(keyOf(p), cacheSetBits) }
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
		cache.put(v, keyOf(p), p, v.Encode(p, &s))
	}
	if c := cache.get(keyOf(pieces[0]), pieces[0]); c != nil {
		t.Errorf("%q, the first of five pieces of one set, is still remembered", pieces[0])
	}
	for _, p := range pieces[1:] {
		c := cache.get(keyOf(p), p)
		if c == nil {
			t.Errorf("%q is not remembered", p)
			continue
		}
		var got []int
		for i := 0; i < len(c.lens()); i++ {
			got = append(got, int(c.lens()[i]))
		}
		if c.count() != len(lens[p]) || !slices.Equal(got, lens[p]) {
			t.Errorf("%q is remembered as %d tokens %v, want %v", p, c.count(), got, lens[p])
		}
	}
}

// TestScratchesShareThePieceCache counts a piece with one Scratch and then finds it remembered
// for any other: the cache is the Vocab's, so two calls counting at once (a chunker measuring
// one window while it counts the chunks of the one before) do not each encode the pieces the
// other saw. Not parallel: the other tests share the Vocab and its cache.
func TestScratchesShareThePieceCache(t *testing.T) {
	v := loaded(t)[0]
	var a, b Scratch
	piece := "chunkkittyzq"
	if v.contains(keyOf(piece), piece) {
		t.Fatalf("%q is a token; the test needs a piece of several", piece)
	}
	n := v.CountPiece(piece, &a)
	c := v.cache.get(keyOf(piece), piece)
	if c == nil || c.count() != n {
		t.Fatalf("after counting %q (%d tokens) the Vocab remembers it as %+v", piece, n, c)
	}
	if got := v.CountPiece(piece, &b); got != n {
		t.Errorf("CountPiece(%q) with another Scratch = %d, want %d", piece, got, n)
	}
	if cap(b.tokens) != 0 {
		t.Errorf("the other Scratch encoded %q again (its token buffer grew to %d) instead of finding it remembered", piece, cap(b.tokens))
	}
}

// TestThePieceCacheUnderConcurrentUse counts, from several goroutines at once, each with its
// own Scratch, pieces that share a few sets of the cache, so that they evict one another all
// the time: every count and every token length is still tiktoken's merge's. Run with -race,
// it also checks that the cache's readers and writers do not race.
func TestThePieceCacheUnderConcurrentUse(t *testing.T) {
	t.Parallel()
	for _, v := range loaded(t) {
		sets := map[uint64]int{}
		var pieces []string
		for i := 0; len(pieces) < 48; i++ {
			p := fmt.Sprintf("zq%dxk", i)
			if i%3 == 1 {
				p = fmt.Sprintf("qz%dvolubility", i) // 8 bytes or more: a hashed key
			}
			k := keyOf(p)
			if v.contains(k, p) {
				continue
			}
			set := tableIndex(k, cacheSetBits)
			if len(sets) < 3 && sets[set] == 0 || sets[set] > 0 && sets[set] < 16 {
				sets[set]++
				pieces = append(pieces, p)
			}
		}
		want := make(map[string][]int)
		for _, p := range pieces {
			for _, id := range v.merge(nil, p) {
				want[p] = append(want[p], v.TokenLen(id))
			}
		}
		var wg sync.WaitGroup
		errs := make(chan string, 4)
		for g := range 4 {
			wg.Go(func() {
				var s Scratch
				for round := range 200 {
					p := pieces[(round*7+g*13)%len(pieces)]
					if got := v.AppendPieceLens(nil, p, &s); !slices.Equal(got, want[p]) {
						errs <- fmt.Sprintf("AppendPieceLens(%q) = %v, want %v", p, got, want[p])
						return
					}
					if got := v.CountPiece(p, &s); got != len(want[p]) {
						errs <- fmt.Sprintf("CountPiece(%q) = %d, want %d", p, got, len(want[p]))
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}
