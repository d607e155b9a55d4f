package hftokenizer

import (
	"unicode"
	"unicode/utf8"
)

// preTokenizer cuts one piece into pieces, appending them to out; sc lends it buffers.
type preTokenizer func(p piece, out []piece, sc *scratch) []piece

// scratch holds the buffers one encode call reuses from text to text: piece lists for
// Sequence's stages and a match list for the patterns.
type scratch struct {
	free    [][]piece
	matches []match
}

func (sc *scratch) get() []piece {
	if n := len(sc.free); n > 0 {
		b := sc.free[n-1]
		sc.free = sc.free[:n-1]
		return b[:0]
	}
	return nil
}

func (sc *scratch) put(b []piece) { sc.free = append(sc.free, b) }

// find runs pat on text into sc's match buffer.
func (sc *scratch) find(pat pattern, text string) []match {
	sc.matches = pat.find(text, sc.matches[:0])
	return sc.matches
}

// behavior is HF's SplitDelimiterBehavior: what happens to the matches of a split.
type behavior int

const (
	removed behavior = iota
	isolated
	mergedWithPrevious
	mergedWithNext
	contiguous
)

var behaviors = map[string]behavior{
	"Removed": removed, "Isolated": isolated, "MergedWithPrevious": mergedWithPrevious,
	"MergedWithNext": mergedWithNext, "Contiguous": contiguous,
}

// gpt2Pattern is the regex HF's ByteLevel pre-tokenizer splits with when use_regex is set.
const gpt2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

// buildPreTokenizer returns the pre-tokenizer cfg describes (nil for none) and whether it ends
// in ByteLevel, which makes the model see bytes.
func buildPreTokenizer(cfg obj, path string) (preTokenizer, bool, error) {
	if cfg == nil {
		return nil, false, nil
	}
	typ, err := cfg.typ(path)
	if err != nil {
		return nil, false, err
	}
	switch typ {
	case "Sequence":
		items, err := cfg.objects(path, "pretokenizers")
		if err != nil {
			return nil, false, err
		}
		var seq []preTokenizer
		byteLevel := false
		for i, item := range items {
			ip := indexPath(path+".pretokenizers", i)
			if byteLevel {
				return nil, false, unsupported(ip, "a pre-tokenizer after ByteLevel")
			}
			pt, bl, err := buildPreTokenizer(item, ip)
			if err != nil {
				return nil, false, err
			}
			byteLevel = bl
			if pt != nil {
				seq = append(seq, pt)
			}
		}
		return func(p piece, out []piece, sc *scratch) []piece {
			cur := append(sc.get(), p)
			for _, pt := range seq {
				next := sc.get()
				if want := max(len(cur), len(p.text)/4+1); cap(next) < want {
					// A piece of text splits into about one pre-token per four bytes.
					next = make([]piece, 0, want)
				}
				for _, c := range cur {
					next = pt(c, next, sc)
				}
				sc.put(cur)
				cur = next
			}
			out = append(out, cur...)
			sc.put(cur)
			return out
		}, byteLevel, nil
	case "ByteLevel":
		prefix, err := cfg.boolean(path, "add_prefix_space", true)
		if err != nil {
			return nil, false, err
		}
		useRegex, err := cfg.boolean(path, "use_regex", true)
		if err != nil {
			return nil, false, err
		}
		var re pattern
		if useRegex {
			if re, err = compileRegex(gpt2Pattern, path); err != nil {
				return nil, false, err
			}
		}
		return func(p piece, out []piece, sc *scratch) []piece {
			if prefix && (p.text == "" || p.text[0] != ' ') {
				p.prepend(" ")
			}
			if re == nil {
				return keep(p, out)
			}
			return split(p, sc.find(re, p.text), isolated, out)
		}, true, nil
	case "Split":
		pat, err := buildPattern(cfg, path)
		if err != nil {
			return nil, false, err
		}
		b, err := readBehavior(cfg, path)
		if err != nil {
			return nil, false, err
		}
		inv, err := cfg.boolean(path, "invert", false)
		if err != nil {
			return nil, false, err
		}
		return func(p piece, out []piece, sc *scratch) []piece {
			ms := sc.find(pat, p.text)
			if inv {
				for i := range ms {
					ms[i].match = !ms[i].match
				}
			}
			return split(p, ms, b, out)
		}, false, nil
	case "BertPreTokenizer":
		return func(p piece, out []piece, sc *scratch) []piece {
			var words []piece
			words = split(p, sc.find(runeClass(unicode.IsSpace), p.text), removed, words)
			for _, w := range words {
				out = split(w, sc.find(runeClass(isBertPunct), w.text), isolated, out)
			}
			return out
		}, false, nil
	case "Whitespace":
		return func(p piece, out []piece, sc *scratch) []piece {
			ms := wordsAndSymbols(p.text)
			return split(p, ms, removed, out)
		}, false, nil
	case "WhitespaceSplit":
		return func(p piece, out []piece, sc *scratch) []piece {
			return split(p, sc.find(runeClass(unicode.IsSpace), p.text), removed, out)
		}, false, nil
	case "Punctuation":
		b := isolated
		if _, ok := cfg["behavior"]; ok {
			if b, err = readBehavior(cfg, path); err != nil {
				return nil, false, err
			}
		}
		return func(p piece, out []piece, sc *scratch) []piece {
			return split(p, sc.find(runeClass(isBertPunct), p.text), b, out)
		}, false, nil
	case "Digits":
		each, err := cfg.boolean(path, "individual_digits", false)
		if err != nil {
			return nil, false, err
		}
		b := contiguous
		if each {
			b = isolated
		}
		return func(p piece, out []piece, sc *scratch) []piece {
			return split(p, sc.find(runeClass(unicode.IsNumber), p.text), b, out)
		}, false, nil
	case "CharDelimiterSplit":
		d, err := cfg.str(path, "delimiter")
		if err != nil {
			return nil, false, err
		}
		r, n := utf8.DecodeRuneInString(d)
		if n == 0 || n != len(d) {
			return nil, false, invalid(path, "delimiter %q is not one character", d)
		}
		return func(p piece, out []piece, sc *scratch) []piece {
			return split(p, sc.find(runeClass(func(c rune) bool { return c == r }), p.text), removed, out)
		}, false, nil
	case "Metaspace":
		return buildMetaspace(cfg, path)
	}
	return nil, false, unsupported(path, "pre-tokenizer type %q", typ)
}

func readBehavior(cfg obj, path string) (behavior, error) {
	name, err := cfg.str(path, "behavior")
	if err != nil {
		return 0, err
	}
	b, ok := behaviors[name]
	if !ok {
		return 0, unsupported(path, "split behavior %q", name)
	}
	return b, nil
}

// buildMetaspace is Metaspace: spaces become the replacement character, which is put in
// front as prepend_scheme says, and the text is cut before each replacement when split is set.
func buildMetaspace(cfg obj, path string) (preTokenizer, bool, error) {
	rep, err := cfg.str(path, "replacement")
	if err != nil {
		return nil, false, err
	}
	if utf8.RuneCountInString(rep) != 1 {
		return nil, false, invalid(path, "replacement %q is not one character", rep)
	}
	scheme, err := cfg.optStr(path, "prepend_scheme", "")
	if err != nil {
		return nil, false, err
	}
	if scheme == "" {
		// Files written before prepend_scheme existed say add_prefix_space.
		prefix, err := cfg.boolean(path, "add_prefix_space", true)
		if err != nil {
			return nil, false, err
		}
		scheme = "never"
		if prefix {
			scheme = "always"
		}
	}
	if scheme != "always" && scheme != "first" && scheme != "never" {
		return nil, false, unsupported(path, "prepend_scheme %q", scheme)
	}
	doSplit, err := cfg.boolean(path, "split", true)
	if err != nil {
		return nil, false, err
	}
	r, _ := utf8.DecodeRuneInString(rep)
	return func(p piece, out []piece, sc *scratch) []piece {
		p.replaceMatches(spaces(p.text), rep)
		if !hasPrefixRune(p.text, r) && (scheme == "always" || scheme == "first" && p.origStart == 0) {
			p.prepend(rep)
		}
		if !doSplit {
			return keep(p, out)
		}
		return split(p, sc.find(runeClass(func(c rune) bool { return c == r }), p.text), mergedWithNext, out)
	}, false, nil
}

func hasPrefixRune(s string, r rune) bool {
	c, n := utf8.DecodeRuneInString(s)
	return n > 0 && c == r
}

// spaces returns the byte ranges of the ' ' characters of s.
func spaces(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			out = append(out, [2]int{i, i + 1})
		}
	}
	return out
}

// keep appends p unless it is empty.
func keep(p piece, out []piece) []piece {
	if p.text == "" {
		return out
	}
	return append(out, p)
}

// split cuts p at the matches ms (covering p.text in order) as behavior b says, dropping
// empty pieces (HF's NormalizedString::split followed by PreTokenizedString::split).
func split(p piece, ms []match, b behavior, out []piece) []piece {
	type cut struct {
		start, end int
		remove     bool
	}
	switch b {
	case isolated, removed:
		for _, m := range ms {
			if (b == isolated || !m.match) && m.end > m.start {
				out = append(out, p.slice(m.start, m.end))
			}
		}
		return out
	}
	cuts := make([]cut, 0, len(ms))
	switch b {
	case contiguous:
		prev := false
		for _, m := range ms {
			if m.match == prev && len(cuts) > 0 {
				cuts[len(cuts)-1].end = m.end
			} else {
				cuts = append(cuts, cut{m.start, m.end, false})
			}
			prev = m.match
		}
	case mergedWithPrevious:
		prev := false
		for _, m := range ms {
			if m.match && !prev && len(cuts) > 0 {
				cuts[len(cuts)-1].end = m.end
			} else {
				cuts = append(cuts, cut{m.start, m.end, false})
			}
			prev = m.match
		}
	case mergedWithNext:
		prev := false
		for i := len(ms) - 1; i >= 0; i-- {
			m := ms[i]
			if m.match && !prev && len(cuts) > 0 {
				cuts[len(cuts)-1].start = m.start
			} else {
				cuts = append(cuts, cut{m.start, m.end, false})
			}
			prev = m.match
		}
		for i, j := 0, len(cuts)-1; i < j; i, j = i+1, j-1 {
			cuts[i], cuts[j] = cuts[j], cuts[i]
		}
	}
	for _, c := range cuts {
		if !c.remove && c.end > c.start {
			out = append(out, p.slice(c.start, c.end))
		}
	}
	return out
}

// isBertPunct is Rust's char::is_ascii_punctuation or Unicode punctuation (P*).
func isBertPunct(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '!' && r <= '/' || r >= ':' && r <= '@' || r >= '[' && r <= '`' || r >= '{' && r <= '~'
	}
	return unicode.IsPunct(r)
}

// isWordRune is the Unicode \w of Rust's regex crate: Alphabetic, marks, decimal digits,
// connector punctuation and the joiners.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Nl, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_Alphabetic, r) || r == 0x200C || r == 0x200D
}

// wordsAndSymbols cuts text into runs of \w, of white space and of the rest; the white-space
// runs are the matches, which the Whitespace pre-tokenizer removes, keeping \w+|[^\w\s]+.
func wordsAndSymbols(text string) []match {
	if text == "" {
		return []match{{0, 0, false}}
	}
	var out []match
	kind := func(r rune) int {
		switch {
		case isWordRune(r):
			return 1
		case unicode.IsSpace(r):
			return 0
		}
		return 2
	}
	start, cur := 0, -1
	for i, r := range text {
		k := kind(r)
		if k != cur {
			if i > start {
				out = append(out, match{start, i, cur == 0})
			}
			start, cur = i, k
		}
	}
	out = append(out, match{start, len(text), cur == 0})
	return out
}
