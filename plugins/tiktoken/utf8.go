package tiktoken

import (
	"unicode/utf8"
)

// Invalid UTF-8 is counted the way OpenAI's tiktoken counts the string that a standard UTF-8
// decoder makes of those bytes: Python's bytes.decode(errors="replace") and the WHATWG
// TextDecoder both replace each maximal invalid subsequence (Unicode §3.9, "U+FFFD
// substitution of maximal subparts") with one U+FFFD. Both backends see that repaired text, so
// they agree with each other and with tiktoken; boundaries are then mapped back to the bytes
// the caller gave.

// repair is a text made valid UTF-8 and the way back from its offsets to the original's.
type repair struct {
	// text is the original with every maximal invalid subsequence replaced by U+FFFD.
	text string
	// segs cover text in order; a segment either copies original bytes or is one U+FFFD that
	// stands for an invalid subsequence.
	segs []segment
}

// segment is a stretch of repaired text starting at repaired offset from, which came from
// the original bytes [origFrom, origTo).
type segment struct {
	from, origFrom, origTo int
	replaced               bool
}

// repairUTF8 returns the repaired form of text, which must not be valid UTF-8.
func repairUTF8(text string) repair {
	var r repair
	buf := make([]byte, 0, len(text)+16)
	copyFrom := 0
	flush := func(to int) {
		if to > copyFrom {
			r.segs = append(r.segs, segment{from: len(buf), origFrom: copyFrom, origTo: to})
			buf = append(buf, text[copyFrom:to]...)
		}
	}
	for i := 0; i < len(text); {
		c, size := utf8.DecodeRuneInString(text[i:])
		if c != utf8.RuneError || size > 1 {
			i += size
			continue
		}
		flush(i)
		n := maximalSubpart(text[i:])
		r.segs = append(r.segs, segment{from: len(buf), origFrom: i, origTo: i + n, replaced: true})
		buf = utf8.AppendRune(buf, utf8.RuneError)
		i += n
		copyFrom = i
	}
	flush(len(text))
	r.text = string(buf)
	return r
}

// maximalSubpart returns the length of the maximal invalid subsequence at the start of s,
// where s does not start with a valid UTF-8 sequence: the longest prefix of a well-formed
// sequence (Unicode Table 3-7), or 1.
func maximalSubpart(s string) int {
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

// snapUp returns the first offset at or after b where text may be cut: the end of the text
// or a byte that is not a UTF-8 continuation byte. On valid UTF-8 these are exactly the rune
// boundaries; in invalid UTF-8 an invalid byte counts as a rune of its own, except that stray
// continuation bytes stay with the rune before them, as sdk.CheckBoundaries requires.
func snapUp(text string, b int) int {
	for b < len(text) && !utf8.RuneStart(text[b]) {
		b++
	}
	return b
}

// ends turns token byte lengths, measured on the text the backend saw, into boundaries on
// text: cumulative, snapped up to cut points, the last equal to len(text). It overwrites and
// returns lens; ok is false when the lengths do not add up to the length of the text the
// backend saw. r is nil when text was valid UTF-8 and the backend saw it unchanged.
func ends(text string, r *repair, lens []int) (bounds []int, ok bool) {
	seen := len(text)
	if r != nil {
		seen = len(r.text)
	}
	end, seg := 0, 0
	for i, n := range lens {
		end += n
		b := end
		if r != nil {
			// Find the segment holding the token's last byte, end-1.
			for seg+1 < len(r.segs) && r.segs[seg+1].from < end {
				seg++
			}
			if s := r.segs[seg]; s.replaced {
				// A token that ends inside or at the end of a U+FFFD ends after the invalid
				// bytes that U+FFFD stands for.
				b = s.origTo
			} else {
				b = s.origFrom + end - s.from
			}
		}
		lens[i] = snapUp(text, b)
	}
	return lens, end == seen
}
