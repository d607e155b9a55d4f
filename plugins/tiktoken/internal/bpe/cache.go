package bpe

import "unsafe"

// Pieces that are not tokens recur: in 4 MB of English documentation, 77,117 such pieces
// are 14,233 distinct ones, and encoding them was half of the counting time. A Scratch
// therefore remembers the token lengths of the pieces it encoded, in a cache of 65,536 slots
// in sets of four: a piece has one set, by its key, and a new piece goes first in its set,
// moving the others down and dropping the last. A hit costs one hash and, for a piece of 8
// bytes or more, one string comparison; a shorter piece is its key.
//
// With 16,384 slots, direct-mapped, a first pass over that text missed 19% of the time (every
// distinct piece once, and collisions) and a second 11.5%; 65,536 made counting it again 14%
// faster (cpu-MB/s of the counting thread, 105 to 120), but still missed 1,857 times a pass
// in o200k_base and 2,945 in cl100k_base: pieces that shared a slot and took turns in it.
// Sets of four miss 84 and 206 times (sets of two 620 and 1,111), and count it 7.7% and
// 10.2% faster (6 interleaved rounds, p=0.002; sets of two +4.5% and +3.7%, p=0.002 and 0.07).
// Entries are copies, so a kept Scratch keeps no caller's text alive.

const (
	cacheBits     = 16
	cacheSlots    = 1 << cacheBits // 65,536 slots of 32 bytes: 2 MB per Scratch, allocated on first use
	cacheMaxPiece = 64             // longer pieces are rare, and copying them costs more
)

// cacheSlot remembers a piece: its key, its length and its number of tokens, and in entry the
// piece and, after it, one byte per token: the token's length. A slot is 32 bytes, so that a
// set is two cache lines, and a count that hits in the first two slots reads one.
type cacheSlot struct {
	key    uint64 // 0 for an empty slot
	pieceN uint32
	count  uint32
	entry  string
}

// cached returns the slot that remembers piece, whose key is k, or nil.
func (s *Scratch) cached(k uint64, piece string) *cacheSlot {
	if s.cache == nil || len(piece) > cacheMaxPiece {
		return nil
	}
	set := s.cache[tableIndex(k, cacheBits)&^3:][:4]
	for i := range set {
		c := &set[i]
		if c.key == k && (k < longTag || int(c.pieceN) == len(piece) && c.entry[:c.pieceN] == piece) {
			return c
		}
	}
	return nil
}

// lens returns the token lengths c remembers, one byte each.
func (c *cacheSlot) lens() string { return c.entry[c.pieceN:] }

// remember stores the tokens of piece, whose key is k.
func (s *Scratch) remember(v *Vocab, k uint64, piece string, tokens []uint32) {
	if len(piece) > cacheMaxPiece {
		return
	}
	if s.cache == nil {
		s.cache = make([]cacheSlot, cacheSlots)
	}
	buf := make([]byte, len(piece), len(piece)+len(tokens))
	copy(buf, piece)
	for _, t := range tokens {
		buf = append(buf, byte(v.TokenLen(t)))
	}
	set := s.cache[tableIndex(k, cacheBits)&^3:][:4]
	copy(set[1:], set[:3])
	// buf is never written again: the entry is it, without the copy string(buf) makes.
	set[0] = cacheSlot{key: k, pieceN: uint32(len(piece)), count: uint32(len(tokens)), entry: unsafe.String(unsafe.SliceData(buf), len(buf))}
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
	if c := s.cached(k, piece); c != nil {
		return int(c.count)
	}
	tokens := v.Encode(piece, s)
	s.remember(v, k, piece, tokens)
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
		if c := s.cached(k, piece); c != nil {
			lens := c.lens()
			for i := 0; i < len(lens); i++ {
				dst = append(dst, int(lens[i]))
			}
			return dst
		}
		tokens := v.Encode(piece, s)
		s.remember(v, k, piece, tokens)
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
