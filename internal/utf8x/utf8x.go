// Package utf8x holds the two UTF-8 rules the token counters share for invalid input: how
// much of it one U+FFFD stands for, and where a boundary may fall.
package utf8x

import "unicode/utf8"

// MaximalSubpart returns the length of the maximal invalid subsequence at the start of s,
// where s does not start with a valid UTF-8 sequence: the longest prefix of a well-formed
// sequence (Unicode Table 3-7), or 1.
func MaximalSubpart(s string) int {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := s[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(s); i++ {
		c := s[i]
		if i == 1 && (c < lo || c > hi) || i > 1 && (c < 0x80 || c > 0xBF) {
			break
		}
	}
	return i
}

// SnapUp returns the first offset at or after b where text may be cut: the end of the text
// or a byte that is not a UTF-8 continuation byte. On valid UTF-8 these are exactly the rune
// boundaries; in invalid UTF-8 an invalid byte counts as a rune of its own, except that stray
// continuation bytes stay with the rune before them, as sdk.CheckBoundaries requires.
func SnapUp(text string, b int) int {
	for b < len(text) && !utf8.RuneStart(text[b]) {
		b++
	}
	return b
}
