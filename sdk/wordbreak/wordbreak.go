// Package wordbreak finds words by the Unicode word boundaries of UAX #29, so that chunkers cut
// between words in every script, CJK included, and tests can check that they did. It wraps
// github.com/clipperhouse/uax29/v2/words, a segmenter with no dependencies of its own.
package wordbreak

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/words"
)

// Span is a word's byte range [Start, End) in a text.
type Span struct{ Start, End int }

// Words returns the byte ranges of the words of s in order: the UAX #29 word segments that
// hold a letter, a digit or a mark (so "fs.access", "ERR_X" and "40006" are one word each, a
// run of Katakana is one word, and each Han ideograph or Hiragana letter is one). Spaces and
// punctuation are not words.
func Words(s string) []Span { return segments(s, isWord) }

// Segments returns the byte ranges of all the UAX #29 word segments of s, in order: words,
// spaces, punctuation and symbols alike. Every offset between two of them is a boundary where
// a cut splits nothing that Whole keeps.
func Segments(s string) []Span { return segments(s, nil) }

// Whole returns the byte ranges of the UAX #29 word segments of s that a cut must leave whole:
// its words (as Words returns them), and every other segment of more than one rune that is not
// a run of horizontal white space (WB3d): an emoji ZWJ sequence, a flag's two regional
// indicators, CR LF, a symbol with the marks or variation selector on it. A cut between two
// such segments splits no character a reader sees as one.
func Whole(s string) []Span {
	return segments(s, func(seg string) bool {
		return isWord(seg) || (utf8.RuneCountInString(seg) > 1 && !isHorizontalSpace(seg))
	})
}

// segments returns the byte ranges of the UAX #29 word segments of s that keep takes, or of
// all of them when keep is nil.
func segments(s string, keep func(seg string) bool) []Span {
	var out []Span
	it := words.FromString(s)
	for it.Next() {
		if keep == nil || keep(it.Value()) {
			out = append(out, Span{it.Start(), it.End()})
		}
	}
	return out
}

// isHorizontalSpace reports whether seg is white space with no line break in it.
func isHorizontalSpace(seg string) bool {
	for _, r := range seg {
		if !unicode.IsSpace(r) || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == '\u0085' || r == '\u2028' || r == '\u2029' {
			return false
		}
	}
	return true
}

// Starts returns, in ascending order, every offset in (0, len(s)) where a cut leaves each word
// of s whole and punctuation with the word before it: the start of each word, and the end of
// each run of white space. Offset 0 is not included.
func Starts(s string) []int {
	var out []int
	prevSpace := false
	it := words.FromString(s)
	for it.Next() {
		v := it.Value()
		if st := it.Start(); st > 0 && (isWord(v) || prevSpace) {
			out = append(out, st)
		}
		r, _ := utf8.DecodeLastRuneInString(v)
		prevSpace = unicode.IsSpace(r)
	}
	return out
}

func isWord(seg string) bool {
	for _, r := range seg {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			return true
		}
	}
	return false
}

// Index answers, for one text, which of the segments that Whole returns an offset falls inside.
type Index struct {
	words []Span
}

// NewIndex segments s once for Inside.
func NewIndex(s string) *Index { return &Index{words: Whole(s)} }

// Inside returns the word, or other segment a cut must leave whole (Whole), that holds off
// strictly inside it (Start < off < End), if any: a cut at off would break it.
func (x *Index) Inside(off int) (Span, bool) {
	i, _ := slices.BinarySearchFunc(x.words, off, func(w Span, off int) int {
		switch {
		case w.End <= off:
			return -1
		case w.Start >= off:
			return 1
		}
		return 0
	})
	if i < len(x.words) && x.words[i].Start < off && off < x.words[i].End {
		return x.words[i], true
	}
	return Span{}, false
}
