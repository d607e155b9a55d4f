package bpe

import (
	"sync/atomic"
	"unsafe"
)

// Pieces that are not tokens recur: in 4 MB of English documentation, 77,117 such pieces
// are 14,233 distinct ones, and encoding them was half of the counting time. A Vocab
// therefore remembers the token lengths of the pieces it encoded, in a cache of 65,536 slots
// in sets of four: a piece has one set, by its key, and a new piece goes first in its set,
// moving the others down and dropping the last. A hit costs one hash, a look at the set's
// four keys (one cache line with their entries) and, for a piece of 8 bytes or more, one
// string comparison; a shorter piece is its key.
//
// With 16,384 slots, direct-mapped, a first pass over that text missed 19% of the time (every
// distinct piece once, and collisions) and a second 11.5%; 65,536 made counting it again 14%
// faster (cpu-MB/s of the counting thread, 105 to 120), but still missed 1,857 times a pass
// in o200k_base and 2,945 in cl100k_base: pieces that shared a slot and took turns in it.
// Sets of four miss 84 and 206 times (sets of two 620 and 1,111), and count it 7.7% and
// 10.2% faster (6 interleaved rounds, p=0.002; sets of two +4.5% and +3.7%, p=0.002 and 0.07).
//
// The cache is the Vocab's, shared by every goroutine that encodes with it. It was each
// Scratch's until the chunkers measured a window while the one before it was counted: two
// calls at once then held two Scratches, each with its own half of the pieces seen, and
// encoded again what the other had (in-process counting of the corpus's multilingual
// documents used 24–34% more CPU; docs/bench.md). Readers take no lock: a slot's key and
// entry are atomic words, an entry is never written after it is stored, and a hit is
// confirmed against the entry's own key, so that a reader that sees a key and an entry
// of two different writes takes it for a miss. Writers to one set may lose a piece to each
// other, which costs only encoding it again. Entries are copies, so the cache keeps no
// caller's text alive.

const (
	cacheSetBits  = 14 // 16,384 sets of four: 65,536 slots, 1 MB of keys and entry pointers, allocated on first use
	cacheMaxPiece = 64 // longer pieces are rare, and copying them costs more
)

// pieceCache is the cache; its zero value is empty and ready to use.
type pieceCache struct {
	table atomic.Pointer[[1 << cacheSetBits]cacheSet] // nil until a piece is remembered
}

// cacheSet is four slots, the keys first (0 for an empty slot), so that a look that misses
// reads one 64-byte cache line.
type cacheSet struct {
	keys    [4]atomic.Uint64
	entries [4]atomic.Pointer[cacheEntry]
}

// cacheEntry remembers a piece: its key, its length, and in entry the piece and, after it, one
// byte per token: the token's length.
type cacheEntry struct {
	key    uint64
	pieceN uint32
	entry  string
}

// get returns the entry that remembers piece, whose key is k, or nil.
func (pc *pieceCache) get(k uint64, piece string) *cacheEntry {
	t := pc.table.Load()
	if t == nil || len(piece) > cacheMaxPiece {
		return nil
	}
	set := &t[tableIndex(k, cacheSetBits)]
	for i := range set.keys {
		if set.keys[i].Load() != k {
			continue
		}
		if c := set.entries[i].Load(); c != nil && c.key == k && (k < longTag || int(c.pieceN) == len(piece) && c.entry[:c.pieceN] == piece) {
			return c
		}
	}
	return nil
}

// lens returns the token lengths c remembers, one byte each.
func (c *cacheEntry) lens() string { return c.entry[c.pieceN:] }

// count returns the number of tokens of the piece c remembers.
func (c *cacheEntry) count() int { return len(c.entry) - int(c.pieceN) }

// put remembers tokens, the tokens of v that piece, whose key is k, encodes to.
func (pc *pieceCache) put(v *Vocab, k uint64, piece string, tokens []uint32) {
	if len(piece) > cacheMaxPiece {
		return
	}
	t := pc.table.Load()
	if t == nil {
		t = new([1 << cacheSetBits]cacheSet)
		if !pc.table.CompareAndSwap(nil, t) {
			t = pc.table.Load()
		}
	}
	buf := make([]byte, len(piece), len(piece)+len(tokens))
	copy(buf, piece)
	for _, id := range tokens {
		buf = append(buf, byte(v.TokenLen(id)))
	}
	// buf is never written again: the entry is it, without the copy string(buf) makes.
	c := &cacheEntry{key: k, pieceN: uint32(len(piece)), entry: unsafe.String(unsafe.SliceData(buf), len(buf))}
	set := &t[tableIndex(k, cacheSetBits)]
	for i := len(set.keys) - 1; i > 0; i-- {
		set.entries[i].Store(set.entries[i-1].Load())
		set.keys[i].Store(set.keys[i-1].Load())
	}
	set.entries[0].Store(c)
	set.keys[0].Store(k)
}

// CountPiece returns the number of tokens of piece, which is not empty.
func (v *Vocab) CountPiece(piece string, s *Scratch) int { return v.CountAt(piece, 0, len(piece), s) }

// CountAt returns the number of tokens of the piece text[at:end], which is not empty. It is
// CountPiece(text[at:end], s), faster where text goes on after the piece.
func (v *Vocab) CountAt(text string, at, end int, s *Scratch) int {
	piece := text[at:end]
	if len(piece) > v.maxLen {
		return len(v.Encode(piece, s))
	}
	k := keyAt(text, at, end)
	if v.contains(k, piece) {
		return 1
	}
	if c := v.cache.get(k, piece); c != nil {
		return c.count()
	}
	tokens := v.Encode(piece, s)
	v.cache.put(v, k, piece, tokens)
	return len(tokens)
}

// AppendPieceLens appends the byte length of each token of piece, which is not empty.
func (v *Vocab) AppendPieceLens(dst []int, piece string, s *Scratch) []int {
	return v.AppendLensAt(dst, piece, 0, len(piece), s)
}

// AppendLensAt is AppendPieceLens of the piece text[at:end], faster where text goes on after
// the piece.
func (v *Vocab) AppendLensAt(dst []int, text string, at, end int, s *Scratch) []int {
	piece := text[at:end]
	if len(piece) <= v.maxLen {
		k := keyAt(text, at, end)
		if v.contains(k, piece) {
			return append(dst, len(piece))
		}
		if c := v.cache.get(k, piece); c != nil {
			lens := c.lens()
			for i := 0; i < len(lens); i++ {
				dst = append(dst, int(lens[i]))
			}
			return dst
		}
		tokens := v.Encode(piece, s)
		v.cache.put(v, k, piece, tokens)
		for _, t := range tokens {
			dst = append(dst, v.TokenLen(t))
		}
		return dst
	}
	for _, t := range v.Encode(piece, s) {
		dst = append(dst, v.TokenLen(t))
	}
	return dst
}
