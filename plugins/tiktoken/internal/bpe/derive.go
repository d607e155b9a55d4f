package bpe

import (
	"errors"
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

// SplitTable returns what Load needs besides the tokens: one byte per id, the length of the
// left token of the id's split, 0 for an id that is not a merge.
func (v *Vocab) SplitTable() []byte {
	out := make([]byte, v.NumIDs())
	for id := range uint32(v.NumIDs()) {
		if l := v.splitL[id]; l != id {
			out[id] = byte(v.TokenLen(l))
		}
	}
	return out
}

// Load builds a Vocab from tokens (as ParseTiktoken returns them) and the split table that
// SplitTable made of the same tokens. It checks that the table fits the tokens (every split
// is into two earlier tokens), not that it is the one Derive computes: the tests do that.
func Load(data string, starts []uint32, split []byte) (*Vocab, error) {
	v, err := newVocab(data, starts)
	if err != nil {
		return nil, err
	}
	if len(split) != v.NumIDs() {
		return nil, fmt.Errorf("%w: split table of %d bytes for %d ids", errFormat, len(split), v.NumIDs())
	}
	// Resolving the splits is two table lookups per token, bound by memory latency: two
	// goroutines halve it on two cores. Each writes its own ids; pairs are inserted with
	// compare-and-swap.
	var (
		wg   sync.WaitGroup
		errs [2]error
	)
	n := uint32(v.NumIDs())
	for part := range uint32(2) {
		wg.Go(func() {
			errs[part] = v.resolveSplits(split, part*n/2, (part+1)*n/2)
		})
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	return v, nil
}

// resolveSplits fills the split and pair tables for ids [from, to).
func (v *Vocab) resolveSplits(split []byte, from, to uint32) error {
	for id := from; id < to; id++ {
		v.splitL[id], v.splitR[id] = id, id
		l := int(split[id])
		if l == 0 {
			continue
		}
		t := v.Token(id)
		if l >= len(t) {
			return fmt.Errorf("%w: split table: token %d: split at %d of %d bytes", errFormat, id, l, len(t))
		}
		left, okL := v.Lookup(t[:l])
		right, okR := v.Lookup(t[l:])
		if !okL || !okR || left >= id || right >= id {
			return fmt.Errorf("%w: split table: token %d: split at %d is not two earlier tokens", errFormat, id, l)
		}
		v.splitL[id], v.splitR[id] = left, right
		v.addPairAtomic(left, right, id)
	}
	return nil
}

//go:generate go run ./gen

// Encodings lists the encodings whose split tables gen writes.
var Encodings = []string{"cl100k_base", "o200k_base", "p50k_base", "r50k_base"}
