package hftokenizer

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"
)

// unigram is HF tokenizers' Unigram model (models/unigram, tokenizers 0.22), SentencePiece's
// model as HF runs it: the best segmentation of a word is the path through the lattice of the
// vocabulary's pieces with the highest sum of scores (Viterbi, HF's encode_optimized). A
// character no piece covers on its own gets an unknown node scored the lowest score minus 10
// (SentencePiece's kUnkPenalty); the unknown nodes of a run are fused into one token (HF always
// fuses), which byte_fallback then spells as <0xXX> pieces when all its bytes have one.
//
// Ties keep the first path found, as HF's strict comparison does: at each end position the
// candidates arrive by start position, then by length. Scores are read as HF reads them
// (parseScore), so that sums compare exactly as HF's do.
type unigram struct {
	scores       []float64        // by id
	ids          map[string]int32 // piece → id; a piece listed twice has its last id, as in HF
	trie         pieceTrie
	unk          int32 // -1: no unk_id
	unkScore     float64
	byteFallback bool
	fallback     [256]int32 // ids of "<0xXX>", -1 if absent

	cache   wordCache
	lattice sync.Pool // *lattice
}

// unkPenalty is SentencePiece's kUnkPenalty, which HF keeps as K_UNK_PENALTY.
const unkPenalty = 10.0

func buildUnigram(cfg obj, path string) (*unigram, map[string]int32, int, error) {
	// HF after 0.22 samples segmentations when alpha is set, as BPE dropout does.
	if a, err := cfg.number(path, "alpha", 0); err != nil {
		return nil, nil, 0, err
	} else if a != 0 {
		return nil, nil, 0, unsupported(path+".alpha", "Unigram sampling, alpha %g (tokens would be random)", a)
	}
	raw, ok := cfg["vocab"].([]any)
	if !ok {
		return nil, nil, 0, invalid(path, "\"vocab\" is not an array of [piece, score]")
	}
	m := &unigram{
		scores: make([]float64, len(raw)),
		ids:    make(map[string]int32, len(raw)),
		unk:    -1,
	}
	pieces := make([]string, len(raw))
	minScore := math.Inf(1)
	for i, v := range raw {
		pair, ok := v.([]any)
		if !ok || len(pair) != 2 {
			return nil, nil, 0, invalid(indexPath(path+".vocab", i), "want [piece, score]")
		}
		piece, ok := pair[0].(string)
		if !ok {
			return nil, nil, 0, invalid(indexPath(path+".vocab", i), "the piece is not a string")
		}
		num, ok := pair[1].(json.Number)
		if !ok {
			return nil, nil, 0, invalid(indexPath(path+".vocab", i), "the score of %q is not a number", piece)
		}
		score, err := parseScore(string(num))
		if err != nil {
			return nil, nil, 0, invalid(indexPath(path+".vocab", i), "the score of %q: %v", piece, err)
		}
		pieces[i], m.scores[i] = piece, score
		m.ids[piece] = int32(i)
		minScore = min(minScore, score)
	}
	m.unkScore = minScore - unkPenalty
	switch v := cfg["unk_id"].(type) {
	case nil:
	case json.Number:
		id, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || id < 0 {
			return nil, nil, 0, invalid(path+".unk_id", "%s is not an id", v)
		}
		if len(raw) == 0 {
			return nil, nil, 0, invalid(path, "the vocabulary is empty but unk_id is set")
		}
		if id >= int64(len(raw)) {
			return nil, nil, 0, invalid(path+".unk_id", "%d is past the vocabulary's %d pieces", id, len(raw))
		}
		m.unk = int32(id)
	default:
		return nil, nil, 0, invalid(path+".unk_id", "not a number")
	}
	var err error
	if m.byteFallback, err = cfg.boolean(path, "byte_fallback", false); err != nil {
		return nil, nil, 0, err
	}
	for b := range 256 {
		m.fallback[b] = -1
		if id, ok := m.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
			m.fallback[b] = id
		}
	}
	m.trie = newPieceTrie(pieces, m.ids)
	return m, m.ids, len(raw), nil
}

// lattice is the Viterbi state of one word: for each byte position, the best path that ends
// there (its score, where its last token starts, -1 while none, and that token's id).
type lattice struct {
	score []float64
	start []int32
	id    []int32
	toks  []tok
}

func (m *unigram) tokenize(text string, out []tok) ([]tok, error) {
	if text == "" {
		return out, nil
	}
	if toks, ok := m.cache.get(text); ok {
		return append(out, toks...), nil
	}
	from := len(out)
	out, err := m.tokenizeWord(text, out)
	if err == nil && len(text) < maxCachedWord {
		m.cache.put(text, out[from:])
	}
	return out, err
}

func (m *unigram) tokenizeWord(text string, out []tok) ([]tok, error) {
	l, _ := m.lattice.Get().(*lattice)
	if l == nil {
		l = new(lattice)
	}
	defer m.lattice.Put(l)
	n := len(text)
	if cap(l.score) < n+1 {
		l.score, l.start, l.id = make([]float64, n+1), make([]int32, n+1), make([]int32, n+1)
	}
	score, start, ids := l.score[:n+1], l.start[:n+1], l.id[:n+1]
	for i := range start {
		score[i], start[i] = 0, -1
	}
	for s := 0; s < n; {
		base := score[s]
		mblen := 1
		if text[s] >= utf8.RuneSelf {
			_, mblen = utf8.DecodeRuneInString(text[s:])
		}
		single := false
		node := int32(0)
		for i := s; i < n; i++ {
			if node = m.trie.child(node, text[i]); node < 0 {
				break
			}
			id := m.trie.leaf[node]
			if id < 0 {
				continue
			}
			e := i + 1
			if cand := m.scores[id] + base; start[e] < 0 || cand > score[e] {
				score[e], start[e], ids[e] = cand, int32(s), id
			}
			if e-s == mblen {
				single = true
			}
		}
		if !single {
			if m.unk < 0 {
				return nil, fmt.Errorf("Unigram: no piece for %q and the model has no unk_id", text[s:s+mblen])
			}
			e := s + mblen
			if cand := m.unkScore + base; start[e] < 0 || cand > score[e] {
				score[e], start[e], ids[e] = cand, int32(s), m.unk
			}
		}
		s += mblen
	}
	// Back from the end: the path's tokens in reverse, a run of unknown nodes fused into one.
	toks := l.toks[:0]
	for e := n; e > 0; {
		s := int(start[e])
		if ids[e] == m.unk && len(toks) > 0 && toks[len(toks)-1].id == m.unk && toks[len(toks)-1].start == int32(e) {
			toks[len(toks)-1].start = int32(s)
		} else {
			toks = append(toks, tok{ids[e], int32(s), int32(e)})
		}
		e = s
	}
	l.toks = toks
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t.id != m.unk {
			out = append(out, t)
			continue
		}
		// HF looks the fused text up: an unknown run that spells a piece ("<unk>" itself) is
		// that piece, otherwise its bytes or the unk_id.
		piece := text[t.start:t.end]
		if id, ok := m.ids[piece]; ok {
			out = append(out, tok{id, t.start, t.end})
			continue
		}
		if m.byteFallback && m.hasBytes(piece) {
			for j := 0; j < len(piece); j++ {
				out = append(out, tok{m.fallback[piece[j]], t.start, t.end})
			}
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

func (m *unigram) hasBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if m.fallback[s[i]] < 0 {
			return false
		}
	}
	return true
}

// pieceTrie is the byte trie of the vocabulary's pieces (HF's Trie<u8>): node 0 is the root,
// whose children are found in a table; every other node's children are a run of edges sorted
// by byte.
type pieceTrie struct {
	root   [256]int32 // the root's child for each byte, -1 if none
	first  []int32    // node → its first edge; node+1's first is the end
	labels []byte     // by edge, sorted within a node
	childs []int32    // by edge
	leaf   []int32    // node → the id of the piece ending there, -1 if none
}

// newPieceTrie builds the trie of pieces, each leaf holding ids[piece] (HF looks the matched
// text up in token_to_ids, so a duplicate piece yields its last id). The empty piece is never
// matched, as in HF.
func newPieceTrie(pieces []string, ids map[string]int32) pieceTrie {
	keys := make([]string, 0, len(ids))
	for p := range ids {
		if p != "" {
			keys = append(keys, p)
		}
	}
	sort.Strings(keys) // byte order: each node's children are created in byte order
	var t pieceTrie
	parent, label, leaf := []int32{-1}, []byte{0}, []int32{-1}
	var path []int32 // path[i]: the node after the first i+1 bytes of the previous key
	prev := ""
	for _, k := range keys {
		common := 0
		for common < len(k) && common < len(prev) && k[common] == prev[common] {
			common++
		}
		path = path[:common]
		node := int32(0)
		if common > 0 {
			node = path[common-1]
		}
		for i := common; i < len(k); i++ {
			parent, label, leaf = append(parent, node), append(label, k[i]), append(leaf, -1)
			node = int32(len(parent) - 1)
			path = append(path, node)
		}
		leaf[node] = ids[k]
		prev = k
	}
	n := len(parent)
	t.leaf = leaf
	t.first = make([]int32, n+1)
	for c := 1; c < n; c++ {
		t.first[parent[c]+1]++
	}
	for i := 1; i <= n; i++ {
		t.first[i] += t.first[i-1]
	}
	t.labels, t.childs = make([]byte, n-1), make([]int32, n-1)
	fill := append([]int32(nil), t.first[:n]...)
	for c := 1; c < n; c++ {
		e := fill[parent[c]]
		fill[parent[c]]++
		t.labels[e], t.childs[e] = label[c], int32(c)
	}
	for b := range t.root {
		t.root[b] = -1
	}
	for e := t.first[0]; e < t.first[1]; e++ {
		t.root[t.labels[e]] = t.childs[e]
	}
	return t
}

// child returns node's child by byte b, or -1.
func (t *pieceTrie) child(node int32, b byte) int32 {
	if node == 0 {
		return t.root[b]
	}
	lo, end := t.first[node], t.first[node+1]
	for hi := end; lo < hi; {
		mid := int32(uint32(lo+hi) >> 1)
		if t.labels[mid] < b {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < end && t.labels[lo] == b {
		return t.childs[lo]
	}
	return -1
}

// parseScore reads a JSON number as serde_json does without its float_roundtrip feature, which
// is how HF tokenizers reads a Unigram score: the decimal digits as an integer (up to 19 of
// them; later ones only move the exponent, or are dropped after the point), converted to
// float64 and then multiplied or divided by a power of ten. That is not always the nearest
// float64: "-10.302346229553223" reads as one unit in the last place below the nearest, and
// Viterbi's comparisons of sums see the difference.
func parseScore(s string) (float64, error) {
	bad := fmt.Errorf("%q is not a JSON number", s)
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg, i = true, 1
	}
	digit := func() (uint64, bool) {
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			return uint64(s[i] - '0'), true
		}
		return 0, false
	}
	// overflows is serde_json's overflow! macro: sig*10+d > MaxUint64.
	overflows := func(sig, d uint64) bool {
		const max = math.MaxUint64
		return sig >= max/10 && (sig > max/10 || d > max%10)
	}
	var sig uint64
	exp := 0
	d, ok := digit()
	if !ok {
		return 0, bad
	}
	i++
	if d == 0 {
		if _, ok := digit(); ok {
			return 0, bad // only one leading zero
		}
	} else {
		sig = d
		for d, ok := digit(); ok; d, ok = digit() {
			if overflows(sig, d) {
				exp++ // the digits past the 19th only scale the number
			} else if exp == 0 {
				sig = sig*10 + d
			} else {
				exp++
			}
			i++
		}
	}
	isFloat := false
	if i < len(s) && s[i] == '.' {
		isFloat = true
		i++
		n := 0
		skipping := false
		for d, ok := digit(); ok; d, ok = digit() {
			if !skipping && overflows(sig, d) {
				skipping = true // serde drops the digits after the point it cannot hold
			}
			if !skipping {
				sig = sig*10 + d
				exp--
			}
			n++
			i++
		}
		if n == 0 {
			return 0, bad
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		isFloat = true
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		e, n := 0, 0
		big := false
		for d, ok := digit(); ok; d, ok = digit() {
			if !big && e > (math.MaxInt32-int(d))/10 {
				big = true
			}
			if !big {
				e = e*10 + int(d)
			}
			n++
			i++
		}
		if n == 0 {
			return 0, bad
		}
		if big {
			if sig != 0 && !expNeg {
				return 0, fmt.Errorf("%q is out of range", s)
			}
			if neg {
				return math.Copysign(0, -1), nil
			}
			return 0, nil
		}
		if expNeg {
			e = -e
		}
		exp = saturatingAdd(exp, e)
	}
	if i != len(s) {
		return 0, bad
	}
	if !isFloat && exp == 0 {
		// An integer: serde keeps it as a u64 or i64, which becomes a float64 by rounding.
		if neg {
			return -float64(sig), nil
		}
		return float64(sig), nil
	}
	f := float64(sig)
	for {
		a := exp
		if a < 0 {
			a = -a
		}
		if a < len(pow10) {
			if exp >= 0 {
				f *= pow10[a]
				if math.IsInf(f, 0) {
					return 0, fmt.Errorf("%q is out of range", s)
				}
			} else {
				f /= pow10[a]
			}
			break
		}
		if f == 0 {
			break
		}
		if exp >= 0 {
			return 0, fmt.Errorf("%q is out of range", s)
		}
		f /= 1e308
		exp += 308
	}
	if neg {
		f = -f
	}
	return f, nil
}

func saturatingAdd(a, b int) int {
	s := a + b
	switch {
	case s > math.MaxInt32:
		return math.MaxInt32
	case s < math.MinInt32:
		return math.MinInt32
	}
	return s
}

// pow10 is serde_json's POW10 table: 1e0 … 1e308, each the nearest float64.
var pow10 = func() [309]float64 {
	var t [309]float64
	for i := range t {
		t[i], _ = strconv.ParseFloat("1e"+strconv.Itoa(i), 64)
	}
	return t
}()
