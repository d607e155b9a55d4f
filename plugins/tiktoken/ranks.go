package tiktoken

// rankTable maps a token's bytes to its rank. Most lookups during merging are of short
// pieces, so pieces of up to 7 bytes are packed with their length into a uint64 key: hashing
// and comparing one word is several times cheaper than a string key (rank lookups were ~40% of
// the fast backend's time).
type rankTable struct {
	short map[uint64]uint32 // pieces of 1 to 7 bytes, by packKey
	long  map[string]uint32 // pieces of 8 bytes or more
}

func newRankTable(size int) *rankTable {
	// About two tokens in three are under 8 bytes (o200k_base: 132,360 of 200,019); sizing
	// the maps for that saves their growth at load.
	return &rankTable{short: make(map[uint64]uint32, size*2/3), long: make(map[string]uint32, size/3+size/8)}
}

// packKey packs s (at most 7 bytes) and its length into one word; distinct strings give
// distinct keys because the length is in the top byte.
func packKey(s string) uint64 {
	k := uint64(len(s)) << 56
	for i := 0; i < len(s); i++ {
		k |= uint64(s[i]) << (8 * i)
	}
	return k
}

func (t *rankTable) set(s string, rank uint32) {
	if len(s) < 8 {
		t.short[packKey(s)] = rank
		return
	}
	t.long[s] = rank
}

func (t *rankTable) get(s string) (uint32, bool) {
	if len(s) < 8 {
		r, ok := t.short[packKey(s)]
		return r, ok
	}
	r, ok := t.long[s]
	return r, ok
}
