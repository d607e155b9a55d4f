package bpe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"
)

// none marks a missing token id.
const none = ^uint32(0)

// maxTokenLen bounds the tokens a Vocab holds; tiktoken's longest are 128 bytes.
const maxTokenLen = 255

// FNV-1a, 64-bit.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// golden and mix2 are odd multipliers that spread a key's bits to the top, where the table
// and the filter take their indexes.
const (
	golden = 0x9E3779B97F4A7C15
	mix2   = 0xBF58476D1CE4E5B9
)

// Keys. A string of 1 to 7 bytes is its own key: its bytes packed little-endian under its
// length in the top byte, so that comparing keys compares the strings. A longer string's key
// is longTag over the low 56 bits of its FNV-1a hash: a fingerprint, which probe confirms by
// comparing bytes. No key is 0, the empty slot.
const (
	longTag = 0xFF << 56
	fpMask  = 1<<56 - 1
)

// tableIndex and filterIndex derive two independent indexes from a key.
func tableIndex(k uint64, bits uint) uint64  { return ((k ^ k>>29) * golden) >> (64 - bits) }
func filterIndex(k uint64, bits uint) uint64 { return ((k ^ k>>31) * mix2) >> (64 - bits) }

// keyOf returns the key of s, which is not empty.
func keyOf(s string) uint64 {
	if len(s) < 8 {
		k := uint64(len(s)) << 56
		for i := 0; i < len(s); i++ {
			k |= uint64(s[i]) << (8 * i)
		}
		return k
	}
	return longTag | hashString(s)&fpMask
}

// keyAt returns the key of text[at:end], which is not empty: keyOf's, with one 8-byte load
// instead of a loop where text has 8 bytes from at.
func keyAt(text string, at, end int) uint64 {
	n := end - at
	if n < 8 && at+8 <= len(text) {
		return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(text[at:]), 8))&(1<<(8*n)-1) | uint64(n)<<56
	}
	return keyOf(text[at:end])
}

// Vocab is a tiktoken vocabulary ready for encoding: token bytes by id (ids are ranks), the
// prefix filter, the token table, and the split and pair tables of the pair check. It is
// immutable after Load or Derive but for its piece cache (cache.go), and safe for concurrent
// use.
type Vocab struct {
	data   string   // every token's bytes, in id order
	starts []uint32 // token id is data[starts[id]:starts[id+1]]; a gap id is empty
	maxLen int      // longest token, in bytes

	// keys and ids are the token table, open-addressed by tableIndex of a token's key:
	// keys[i] is the key of token ids[i], or 0 for an empty slot. Telling whether a piece of
	// under 8 bytes is a token reads keys only.
	keys      []uint64
	ids       []uint32
	tableMask uint64
	tableBits uint

	// filter has two bits per slot, indexed by filterIndex of a key: bit 0 is set when
	// some token starts with a string of that key (tokens included), bit 1 when a token
	// has it.
	filter     []uint64
	filterBits uint

	// splitL[id] and splitR[id] are the two tokens BPE merges into id; both are id when id
	// is not a merge (a single byte).
	splitL, splitR []uint32

	// pairs maps (splitL[id], splitR[id]) to id: 1<<63 | left<<42 | right<<21 | id.
	pairs     []uint64
	pairsMask uint64
	pairsBits uint

	// built is closed once the filter and the split and pair tables, which only the
	// backtracking encoder reads, are filled. Load leaves fill to fill them, which
	// buildBacktrack starts once, in the background (see Encode).
	built    chan struct{}
	fill     func()
	fillOnce sync.Once

	// cache remembers the tokens of pieces that are not tokens (cache.go); its table is
	// allocated when the first is remembered.
	cache pieceCache
}

// backtrackReady reports whether the backtracking encoder's tables are built, and if they are
// not, starts building them.
func (v *Vocab) backtrackReady() bool {
	select {
	case <-v.built:
		return true
	default:
		v.buildBacktrack()
		return false
	}
}

// buildBacktrack starts filling the backtracking encoder's tables, once, in the background,
// unless they are filled already (Derive fills them itself).
func (v *Vocab) buildBacktrack() {
	v.fillOnce.Do(func() {
		if v.fill != nil {
			go v.fill()
		}
	})
}

// waitBacktrack builds the backtracking encoder's tables if they are not yet, and waits for
// them.
func (v *Vocab) waitBacktrack() {
	v.buildBacktrack()
	<-v.built
}

// NumIDs returns one more than the highest token id.
func (v *Vocab) NumIDs() int { return len(v.starts) - 1 }

// Token returns the bytes of token id; "" for an id with no token.
func (v *Vocab) Token(id uint32) string { return v.data[v.starts[id]:v.starts[id+1]] }

// TokenLen returns the byte length of token id.
func (v *Vocab) TokenLen(id uint32) int { return int(v.starts[id+1] - v.starts[id]) }

// hashString returns the FNV-1a hash of s.
func hashString(s string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// filterAt returns the two filter bits of key k in the low bits.
func (v *Vocab) filterAt(k uint64) uint64 {
	i := filterIndex(k, v.filterBits)
	return v.filter[i>>5] >> ((i & 31) * 2)
}

func (v *Vocab) setFilter(k uint64, bit uint64) {
	i := filterIndex(k, v.filterBits)
	v.filter[i>>5] |= bit << ((i & 31) * 2)
}

// probe returns the id of the token s whose key is k, or none.
func (v *Vocab) probe(k uint64, s string) uint32 {
	for i := tableIndex(k, v.tableBits); ; i = (i + 1) & v.tableMask {
		switch v.keys[i] {
		case 0:
			return none
		case k:
			id := v.ids[i]
			if k < longTag || v.data[v.starts[id]:v.starts[id+1]] == s {
				return id
			}
		}
	}
}

// contains reports whether s, whose key is k, is a token; unlike probe it reads no token
// bytes for a short key.
func (v *Vocab) contains(k uint64, s string) bool {
	for i := tableIndex(k, v.tableBits); ; i = (i + 1) & v.tableMask {
		switch v.keys[i] {
		case 0:
			return false
		case k:
			if k < longTag || v.Token(v.ids[i]) == s {
				return true
			}
		}
	}
}

// Lookup returns the id of the token whose bytes are s, or false.
func (v *Vocab) Lookup(s string) (uint32, bool) {
	if len(s) == 0 || len(s) > v.maxLen {
		return 0, false
	}
	id := v.probe(keyOf(s), s)
	return id, id != none
}

// matches appends to dst every token that is a prefix of text[pos:end], shortest first.
func (v *Vocab) matches(text string, pos, end int, dst []uint32) []uint32 {
	var h, packed uint64
	end = min(end, pos+v.maxLen)
	for i := pos; i < end; i++ {
		c := text[i]
		var k uint64
		if n := i - pos; n < 7 {
			packed |= uint64(c) << (8 * n)
			k = packed | uint64(n+1)<<56
		} else {
			if n == 7 {
				h = hashString(text[pos:i]) // short keys need no hash: start it here
			}
			h = (h ^ uint64(c)) * fnvPrime
			k = longTag | h&fpMask
		}
		f := v.filterAt(k)
		if f&1 == 0 {
			break
		}
		if f&2 != 0 {
			if id := v.probe(k, text[pos:i+1]); id != none {
				dst = append(dst, id)
			}
		}
	}
	return dst
}

// pair returns the token BPE merges the pair (left, right) into, or none.
func (v *Vocab) pair(left, right uint32) uint32 {
	key := uint64(left)<<21 | uint64(right)
	for i := (key * golden) >> (64 - v.pairsBits); ; i = (i + 1) & v.pairsMask {
		slot := v.pairs[i]
		if slot == 0 {
			return none
		}
		if (slot>>21)&(1<<42-1) == key {
			return uint32(slot & (1<<21 - 1))
		}
	}
}

// nextPrefix returns the longest token that is a proper prefix of token id, or none
// (next_prefix_match in the bpe crate, which stores a table of them; Derive alone needs it
// here, since the encoder keeps every prefix token its walk passed).
func (v *Vocab) nextPrefix(id uint32) uint32 {
	t := v.Token(id)
	var buf [maxTokenLen]uint32
	if m := v.matches(t, 0, len(t)-1, buf[:0]); len(m) > 0 {
		return m[len(m)-1]
	}
	return none
}

// addPairAtomic is addPair for concurrent callers.
func (v *Vocab) addPairAtomic(left, right, id uint32) {
	key := uint64(left)<<21 | uint64(right)
	for i := (key * golden) >> (64 - v.pairsBits); ; i = (i + 1) & v.pairsMask {
		if atomic.CompareAndSwapUint64(&v.pairs[i], 0, 1<<63|key<<21|uint64(id)) {
			return
		}
	}
}

func (v *Vocab) addPair(left, right, id uint32) {
	key := uint64(left)<<21 | uint64(right)
	i := (key * golden) >> (64 - v.pairsBits)
	for v.pairs[i] != 0 {
		i = (i + 1) & v.pairsMask
	}
	v.pairs[i] = 1<<63 | key<<21 | uint64(id)
}

// validPair reports whether BPE can leave token1 and token2 side by side: undoing, from the
// seam outwards, the merges that made them, no pair across the seam merges before the
// merges that made the two tokens (byte_pair_encoding.rs, is_valid_token_pair).
func (v *Vocab) validPair(token1, token2 uint32) bool {
	limit := none
	for {
		if c := v.pair(token1, token2); c != none && c < limit {
			return false
		}
		if token1 > token2 {
			limit = token1
			token1 = v.splitR[token1]
			if token1 == limit {
				limit = token2 + 1
				token2 = v.splitL[token2]
				if token2+1 == limit {
					return true
				}
			}
		} else {
			limit = token2 + 1
			token2 = v.splitL[token2]
			if token2+1 == limit {
				limit = token1
				token1 = v.splitR[token1]
				if token1 == limit {
					return true
				}
			}
		}
	}
}

// errFormat is wrapped by every error about a malformed vocabulary.
var errFormat = errors.New("bpe: malformed vocabulary")

// newVocab takes the tokens data[starts[id]:starts[id+1]] (an empty one is a gap) and makes
// the tables, empty: buildTable, buildFilter and the caller fill them.
func newVocab(data string, starts []uint32) (*Vocab, error) {
	v := &Vocab{data: data, starts: starts, built: make(chan struct{})}
	count := 0
	for id := range uint32(v.NumIDs()) {
		n := v.TokenLen(id)
		if n > maxTokenLen {
			return nil, fmt.Errorf("%w: token %d is %d bytes long, more than %d", errFormat, id, n, maxTokenLen)
		}
		if n > 0 {
			count++
		}
		v.maxLen = max(v.maxLen, n)
	}
	// Loaded at most 4/5 (0.76 for the four encodings): the table is read once per piece,
	// and half as many slots as at 1/2 miss the cache less, and are filled faster at load.
	v.tableBits = uint(bits.Len(uint(count + count/4)))
	v.keys = make([]uint64, 1<<v.tableBits)
	v.ids = make([]uint32, 1<<v.tableBits)
	v.tableMask = 1<<v.tableBits - 1
	// Prefixes are about twice as many as tokens (421,660 for o200k_base's 199,998); eight
	// slots per token keep the filter's false positives to a few percent.
	v.filterBits = uint(bits.Len(uint(count))) + 3
	v.filter = make([]uint64, max(1, (1<<v.filterBits)/32))
	n := v.NumIDs()
	v.splitL = make([]uint32, n)
	v.splitR = make([]uint32, n)
	v.pairsBits = uint(bits.Len(uint(count))) + 1
	v.pairs = make([]uint64, 1<<v.pairsBits)
	v.pairsMask = 1<<v.pairsBits - 1
	return v, nil
}

// buildTable fills the token table.
func (v *Vocab) buildTable() error {
	for id := range uint32(v.NumIDs()) {
		t := v.Token(id)
		if t == "" {
			continue
		}
		// One walk both looks for t (probe's) and finds the empty slot that ends it.
		k := keyOf(t)
		i := tableIndex(k, v.tableBits)
		for ; v.keys[i] != 0; i = (i + 1) & v.tableMask {
			if v.keys[i] == k && (k < longTag || v.Token(v.ids[i]) == t) {
				return fmt.Errorf("%w: token %d (%q) appears twice", errFormat, id, t)
			}
		}
		v.keys[i], v.ids[i] = k, id
	}
	return nil
}

// buildFilter fills the prefix filter.
func (v *Vocab) buildFilter() {
	for id := range uint32(v.NumIDs()) {
		t := v.Token(id)
		if t == "" {
			continue
		}
		// The keys of t's prefixes, as matches computes them.
		h, packed, k := uint64(fnvOffset), uint64(0), uint64(0)
		for i := 0; i < len(t); i++ {
			h = (h ^ uint64(t[i])) * fnvPrime
			if i < 7 {
				packed |= uint64(t[i]) << (8 * i)
				k = packed | uint64(i+1)<<56
			} else {
				k = longTag | h&fpMask
			}
			v.setFilter(k, 1)
		}
		v.setFilter(k, 2)
	}
}
