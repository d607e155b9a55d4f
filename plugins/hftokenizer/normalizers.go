package hftokenizer

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normalizer rewrites a piece in place.
type normalizer func(p *piece)

// buildNormalizer returns the normalizer cfg describes; nil cfg means none. path names cfg in
// errors ("normalizer.normalizers[2]").
func buildNormalizer(cfg obj, path string) (normalizer, error) {
	if cfg == nil {
		return nil, nil
	}
	typ, err := cfg.typ(path)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "Sequence":
		items, err := cfg.objects(path, "normalizers")
		if err != nil {
			return nil, err
		}
		var seq []normalizer
		for i, item := range items {
			n, err := buildNormalizer(item, indexPath(path+".normalizers", i))
			if err != nil {
				return nil, err
			}
			if n != nil {
				seq = append(seq, n)
			}
		}
		return func(p *piece) {
			for _, n := range seq {
				n(p)
			}
		}, nil
	case "NFD":
		return unicodeForm(norm.NFD), nil
	case "NFC":
		return unicodeForm(norm.NFC), nil
	case "NFKD":
		return unicodeForm(norm.NFKD), nil
	case "NFKC":
		return unicodeForm(norm.NFKC), nil
	case "Lowercase":
		return (*piece).lowercase, nil
	case "StripAccents":
		// HF's StripAccents drops every combining mark (Mn, Mc, Me); BertNormalizer's accent
		// stripping below drops only the non-spacing ones (Mn).
		return func(p *piece) { p.filter(func(r rune) bool { return !unicode.IsMark(r) }) }, nil
	case "Strip":
		left, err := cfg.boolean(path, "strip_left", false)
		if err != nil {
			return nil, err
		}
		right, err := cfg.boolean(path, "strip_right", false)
		if err != nil {
			return nil, err
		}
		return func(p *piece) { p.strip(left, right) }, nil
	case "Prepend":
		s, err := cfg.str(path, "prepend")
		if err != nil {
			return nil, err
		}
		return func(p *piece) { p.prepend(s) }, nil
	case "Replace":
		pat, err := buildPattern(cfg, path)
		if err != nil {
			return nil, err
		}
		content, err := cfg.str(path, "content")
		if err != nil {
			return nil, err
		}
		return func(p *piece) {
			var ms [][2]int
			for _, m := range pat.find(p.text, nil) {
				if m.match {
					ms = append(ms, [2]int{m.start, m.end})
				}
			}
			p.replaceMatches(ms, content)
		}, nil
	case "BertNormalizer":
		return buildBert(cfg, path)
	case "Precompiled":
		c, err := buildPrecompiled(cfg, path)
		if err != nil {
			return nil, err
		}
		return c.normalize, nil
	}
	return nil, unsupported(path, "normalizer type %q", typ)
}

// buildBert is BertNormalizer: clean text, space out CJK ideographs, strip accents (NFD first;
// strip_accents null follows lowercase), lowercase.
func buildBert(cfg obj, path string) (normalizer, error) {
	clean, err := cfg.boolean(path, "clean_text", true)
	if err != nil {
		return nil, err
	}
	chinese, err := cfg.boolean(path, "handle_chinese_chars", true)
	if err != nil {
		return nil, err
	}
	lower, err := cfg.boolean(path, "lowercase", true)
	if err != nil {
		return nil, err
	}
	strip, err := cfg.boolean(path, "strip_accents", lower)
	if err != nil {
		return nil, err
	}
	nfd := unicodeForm(norm.NFD)
	return func(p *piece) {
		if clean {
			p.filter(func(r rune) bool { return !(r == 0 || r == 0xFFFD || isControl(r)) })
			p.mapRunes(func(r rune) rune {
				if r != ' ' && isWhitespace(r) {
					return ' '
				}
				return r
			})
		}
		if chinese {
			p.spaceChinese()
		}
		if strip {
			nfd(p)
			p.filter(func(r rune) bool { return !unicode.Is(unicode.Mn, r) })
		}
		if lower {
			p.lowercase()
		}
	}, nil
}

// unicodeForm normalizes a piece to form f, aligning the result the way HF's
// unicode-normalization-alignments crate does: every character is decomposed (the first
// character of a decomposition replaces it, the others are inserted), runs of combining marks
// are put in canonical order carrying their changes with them, and, for the composed forms,
// each mark a starter absorbs is removed through the starter's change. Characters are then
// aligned by position, as HF's transform aligns them.
func unicodeForm(f norm.Form) normalizer {
	decomp, compose := norm.NFD, false
	switch f {
	case norm.NFC:
		compose = true
	case norm.NFKC:
		decomp, compose = norm.NFKD, true
	case norm.NFKD:
		decomp = norm.NFKD
	}
	return func(p *piece) {
		if f.IsNormalString(p.text) {
			return
		}
		items := make([]normItem, 0, len(p.text))
		for _, r := range p.text {
			d := decomp.String(string(r))
			first := true
			for _, c := range d {
				ch := 1
				if first {
					ch, first = 0, false
				}
				items = append(items, normItem{c, ch, ccc(c)})
			}
		}
		reorder(items)
		if compose {
			items = recompose(items)
		}
		dest := make([]edit, len(items))
		for i, it := range items {
			dest[i] = edit{it.r, it.change}
		}
		p.transform(dest, 0)
	}
}

// normItem is a character on its way through normalization, with its change and its
// canonical combining class.
type normItem struct {
	r      rune
	change int
	ccc    uint8
}

func ccc(r rune) uint8 { return norm.NFD.PropertiesString(string(r)).CCC() }

// reorder sorts each run of non-starters by combining class, stably.
func reorder(items []normItem) {
	for i := 0; i < len(items); {
		if items[i].ccc == 0 {
			i++
			continue
		}
		j := i
		for j < len(items) && items[j].ccc != 0 {
			j++
		}
		run := items[i:j]
		for a := 1; a < len(run); a++ {
			for b := a; b > 0 && run[b-1].ccc > run[b].ccc; b-- {
				run[b-1], run[b] = run[b], run[b-1]
			}
		}
		i = j
	}
}

// recompose is the canonical composition algorithm (UAX #15): a character not blocked from
// the last starter that has a primary composite with it is absorbed into the starter.
func recompose(items []normItem) []normItem {
	out := items[:0:0]
	starter := -1 // index in out of the last starter
	lastCCC := -1 // class of the last character kept after the starter; -1: none
	for _, it := range items {
		if starter >= 0 && (lastCCC == -1 || lastCCC != 0 && lastCCC < int(it.ccc)) {
			if c, ok := composite(out[starter].r, it.r); ok {
				out[starter].r = c
				out[starter].change += it.change - 1
				continue
			}
		}
		out = append(out, it)
		if it.ccc == 0 {
			starter, lastCCC = len(out)-1, -1
		} else {
			lastCCC = int(it.ccc)
		}
	}
	return out
}

// composite returns the primary composite of starter and c, if there is one.
func composite(starter, c rune) (rune, bool) {
	s := norm.NFC.String(string([]rune{starter, c}))
	r, n := utf8.DecodeRuneInString(s)
	if n == len(s) && r != starter {
		return r, true
	}
	return 0, false
}

// strip removes white space at either end.
func (p *piece) strip(left, right bool) {
	from, to := 0, len(p.text)
	if left {
		for from < to {
			r, n := utf8.DecodeRuneInString(p.text[from:])
			if !unicode.IsSpace(r) {
				break
			}
			from += n
		}
	}
	if right {
		for to > from {
			r, n := utf8.DecodeLastRuneInString(p.text[from:to])
			if !unicode.IsSpace(r) {
				break
			}
			to -= n
		}
	}
	if from > 0 || to < len(p.text) {
		origStart := p.origStart
		*p = p.slice(from, to)
		if from == to {
			p.origStart = origStart
		}
	}
}

// spaceChinese surrounds every CJK ideograph with spaces aligned to it.
func (p *piece) spaceChinese() {
	found := false
	for _, r := range p.text {
		if isChinese(r) {
			found = true
			break
		}
	}
	if !found {
		return
	}
	dest := make([]edit, 0, len(p.text)+8)
	for _, r := range p.text {
		if isChinese(r) {
			dest = append(dest, edit{' ', 0}, edit{r, 1}, edit{' ', 1})
		} else {
			dest = append(dest, edit{r, 0})
		}
	}
	p.transform(dest, 0)
}

// isChinese is BERT's "CJK Unified Ideographs" test.
func isChinese(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF || r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F || r >= 0x2B740 && r <= 0x2B81F || r >= 0x2B920 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}

// isWhitespace is BERT's: tab, newline, carriage return and Unicode White_Space.
func isWhitespace(r rune) bool { return unicode.IsSpace(r) }

// isControl is BERT's: general category C (unassigned included), except tab, newline and CR.
func isControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	}
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7F
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) || !assigned(r)
}

// assigned reports whether r has a general category other than Cn.
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// toLower is Rust's char::to_lowercase for every character but U+0130 (see lowercase).
func toLower(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}
