package bpe

// Scratch is the working memory of encoding pieces. Its zero value is ready to use; it grows
// to the longest piece seen and is reused. A Scratch is not safe for concurrent use; the
// pieces it encoded are remembered by the Vocab (cache.go), for every Scratch.
type Scratch struct {
	tokens []uint32
	cands  []uint32
	bits   []uint64 // bit i set: position i of the piece may still start a token
}

// Trim drops those of s's buffers (a piece's tokens and candidates, and bits for its
// positions) that hold more than maxBytes, so that s can be kept for reuse without holding on
// to what one long piece grew. Ordinary text's pieces need a few bytes; a megabyte-long piece
// grows them to megabytes.
func (s *Scratch) Trim(maxBytes int) {
	if 4*cap(s.tokens) > maxBytes {
		s.tokens = nil
	}
	if 4*cap(s.cands) > maxBytes {
		s.cands = nil
	}
	if 8*cap(s.bits) > maxBytes {
		s.bits = nil
	}
}

// mergeWhileLoading is the longest piece Encode merges as tiktoken does, rather than wait for
// the backtracking encoder's tables, while Load fills them: tiktoken's merge is quadratic in
// the piece's length, and these take microseconds.
const mergeWhileLoading = 64

// Encode returns the tokens BPE makes of piece, in order, in memory owned by s and valid
// until s is used again. The empty piece has none. Until the tables of the backtracking
// encoder are built (see Load: the first Encode starts building them), a piece of up to
// mergeWhileLoading bytes is merged as tiktoken merges it, which gives the same tokens, and a
// longer one waits for them.
func (v *Vocab) Encode(piece string, s *Scratch) []uint32 {
	if !v.backtrackReady() {
		if len(piece) <= mergeWhileLoading {
			s.tokens = v.merge(s.tokens[:0], piece)
			return s.tokens
		}
		v.waitBacktrack()
	}
	if tokens, ok := v.backtrack(piece, s); ok {
		return tokens
	}
	// Unreachable for a vocabulary Derive accepted; kept so that a defect costs speed, not
	// a wrong count.
	s.tokens = v.merge(s.tokens[:0], piece)
	return s.tokens
}

// backtrack is the backtracking encoder (backtrack_encoder.rs). It reports false if it ran
// out of candidates, which BPE's own encoding of piece rules out for a sound vocabulary.
//
// Where the crate asks its automaton for the longest match and then walks next_prefix_match
// to shorter ones, this keeps every token the walk from pos passed (cands, shortest first)
// and tries them longest first, so a rejected token costs no second walk.
func (v *Vocab) backtrack(piece string, s *Scratch) ([]uint32, bool) {
	n := len(piece)
	tokens := s.tokens[:0]
	words := n/64 + 1
	if cap(s.bits) < words {
		s.bits = make([]uint64, words)
	}
	bitset := s.bits[:words]
	for i := range bitset {
		bitset[i] = ^uint64(0)
	}
	pos := 0
	cands := v.matches(piece, 0, n, s.cands[:0])
	for pos < n {
		last := none
		if len(tokens) > 0 {
			last = tokens[len(tokens)-1]
		}
		pushed := false
		for len(cands) > 0 {
			token := cands[len(cands)-1]
			end := pos + v.TokenLen(token)
			if bitset[end>>6]&(1<<(end&63)) != 0 && (last == none || v.validPair(last, token)) {
				tokens = append(tokens, token)
				pos = end
				cands = v.matches(piece, pos, n, cands[:0])
				pushed = true
				break
			}
			cands = cands[:len(cands)-1]
		}
		if pushed {
			continue
		}
		if last == none {
			s.tokens, s.cands = tokens, cands
			return nil, false
		}
		// No token fits at pos: it is a dead end. Back off last and try the tokens shorter
		// than it where it started.
		bitset[pos>>6] &^= 1 << (pos & 63)
		tokens = tokens[:len(tokens)-1]
		pos -= v.TokenLen(last)
		cands = v.matches(piece, pos, pos+v.TokenLen(last)-1, cands[:0])
	}
	s.tokens, s.cands = tokens, cands
	return tokens, true
}

// merge appends the tokens of piece by tiktoken's own merge (_byte_pair_merge): quadratic,
// for checking and as Encode's fallback.
func (v *Vocab) merge(dst []uint32, piece string) []uint32 {
	if piece == "" {
		return dst
	}
	starts := make([]int, len(piece)+1)
	for i := range starts {
		starts[i] = i
	}
	rank := func(i int) uint32 {
		if i+2 >= len(starts) {
			return none
		}
		id, ok := v.Lookup(piece[starts[i]:starts[i+2]])
		if !ok {
			return none
		}
		return id
	}
	ranks := make([]uint32, len(starts))
	for i := range ranks {
		ranks[i] = rank(i)
	}
	for {
		best, at := none, -1
		for i, r := range ranks[:len(ranks)-1] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		starts = append(starts[:at+1], starts[at+2:]...)
		ranks = append(ranks[:at+1], ranks[at+2:]...)
		ranks[at] = rank(at)
		if at > 0 {
			ranks[at-1] = rank(at - 1)
		}
	}
	for i := 0; i+1 < len(starts); i++ {
		id, _ := v.Lookup(piece[starts[i]:starts[i+1]])
		dst = append(dst, id)
	}
	return dst
}
