package hftokenizer

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/internal/mergeheap"
)

// tok is one token of a piece: its id and its bytes [start, end) in the piece's text.
type tok struct {
	id         int32
	start, end int32
}

// model turns one pre-token into tokens, appending them to out.
type model interface {
	tokenize(text string, out []tok) ([]tok, error)
}

// bpe is HF's BPE model. It merges the way HF does, which sugarme/tokenizer v0.3.0 does not:
// a min-heap of (rank, position) merges, each checked against the current symbols before it is
// applied, so runs of a repeated character ("IEEE", "00000000") merge from the left as in HF.
// In byte mode (a ByteLevel pre-tokenizer) it works on the raw bytes of the text, each byte
// standing for its character of GPT-2's byte alphabet, which gives the same tokens and offsets
// as HF's rewritten text without rewriting anything.
type bpe struct {
	vocab   map[string]int32 // keys in raw bytes in byte mode
	merges  mergeTable
	rankID  []int32    // the token each line of "merges" makes, by rank
	byteIDs [256]int32 // byte mode: the id of each byte's character, -1 if absent

	byteLevel    bool
	unk          int32 // -1: no unk_token
	fuseUnk      bool
	byteFallback bool
	fallback     [256]int32 // ids of "<0xXX>", -1 if absent
	ignoreMerges bool
	prefix       string // continuing_subword_prefix
	suffix       string // end_of_word_suffix

	cache wordCache
}

// wordCache remembers the tokens of the words a model has seen, as HF's BPE does: up to
// cacheSize words of at most maxCachedWord bytes, after which it stops taking new ones. It is
// safe for concurrent use; the zero value is ready.
type wordCache struct {
	mu    sync.RWMutex
	words map[string][]tok
}

const (
	cacheSize     = 10000
	maxCachedWord = 256
)

func (c *wordCache) get(word string) ([]tok, bool) {
	c.mu.RLock()
	toks, ok := c.words[word]
	c.mu.RUnlock()
	return toks, ok
}

func (c *wordCache) put(word string, toks []tok) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.words == nil {
		c.words = make(map[string][]tok, cacheSize)
	}
	if len(c.words) < cacheSize {
		c.words[word] = append([]tok(nil), toks...)
	}
}

// mergeTable maps a pair of token ids to its merge: open addressing with linear probing over
// a power-of-two table at most half full. It is read-only once built, so readers share it
// freely; it is about twice as fast as a Go map for these lookups, the hottest of the BPE.
type mergeTable struct {
	keys  []uint64 // emptyPair where no key is
	vals  []merge
	shift uint
	n     int
}

const emptyPair = ^uint64(0) // no pair of int32 ids has every bit set

func newMergeTable(n int) mergeTable {
	size, shift := 8, uint(61)
	for size < 2*n {
		size, shift = size*2, shift-1
	}
	t := mergeTable{keys: make([]uint64, size), vals: make([]merge, size), shift: shift}
	for i := range t.keys {
		t.keys[i] = emptyPair
	}
	return t
}

func (t *mergeTable) slot(key uint64) int { return int((key * 0x9E3779B97F4A7C15) >> t.shift) }

// put sets key's merge; a later merge of the same pair replaces the earlier, as in HF.
func (t *mergeTable) put(key uint64, v merge) {
	mask := len(t.keys) - 1
	for i := t.slot(key); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case emptyPair:
			t.keys[i], t.vals[i] = key, v
			t.n++
			return
		case key:
			t.vals[i] = v
			return
		}
	}
}

func (t *mergeTable) get(key uint64) (merge, bool) {
	mask := len(t.keys) - 1
	for i := t.slot(key); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case key:
			return t.vals[i], true
		case emptyPair:
			return merge{}, false
		}
	}
}

// merge is what a pair of symbols becomes, and how early.
type merge struct{ rank, id int32 }

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// buildBPE reads a BPE model. byteLevel says the pre-tokenizer ends in ByteLevel.
func buildBPE(cfg obj, path string, vocab map[string]int32, byteLevel bool) (*bpe, error) {
	if d, err := cfg.number(path, "dropout", 0); err != nil {
		return nil, err
	} else if d != 0 {
		return nil, unsupported(path+".dropout", "BPE dropout %g (tokens would be random)", d)
	}
	m := &bpe{byteLevel: byteLevel, unk: -1}
	var err error
	if m.prefix, err = cfg.optStr(path, "continuing_subword_prefix", ""); err != nil {
		return nil, err
	}
	if m.suffix, err = cfg.optStr(path, "end_of_word_suffix", ""); err != nil {
		return nil, err
	}
	if byteLevel && (m.prefix != "" || m.suffix != "") {
		return nil, unsupported(path, "continuing_subword_prefix or end_of_word_suffix with a ByteLevel pre-tokenizer")
	}
	if m.prefix != "" {
		// Written as HF's merge_word, but not yet checked against HF: its npm binding aborts
		// on the one such file tried. Refused until a reference file can check it.
		return nil, unsupported(path+".continuing_subword_prefix", "a BPE continuing_subword_prefix (%q)", m.prefix)
	}
	if m.fuseUnk, err = cfg.boolean(path, "fuse_unk", false); err != nil {
		return nil, err
	}
	if m.byteFallback, err = cfg.boolean(path, "byte_fallback", false); err != nil {
		return nil, err
	}
	if m.ignoreMerges, err = cfg.boolean(path, "ignore_merges", false); err != nil {
		return nil, err
	}
	if m.unk, err = unkToken(cfg, path, vocab, ""); err != nil {
		return nil, err
	}
	for b := range 256 {
		m.fallback[b], m.byteIDs[b] = -1, -1
		if id, ok := vocab[fmt.Sprintf("<0x%02X>", b)]; ok {
			m.fallback[b] = id
		}
	}
	if err := m.readMerges(cfg, path, vocab); err != nil {
		return nil, err
	}
	m.vocab = vocab
	if byteLevel {
		m.vocab = make(map[string]int32, len(vocab))
		for k, id := range vocab {
			if raw, ok := fromByteAlphabet(k); ok {
				m.vocab[raw] = id
			}
		}
		for b := range 256 {
			if id, ok := m.vocab[string([]byte{byte(b)})]; ok {
				m.byteIDs[b] = id
			}
		}
	}
	return m, nil
}

// readVocab reads the model's "vocab" object of token → id.
func readVocab(cfg obj, path string) (map[string]int32, error) {
	raw, ok := cfg["vocab"].(map[string]any)
	if !ok {
		return nil, invalid(path, "\"vocab\" is not an object of token → id")
	}
	vocab := make(map[string]int32, len(raw))
	for k, v := range raw {
		id, ok := asID(v)
		if !ok {
			return nil, invalid(path+".vocab", "token %q has id %v", k, v)
		}
		vocab[k] = id
	}
	return vocab, nil
}

// unkToken returns the id of the model's unk_token (def when the file has none), or -1 when
// there is none at all.
func unkToken(cfg obj, path string, vocab map[string]int32, def string) (int32, error) {
	unk, err := cfg.optStr(path, "unk_token", def)
	if err != nil || unk == "" {
		return -1, err
	}
	id, ok := vocab[unk]
	if !ok {
		return -1, invalid(path+".unk_token", "%q is not in the vocabulary", unk)
	}
	return id, nil
}

// readMerges reads "merges": "a b" strings or [a, b] pairs; a later duplicate wins, as in HF.
func (m *bpe) readMerges(cfg obj, path string, vocab map[string]int32) error {
	raw, ok := cfg["merges"].([]any)
	if !ok {
		return invalid(path, "\"merges\" is not an array")
	}
	m.merges = newMergeTable(len(raw))
	m.rankID = make([]int32, len(raw))
	for i, v := range raw {
		var a, b string
		switch v := v.(type) {
		case string:
			parts := strings.Split(v, " ")
			if len(parts) != 2 {
				return invalid(indexPath(path+".merges", i), "%q is not two tokens separated by a space", v)
			}
			a, b = parts[0], parts[1]
		case []any:
			if len(v) != 2 {
				return invalid(indexPath(path+".merges", i), "not a pair")
			}
			sa, ok1 := v[0].(string)
			sb, ok2 := v[1].(string)
			if !ok1 || !ok2 {
				return invalid(indexPath(path+".merges", i), "not a pair of strings")
			}
			a, b = sa, sb
		default:
			return invalid(indexPath(path+".merges", i), "want a string or a pair")
		}
		ida, ok1 := vocab[a]
		idb, ok2 := vocab[b]
		if !ok1 || !ok2 {
			return invalid(indexPath(path+".merges", i), "merge %q %q: token not in the vocabulary", a, b)
		}
		joined := a + b[min(len(m.prefix), len(b)):]
		id, ok := vocab[joined]
		if !ok {
			return invalid(indexPath(path+".merges", i), "merge %q %q: %q is not in the vocabulary", a, b, joined)
		}
		m.merges.put(pairKey(ida, idb), merge{rank: int32(i), id: id})
		m.rankID[i] = id
	}
	return nil
}

// symbol is a stretch of the word being merged; len 0 marks one merged away.
type symbol struct {
	id         int32
	prev, next int32
	len        int32
}

func (m *bpe) tokenize(text string, out []tok) ([]tok, error) {
	if text == "" {
		return out, nil
	}
	if m.ignoreMerges {
		if id, ok := m.vocab[text]; ok {
			return append(out, tok{id, 0, int32(len(text))}), nil
		}
	}
	if toks, ok := m.cache.get(text); ok {
		return append(out, toks...), nil
	}
	from := len(out)
	defer func() {
		if len(text) <= maxCachedWord {
			m.cache.put(text, out[from:])
		}
	}()
	syms := m.initial(text)
	m.mergeAll(syms)
	// Offsets are cumulative lengths, as in HF: a character dropped for want of an unk_token
	// shifts the ones after it, exactly as HF shifts them.
	pos := int32(0)
	for _, s := range syms {
		if s.len > 0 {
			end := min(pos+s.len, int32(len(text)))
			out = append(out, tok{s.id, min(pos, end), end})
			pos += s.len
		}
	}
	return out, nil
}

// initial is HF's merge_word before merging: one symbol per character (per byte in byte
// mode), with byte fallback, unknown characters and fuse_unk handled as HF handles them.
func (m *bpe) initial(text string) []symbol {
	syms := make([]symbol, 0, len(text))
	add := func(id int32, n int) {
		syms = append(syms, symbol{id: id, prev: int32(len(syms)) - 1, next: int32(len(syms)) + 1, len: int32(n)})
	}
	unkID, unkLen := int32(-1), 0
	flushUnk := func() {
		if unkID >= 0 {
			add(unkID, unkLen)
			unkID = -1
		}
	}
	miss := func(n int, s string) {
		if m.byteFallback {
			ids := make([]int32, 0, len(s))
			for j := 0; j < len(s); j++ {
				if id := m.fallback[s[j]]; id >= 0 {
					ids = append(ids, id)
				} else {
					ids = nil
					break
				}
			}
			if ids != nil {
				// HF adds one symbol of length 1 per byte of s, prefix and suffix included.
				for _, id := range ids {
					add(id, 1)
				}
				return
			}
		}
		if m.unk < 0 {
			return // HF drops a character it has no token for when there is no unk_token
		}
		switch {
		case unkID >= 0 && m.fuseUnk:
			unkLen += n
		case unkID >= 0:
			add(unkID, unkLen)
			unkID, unkLen = m.unk, n
		default:
			unkID, unkLen = m.unk, n
		}
	}
	if m.byteLevel {
		for i := 0; i < len(text); i++ {
			if id := m.byteIDs[text[i]]; id >= 0 {
				flushUnk()
				add(id, 1)
			} else {
				miss(1, text[i:i+1])
			}
		}
	} else {
		for i, r := range text {
			n := utf8.RuneLen(r)
			s := text[i : i+n]
			if i > 0 && m.prefix != "" {
				s = m.prefix + s
			}
			if i+n == len(text) && m.suffix != "" {
				s += m.suffix
			}
			if id, ok := m.vocab[s]; ok {
				flushUnk()
				add(id, n)
			} else {
				miss(n, s)
			}
		}
	}
	flushUnk()
	if len(syms) > 0 {
		syms[len(syms)-1].next = -1
	}
	return syms
}

// mergeAll is HF's Word::merge_all without dropout.
func (m *bpe) mergeAll(syms []symbol) {
	if len(syms) < 2 || m.merges.n == 0 {
		return
	}
	h := make(mergeheap.Heap, 0, len(syms))
	for i := 0; i+1 < len(syms); i++ {
		if mg, ok := m.merges.get(pairKey(syms[i].id, syms[i+1].id)); ok {
			h = append(h, mergeheap.New(uint32(mg.rank), int32(i)))
		}
	}
	h.Init()
	for len(h) > 0 {
		top := h.Pop()
		pos := top.Pos()
		id := m.rankID[top.Rank()]
		cur := &syms[pos]
		if cur.len == 0 || cur.next < 0 {
			continue
		}
		right := syms[cur.next]
		// HF checks the id the pair makes now, not the rank: a queued merge still applies when
		// the pair changed but makes the same token.
		if mg, ok := m.merges.get(pairKey(cur.id, right.id)); !ok || mg.id != id {
			continue
		}
		cur.id = id
		cur.len += right.len
		syms[cur.next].len = 0
		cur.next = right.next
		if right.next >= 0 && int(right.next) < len(syms) {
			syms[right.next].prev = pos
		}
		if cur.prev >= 0 {
			if mg, ok := m.merges.get(pairKey(syms[cur.prev].id, cur.id)); ok {
				h.Push(mergeheap.New(uint32(mg.rank), cur.prev))
			}
		}
		if cur.next >= 0 && int(cur.next) < len(syms) {
			if mg, ok := m.merges.get(pairKey(cur.id, syms[cur.next].id)); ok {
				h.Push(mergeheap.New(uint32(mg.rank), pos))
			}
		}
	}
}

// byteAlphabet is GPT-2's bytes_to_unicode: printable bytes stand for themselves, the others
// for the characters from U+0100 up, in byte order.
var byteAlphabet, byteOf = func() ([256]rune, map[rune]byte) {
	var alpha [256]rune
	inv := make(map[rune]byte, 256)
	n := 0
	for b := range 256 {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF {
			alpha[b] = rune(b)
		} else {
			alpha[b] = rune(256 + n)
			n++
		}
		inv[alpha[b]] = byte(b)
	}
	return alpha, inv
}()

// fromByteAlphabet turns a byte-level token back into its bytes; false if it holds a character
// outside the alphabet (such a token can never come out of a ByteLevel pre-tokenizer).
func fromByteAlphabet(s string) (string, bool) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		b, ok := byteOf[r]
		if !ok {
			return "", false
		}
		out = append(out, b)
	}
	return string(out), true
}
