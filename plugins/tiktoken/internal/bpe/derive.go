package bpe

import (
	"fmt"
	"slices"
	"sync"
)

// Derive builds a Vocab from tokens (as ParseTiktoken returns them) by searching, for every
// token in rank order, the merge that makes it, as the bpe crate's from_dictionary does; it
// takes about a second for o200k_base, which is why Load reads the result from a split table
// instead. It fails unless every single byte is a token and every token encodes to itself
// both by tiktoken's merge and by the backtracking encoder: the condition under which the
// backtracking encoder equals BPE.
func Derive(data string, starts []uint32) (*Vocab, error) {
	v, err := newVocab(data, starts)
	if err != nil {
		return nil, err
	}
	if err := v.buildTable(); err != nil {
		return nil, err
	}
	v.buildFilter()
	close(v.built) // the split and pair tables are filled below, before anything encodes
	for b := range 256 {
		if _, ok := v.Lookup(string([]byte{byte(b)})); !ok {
			return nil, fmt.Errorf("%w: byte %#02x is not a token", errFormat, b)
		}
	}
	for id := range uint32(v.NumIDs()) {
		v.splitL[id], v.splitR[id] = id, id
		t := v.Token(id)
		for left := v.nextPrefix(id); left != none; left = v.nextPrefix(left) {
			right, ok := v.Lookup(t[v.TokenLen(left):])
			if ok && left < id && right < id && v.validPair(left, right) {
				v.splitL[id], v.splitR[id] = left, right
				v.addPair(left, right, id)
				break
			}
		}
	}
	var s Scratch
	for id := range uint32(v.NumIDs()) {
		t := v.Token(id)
		if t == "" {
			continue
		}
		if got := v.merge(nil, t); !slices.Equal(got, []uint32{id}) {
			return nil, fmt.Errorf("%w: token %d (%q) merges into %v, not itself", errFormat, id, t, got)
		}
		if got, ok := v.backtrack(t, &s); !ok || !slices.Equal(got, []uint32{id}) {
			return nil, fmt.Errorf("%w: token %d (%q) backtracks into %v, not itself", errFormat, id, t, got)
		}
	}
	return v, nil
}

// SplitTable returns what Load needs besides the tokens: for each id, the ids of the two
// tokens BPE merges into it (the id itself twice for a single byte or an unused id), each as
// three bytes, little-endian. Ids fit: tiktoken's highest is 200,018.
func (v *Vocab) SplitTable() []byte {
	out := make([]byte, 0, 6*v.NumIDs())
	for id := range uint32(v.NumIDs()) {
		l, r := v.splitL[id], v.splitR[id]
		out = append(out, byte(l), byte(l>>8), byte(l>>16), byte(r), byte(r>>8), byte(r>>16))
	}
	return out
}

// Load builds a Vocab from tokens (as ParseTiktoken and ReadTokens return them) and the split
// table that SplitTable made of the same tokens, which it reads in place. It checks that the
// table fits the tokens (every split is into two earlier tokens whose lengths add up), not that
// it is the one Derive computes: the tests do that.
//
// Load returns once the token table is filled: what telling tokens apart needs. The prefix
// filter and the split and pair tables, which only the backtracking encoder reads, are filled
// in the background from the first Encode on, which merges pieces as tiktoken does until they
// are (see Encode), so that a plugin's first count does not wait for them: they are about half
// of the loading time (5 of 10 ms for cl100k_base, 17 of 26 for o200k_base, one thread).
func Load(data string, starts []uint32, split string) (*Vocab, error) {
	v, err := newVocab(data, starts)
	if err != nil {
		return nil, err
	}
	if err := v.checkSplits(split); err != nil {
		return nil, err
	}
	if err := v.buildTable(); err != nil {
		return nil, err
	}
	// The filter and the split and pair tables are filled on the first Encode (see
	// buildBacktrack), by goroutines of their own: in a plugin that loads its model while it
	// completes its handshake, on two cores, filling them then would slow the handshake and
	// what the first count waits for, which merges its pieces without them.
	n := uint32(v.NumIDs())
	v.fill = func() {
		// The three do not depend on one another, and filling them is bound by memory
		// latency: the filter and each half of the split and pair tables (pairs are inserted
		// with compare-and-swap) are filled at once.
		var wg sync.WaitGroup
		wg.Go(v.buildFilter)
		wg.Go(func() { v.loadSplits(split, 0, n/2) })
		wg.Go(func() { v.loadSplits(split, n/2, n) })
		wg.Wait()
		close(v.built)
	}
	return v, nil
}

// checkSplits checks that split, a split table, fits v's tokens: as many entries as ids, and
// each id either its own split (a single byte, or no token) or made of two earlier tokens
// whose lengths add up to its own.
func (v *Vocab) checkSplits(split string) error {
	if len(split) != 6*v.NumIDs() {
		return fmt.Errorf("%w: split table of %d bytes for %d ids", errFormat, len(split), v.NumIDs())
	}
	for id := range uint32(v.NumIDs()) {
		left, right := splitAt(split, id)
		if left == id && right == id {
			continue
		}
		if left >= id || right >= id || v.TokenLen(left)+v.TokenLen(right) != v.TokenLen(id) {
			return fmt.Errorf("%w: split table: token %d is not made of tokens %d and %d", errFormat, id, left, right)
		}
	}
	return nil
}

// splitAt returns the two ids of entry id of a split table.
func splitAt(split string, id uint32) (left, right uint32) {
	b := split[6*id : 6*id+6]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16, uint32(b[3]) | uint32(b[4])<<8 | uint32(b[5])<<16
}

// loadSplits fills the split and pair tables for ids [from, to) from split, which
// checkSplits accepted.
func (v *Vocab) loadSplits(split string, from, to uint32) {
	for id := from; id < to; id++ {
		left, right := splitAt(split, id)
		v.splitL[id], v.splitR[id] = left, right
		if left != id || right != id {
			v.addPairAtomic(left, right, id)
		}
	}
}

//go:generate go run ./gen

// Encodings lists the encodings whose split tables gen writes.
var Encodings = []string{"cl100k_base", "o200k_base", "p50k_base", "r50k_base"}
