package chunkers

import (
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// wholeWordEnds returns a sentence splitter's ends of text with every end that falls strictly
// inside a word (wordbreak.Words: a terminator and the combining mark on it, "U.S.|A") moved to
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
	if isASCIISpace(text[e-1]) && text[e] < utf8.RuneSelf && !isASCIISpace(text[e]) {
		return e // after a space, before an ASCII character: a boundary, the common case
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
	for _, w := range wordbreak.Words(text[p:q]) {
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

func isASCIISpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}
