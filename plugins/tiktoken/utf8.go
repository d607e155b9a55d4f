package tiktoken

import (
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/internal/utf8x"
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
		n := utf8x.MaximalSubpart(text[i:])
		r.segs = append(r.segs, segment{from: len(buf), origFrom: i, origTo: i + n, replaced: true})
		buf = utf8.AppendRune(buf, utf8.RuneError)
		i += n
		copyFrom = i
	}
	flush(len(text))
	r.text = string(buf)
	return r
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
		lens[i] = utf8x.SnapUp(text, b)
	}
	return lens, end == seen
}
