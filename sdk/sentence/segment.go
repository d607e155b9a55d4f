package sentence

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Look-ahead limits keep the work per candidate boundary constant, and so the scan linear.
const (
	maxOpeners   = 4  // opening quotes and brackets skipped before the next sentence's first letter
	maxWordBytes = 16 // longer than any sentence starter
)

// rules holds what one Split call needs besides the built-in tables. Its zero value applies
// the built-in rules only.
type rules struct {
	extra    map[string]struct{} // user abbreviations, normalised by normalizeAbbrev
	extraMax int                 // length in bytes of the longest key in extra
}

func newRules(abbreviations []string) rules {
	var r rules
	for _, a := range abbreviations {
		a = normalizeAbbrev(a)
		if a == "" {
			continue
		}
		if r.extra == nil {
			r.extra = make(map[string]struct{}, len(abbreviations))
		}
		r.extra[a] = struct{}{}
		r.extraMax = max(r.extraMax, len(a))
	}
	return r
}

// scanner is the state of one pass over one text.
type scanner struct {
	rules     *rules
	text      string
	ends      []int
	content   bool // the current sentence holds a non-space rune
	wordStart int  // where the current run of non-space runes starts
	lineStart bool // that run starts a line
}

// ends returns the sentence end offsets of text; see the package documentation for the rules.
func (r *rules) ends(text string) []int {
	s := scanner{rules: r, text: text, lineStart: true}
	n := len(text)
	for i := 0; i < n; {
		c := text[i]
		if c < utf8.RuneSelf {
			switch c {
			case ' ', '\t', '\n', '\v', '\f', '\r':
				i = s.space(i)
			case '.', '!', '?':
				i = s.terminator(i)
			default:
				s.content = true
				i++
			}
			continue
		}
		rn, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(rn):
			i = s.space(i)
		case s.terminatorAt(i, rn) != termNone:
			i = s.terminator(i)
		default:
			s.content = true
			i += size
		}
	}
	if s.content {
		s.ends = append(s.ends, n)
	} else if len(s.ends) > 0 {
		// Unreachable by construction (a boundary is always followed by a non-space rune),
		// kept so that the last offset is len(text) whatever the rules above become.
		s.ends[len(s.ends)-1] = n
	}
	return s.ends
}

// terminatorAt returns the kind of the terminator rn that starts at text[i], treating a
// full-width or small period between digits as a decimal point.
func (s *scanner) terminatorAt(i int, rn rune) termKind {
	k := terminator(rn)
	if k == termCJK && (rn == '．' || rn == '﹒') {
		prev, _ := utf8.DecodeLastRuneInString(s.text[:i])
		if unicode.IsDigit(prev) && isDigitAt(s.text, i+utf8.RuneLen(rn)) {
			return termNone
		}
	}
	return k
}

// space consumes the run of white space at i and returns its end. A blank line ends the
// sentence.
func (s *scanner) space(i int) int {
	end, breaks := spaceRun(s.text, i)
	if breaks >= 2 {
		s.boundary(end)
	}
	s.wordStart, s.lineStart = end, breaks > 0
	return end
}

// boundary ends the current sentence at end, unless it holds no non-space rune, end is the end
// of the text (the final boundary is added once, at the end) or end is not a rune start.
func (s *scanner) boundary(end int) {
	if !s.content || end >= len(s.text) || !utf8.RuneStart(s.text[end]) {
		return
	}
	s.ends = append(s.ends, end)
	s.content = false
}

// terminator consumes the terminators and closing punctuation that start at i, decides whether
// they end the sentence, and returns where scanning continues.
func (s *scanner) terminator(i int) int {
	text := s.text
	s.content = true
	var (
		kind       termKind
		j          = i
		prevPeriod bool
		closers    bool
	)
scan:
	for j < len(text) {
		rn, size := utf8.DecodeRuneInString(text[j:])
		k := s.terminatorAt(j, rn)
		switch {
		case k == termPeriod && prevPeriod:
			k = termEllipsis
		case k == termNone && isCloser(rn):
			closers = true
			prevPeriod = false
			j += size
			continue
		case k == termNone && isExtend(rn):
			// A combining mark, a variation selector or a joiner belongs to the rune before it
			// (UAX #29's rule SB5): a sentence never ends between them.
			j += size
			continue
		case k == termNone:
			break scan
		}
		kind = max(kind, k)
		prevPeriod = rn == '.'
		j += size
	}
	if kind == termCJK {
		end, breaks := spaceRun(text, j)
		if !(closers && end == j && strings.HasPrefix(text[j:], "と")) {
			s.boundary(end)
		}
		s.wordStart, s.lineStart = end, breaks > 0
		return end
	}
	if j >= len(text) || !isSpaceAt(text, j) {
		// "3.14", "example.com/a.b", "end.)x": part of a word, not a boundary.
		return j
	}
	end, breaks := spaceRun(text, j)
	if breaks >= 2 || s.endsSentence(kind, text[s.wordStart:i], end) {
		s.boundary(end)
	}
	s.wordStart, s.lineStart = end, breaks > 0
	return end
}

// endsSentence decides whether terminators of the given kind, after the word tok and followed by white
// space up to next, end the sentence.
func (s *scanner) endsSentence(kind termKind, tok string, next int) bool {
	first, word := lookahead(s.text, next)
	if unicode.IsLower(first) {
		return false
	}
	switch kind {
	case termStrong:
		return true
	case termEllipsis:
		return unicode.IsUpper(first)
	}
	tok = trimToken(tok)
	if tok == "" {
		// A period standing alone, as in ". . .": an ellipsis.
		return unicode.IsUpper(first)
	}
	if s.lineStart && isListMarker(tok) {
		return false
	}
	switch s.rules.class(tok) {
	case abbrevNever:
		return false
	case abbrevNumber:
		return !unicode.IsDigit(first)
	case abbrevMaybe:
		return isStarter(word)
	}
	return true
}

// lookahead returns the first rune of the sentence that may start at i, after up to maxOpeners
// opening quotes and brackets, and the word of letters it begins ("" if longer than
// maxWordBytes). first is utf8.RuneError at the end of the text.
func lookahead(text string, i int) (first rune, word string) {
	for n := 0; i < len(text); n++ {
		r, size := utf8.DecodeRuneInString(text[i:])
		if n >= maxOpeners || !isOpener(r) {
			first = r
			break
		}
		i += size
	}
	if i >= len(text) {
		return utf8.RuneError, ""
	}
	j := i
	for j < len(text) && j-i <= maxWordBytes {
		r, size := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsLetter(r) {
			break
		}
		j += size
	}
	if j-i > maxWordBytes {
		return first, ""
	}
	return first, text[i:j]
}

// class returns the abbreviation class of tok, a word without its final period and without
// surrounding quotes or brackets.
func (r *rules) class(tok string) abbrevClass {
	if len(tok) <= max(maxBuiltinAbbrev, r.extraMax) {
		var buf [32]byte
		lower, ok := asciiLower(buf[:0], tok)
		if r.extra != nil {
			key := string(lower)
			if !ok {
				key = strings.ToLower(tok)
			}
			if _, found := r.extra[key]; found {
				return abbrevNever
			}
		}
		if ok && len(lower) <= maxBuiltinAbbrev {
			if c := builtinClass(string(lower)); c != notAbbrev {
				return c
			}
		}
	}
	if isSingleLetter(tok) || isInitialism(tok) {
		return abbrevMaybe
	}
	return notAbbrev
}

// asciiLower appends tok in lower case to dst and reports whether tok was ASCII and fit in
// dst's capacity; the result is meaningful only then.
func asciiLower(dst []byte, tok string) ([]byte, bool) {
	if len(tok) > cap(dst) {
		return dst, false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= utf8.RuneSelf {
			return dst, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst, true
}
