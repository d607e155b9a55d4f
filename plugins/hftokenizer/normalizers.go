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
		return func(p *piece) { p.filter(func(r rune) bool { return !unicode.Is(unicode.Mn, r) }) }, nil
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
			for _, m := range pat.find(p.text) {
				if m.match {
					ms = append(ms, [2]int{m.start, m.end})
				}
			}
			p.replaceMatches(ms, content)
		}, nil
	case "BertNormalizer":
		return buildBert(cfg, path)
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
				if isWhitespace(r) {
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

// unicodeForm normalizes a piece to form f. Each normalization segment (a starter and the
// marks after it) is rewritten as a whole: the output's first characters replace the input's
// one for one, extra ones are inserted, and when there are fewer the last one absorbs the rest.
func unicodeForm(f norm.Form) normalizer {
	return func(p *piece) {
		if f.IsNormalString(p.text) {
			return
		}
		dest := make([]edit, 0, len(p.text))
		for s := p.text; s != ""; {
			n := f.NextBoundaryInString(s, true)
			if n <= 0 {
				n = len(s)
			}
			seg := s[:n]
			s = s[n:]
			out := f.String(seg)
			if out == seg {
				for _, r := range seg {
					dest = append(dest, edit{r, 0})
				}
				continue
			}
			in := utf8.RuneCountInString(seg)
			outRunes := []rune(out)
			if len(outRunes) >= in {
				for j, r := range outRunes {
					dest = append(dest, edit{r, min(max(j-in+1, 0), 1)})
				}
				continue
			}
			for j, r := range outRunes {
				if j == len(outRunes)-1 {
					dest = append(dest, edit{r, -(in - len(outRunes))})
				} else {
					dest = append(dest, edit{r, 0})
				}
			}
		}
		p.transform(dest, 0)
	}
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
