package chunkers

import (
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// wholeWordEnds returns a sentence splitter's ends of text with every end that falls strictly
// inside a word (wordbreak.Whole: a terminator and the combining mark on it, "U.S.|A", and the
// segments that are one character to a reader: an emoji ZWJ sequence, a flag, CR LF) moved to
// the end of that word, or dropped when that word runs to the end of text or past what is
// looked at. A sentence start is a strong cut, and a chunk never ends inside a word that fits:
// the in-process splitters follow UAX #29 and never end a sentence there, but a plugin's may
// (a model's, a punkt one's). ends is not modified: changed reports whether out is a new
// slice, else it is ends.
func wholeWordEnds(text string, ends []int) (out []int, changed bool) {
	for k, e := range ends {
		f := wordEnd(text, e)
		if !changed {
			if f == e {
				continue
			}
			out, changed = append(make([]int, 0, len(ends)), ends[:k]...), true
		}
		if f < 0 || (len(out) > 0 && f <= out[len(out)-1]) {
			continue // dropped, or moved onto the next end
		}
		out = append(out, f)
	}
	if !changed {
		return ends, false
	}
	return out, true
}

// wordEnd returns e when it is not strictly inside a word of text, else the end of that word
// when it is known and before the end of text, else -1. Only the text around e, up to
// nearWords bytes each side, is segmented: from the start of the run of ASCII white space
// before e (a word boundary: UAX #29 breaks before a space after anything but a space) to the
// first ASCII white space after it.
func wordEnd(text string, e int) int {
	if e <= 0 || e >= len(text) {
		return e
	}
	if breaksWords(text, e) {
		return e // the common case, found without segmenting
	}
	p, found := e-1, false
	for ; p > max(0, e-nearWords); p-- {
		if isASCIISpace(text[p]) {
			found = true
			break
		}
	}
	if found {
		for p > 0 && isASCIISpace(text[p-1]) {
			p--
		}
	} else {
		for p > 0 && !utf8.RuneStart(text[p]) {
			p--
		}
	}
	// q: the first ASCII space after e, else len(text), else nearWords on, where a word may be
	// cut short (cut).
	q, cut := len(text), false
	for k := e + 1; k < len(text); k++ {
		if isASCIISpace(text[k]) {
			q = k
			break
		}
		if k >= e+nearWords && utf8.RuneStart(text[k]) {
			q, cut = k, true
			break
		}
	}
	for _, w := range wordbreak.Whole(text[p:q]) {
		if w.Start+p >= e {
			break
		}
		if w.End+p > e {
			if end := w.End + p; end < len(text) && !(cut && end == q) {
				return end
			}
			return -1
		}
	}
	return e
}

// breaksWords reports whether e (0 < e < len(text)) is surely a UAX #29 word boundary, from
// the runes either side of it alone: nearly every sentence end is one, and segmenting the text
// around each costs the chunkers most of their time on CJK text. e is one when the rune after
// it opens a word (startsWord) and the one before it is an ASCII white space, or a CJK
// terminator or closing bracket (closesCJK). The only rules that keep a rune after a space in
// the word before it are WB4 (Extend, Format, ZWJ) and WB3d (two spaces), and the runes of
// closesCJK are of the class Other, after which no rule but WB4 keeps the next rune in the
// same word. TestBreaksWords checks both against the segmenter, rune by rune.
func breaksWords(text string, e int) bool {
	if c := text[e]; c < utf8.RuneSelf {
		if isASCIISpace(c) {
			return false
		}
	} else if r, _ := utf8.DecodeRuneInString(text[e:]); !startsWord(r) {
		return false
	}
	if c := text[e-1]; c < utf8.RuneSelf {
		return isASCIISpace(c)
	}
	r, _ := utf8.DecodeLastRuneInString(text[:e])
	return closesCJK(r)
}

// startsWord reports whether r, a non-ASCII rune, is a letter, a number or a punctuation mark
// that is not of UAX #29's Extend or Format (the halfwidth katakana sound marks are letters
// that are) and is no space.
func startsWord(r rune) bool {
	if r == '\uFF9E' || r == '\uFF9F' {
		return false
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsPunct(r)
}

// closesCJK reports whether r is an ideographic or fullwidth terminator, comma or closing
// bracket of class Other in UAX #29's word breaking (not the fullwidth comma, colon, semicolon
// or full stop, which are MidNum or MidLetter).
func closesCJK(r rune) bool {
	switch r {
	case '。', '、', '！', '？', '」', '』', '）', '］', '｝', '】', '〉', '》', '〕', '〗', '〙', '〛', '｡', '､', '｣':
		return true
	}
	return false
}

func isASCIISpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}
