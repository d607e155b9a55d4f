package hftokenizer

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// precompiled is HF's Precompiled normalizer: SentencePiece's compiled normalization rules
// (the precompiled_charsmap of a .model file, base64 in the JSON), read as HF's spm_precompiled
// crate reads them. The charsmap is a little-endian u32 with the trie's size in bytes, the trie
// (a Darts double array of u32 units, keys in UTF-8 bytes) and then the replacement strings,
// each ended by a NUL, which the trie's values point into.
//
// It rewrites the text grapheme by grapheme (extended grapheme clusters, UAX #29) as HF does: a
// grapheme of fewer than 6 bytes is looked up whole, else, or when it has no entry, each of its
// characters is. A lookup takes the entry of the shortest prefix of the key that has one (Darts'
// first common-prefix result), so a grapheme whose first character has an entry is replaced by
// that character's replacement, the rest of the grapheme with it: HF's and SentencePiece's
// behaviour, kept. Alignments follow HF's replace: each replacement character replaces one of
// the original grapheme's, extra ones are insertions, and a shorter replacement removes the
// rest through its last character (through the previous grapheme's last character when it is
// empty).
type precompiled struct {
	units      []uint32
	normalized string
	ascii      [128]int32 // the replacement's start in normalized for each ASCII character, -1 if none
}

func buildPrecompiled(cfg obj, path string) (*precompiled, error) {
	b64, err := cfg.str(path, "precompiled_charsmap")
	if err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, invalid(path+".precompiled_charsmap", "not base64: %v", err)
	}
	if len(raw) < 4 {
		return nil, invalid(path+".precompiled_charsmap", "%d bytes, too short for a charsmap", len(raw))
	}
	size := binary.LittleEndian.Uint32(raw)
	n := int(size / 4)
	if n == 0 || len(raw)-4 < 4*n {
		return nil, invalid(path+".precompiled_charsmap", "the trie of %d bytes does not fit in %d", size, len(raw)-4)
	}
	c := &precompiled{units: make([]uint32, n)}
	for i := range c.units {
		c.units[i] = binary.LittleEndian.Uint32(raw[4+4*i:])
	}
	rest := raw[4+4*n:]
	if !utf8.Valid(rest) {
		return nil, invalid(path+".precompiled_charsmap", "the replacement strings are not UTF-8")
	}
	c.normalized = string(rest)
	for b := range c.ascii {
		c.ascii[b] = c.lookup(string(rune(b)))
	}
	return c, nil
}

// lookup is Darts' common-prefix search for key, stopped at its first result: the start in
// normalized of the replacement of key's shortest prefix that has one, or -1. A NUL byte ends
// the key, as in spm_precompiled. Units are read as HF reads them; a walk that leaves the array
// (which a charsmap SentencePiece wrote never does) finds nothing.
func (c *precompiled) lookup(key string) int32 {
	u := c.units
	pos := uint32(0)
	pos ^= offset(u[0])
	for i := 0; i < len(key); i++ {
		b := key[i]
		if b == 0 {
			break
		}
		pos ^= uint32(b)
		if int(pos) >= len(u) {
			return -1
		}
		unit := u[pos]
		if unit&(1<<31|0xFF) != uint32(b) {
			return -1
		}
		pos ^= offset(unit)
		if unit>>8&1 == 1 {
			if int(pos) >= len(u) {
				return -1
			}
			return int32(u[pos] & (1<<31 - 1))
		}
	}
	return -1
}

func offset(unit uint32) uint32 { return unit >> 10 << ((unit & (1 << 9)) >> 6) }

// transform returns key's replacement, if it has one.
func (c *precompiled) transform(key string) (string, bool) {
	var at int32
	if len(key) == 1 && key[0] < utf8.RuneSelf {
		at = c.ascii[key[0]]
	} else {
		at = c.lookup(key)
	}
	if at < 0 || int(at) > len(c.normalized) {
		return "", false
	}
	s := c.normalized[at:]
	if end := strings.IndexByte(s, 0); end >= 0 {
		s = s[:end]
	}
	return s, true
}

func (c *precompiled) normalize(p *piece) {
	text := p.text
	var dest []edit // nil until the first change; then every character so far
	changed := func(upTo int) {
		if dest == nil {
			dest = make([]edit, 0, len(text)+8)
			for _, r := range text[:upTo] {
				dest = append(dest, edit{r, 0})
			}
		}
	}
	for i := 0; i < len(text); {
		g := 1
		if text[i] >= utf8.RuneSelf || i+1 < len(text) && (text[i+1] >= utf8.RuneSelf || text[i] == '\r' && text[i+1] == '\n') {
			// Only a character outside ASCII, or CR LF, can make a grapheme of more than one.
			cluster, _, _, _ := uniseg.FirstGraphemeClusterInString(text[i:], -1)
			g = len(cluster)
		}
		grapheme := text[i : i+g]
		if g < 6 {
			if norm, ok := c.transform(grapheme); ok {
				changed(i)
				dest = replaceEdits(dest, grapheme, norm)
				i += g
				continue
			}
		}
		for j, r := range grapheme {
			part := grapheme[j : j+utf8.RuneLen(r)]
			if g > len(part) { // a grapheme of one character was looked up whole above
				if norm, ok := c.transform(part); ok {
					changed(i + j)
					dest = replaceEdits(dest, part, norm)
					continue
				}
			}
			if dest != nil {
				dest = append(dest, edit{r, 0})
			}
		}
		i += g
	}
	if dest != nil {
		p.transform(dest, 0)
	}
}

// replaceEdits appends the edits that replace old by repl, as HF's Precompiled does: each
// character of repl replaces one, the last extra ones are insertions, and a shorter repl
// removes the difference through the last edit so far.
func replaceEdits(dest []edit, old, repl string) []edit {
	diff := utf8.RuneCountInString(repl) - utf8.RuneCountInString(old)
	for _, r := range repl {
		dest = append(dest, edit{r, 0})
	}
	switch {
	case diff > 0:
		for k := len(dest) - diff; k < len(dest); k++ {
			dest[k].change = 1
		}
	case diff < 0 && len(dest) > 0:
		dest[len(dest)-1].change += diff
	}
	return dest
}
