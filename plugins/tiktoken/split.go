package tiktoken

import (
	"unicode"
	"unicode/utf8"
)

// The Fast backend splits text into pieces with hand-written scanners, one per pattern of
// patterns.go, that find exactly the match a backtracking regex engine finds at each position
// (leftmost alternative first, greedy quantifiers), in time linear in the input. A regex
// engine is 5 to 10 times slower here, and tiktoken-go/tokenizer's generated one is wrong (see
// backend_fast.go). split_test.go checks every scanner against regexp2's interpreter running
// the pattern itself, on the golden inputs and under fuzzing.

// splitFunc returns the end of the piece that starts at byte offset at of text, which is valid
// UTF-8 and longer than at. The piece is never empty.
type splitFunc func(text string, at int) int

// splitter returns the scanner for encoding's pattern.
func splitter(encoding string) splitFunc {
	switch encoding {
	case "cl100k_base":
		return splitCl100k
	case "o200k_base":
		return splitO200k
	}
	return splitR50k
}

// Rune classes, as bits, of the character classes the patterns use.
const (
	classL     = 1 << iota // \p{L}
	classN                 // \p{N}
	classSpace             // \s, Unicode White_Space (what both Rust's regex and regexp2 use)
	classNL                // \r or \n
	classUpper             // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], o200k_base's "upper" letters
	classLower             // [\p{Ll}\p{Lm}\p{Lo}\p{M}], o200k_base's "lower" letters
)

// class returns the classes r belongs to.
func class(r rune) uint8 {
	if r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z':
			return classL | classLower
		case 'A' <= r && r <= 'Z':
			return classL | classUpper
		case '0' <= r && r <= '9':
			return classN
		case r == '\n' || r == '\r':
			return classSpace | classNL
		case r == ' ' || '\t' <= r && r <= '\f':
			return classSpace
		}
		return 0
	}
	var c uint8
	switch {
	case unicode.Is(unicode.Ll, r):
		c = classL | classLower
	case unicode.Is(unicode.Lu, r) || unicode.Is(unicode.Lt, r):
		c = classL | classUpper
	case unicode.IsLetter(r): // Lm, Lo
		c = classL | classUpper | classLower
	case unicode.IsMark(r):
		c = classUpper | classLower
	case unicode.IsNumber(r):
		c = classN
	case unicode.IsSpace(r):
		c = classSpace
	}
	return c
}

// isOther reports whether a rune of class c is in [^\s\p{L}\p{N}].
func isOther(c uint8) bool { return c&(classSpace|classL|classN) == 0 }

// isPrefix reports whether a rune of class c is in [^\r\n\p{L}\p{N}], the optional character
// before a word.
func isPrefix(c uint8) bool { return c&(classNL|classL|classN) == 0 }

// runeAt returns the rune at byte offset at (utf8.RuneError and 0 at the end) and its class.
func runeAt(text string, at int) (r rune, size int, c uint8) {
	if at >= len(text) {
		return utf8.RuneError, 0, 0
	}
	if b := text[at]; b < utf8.RuneSelf {
		return rune(b), 1, class(rune(b))
	}
	r, size = utf8.DecodeRuneInString(text[at:])
	return r, size, class(r)
}

// classAt returns the class of the rune at byte offset at and its size; 0, 0 at the end.
func classAt(text string, at int) (c uint8, size int) {
	_, size, c = runeAt(text, at)
	return c, size
}

// skip returns the end of the run of runes, from at, whose class has a bit of want.
func skip(text string, at int, want uint8) int {
	for at < len(text) {
		c, size := classAt(text, at)
		if c&want == 0 {
			break
		}
		at += size
	}
	return at
}

// skipOther returns the end of the run of [^\s\p{L}\p{N}] runes from at.
func skipOther(text string, at int) int {
	for at < len(text) {
		c, size := classAt(text, at)
		if !isOther(c) {
			break
		}
		at += size
	}
	return at
}

// contraction returns the length of the contraction 's, 't, 're, 've, 'm, 'll or 'd at at, or
// 0. With fold, letters match in either case, and 's also as 'ſ (U+017F), as Unicode simple
// case folding has it.
func contraction(text string, at int, fold bool) int {
	if at+1 >= len(text) || text[at] != '\'' {
		return 0
	}
	lower := func(b byte) byte {
		if fold && 'A' <= b && b <= 'Z' {
			return b + 'a' - 'A'
		}
		return b
	}
	switch lower(text[at+1]) {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if at+2 < len(text) && lower(text[at+2]) == 'e' {
			return 3
		}
	case 'l':
		if at+2 < len(text) && lower(text[at+2]) == 'l' {
			return 3
		}
	case 0xC5: // ſ is C5 BF
		if fold && at+2 < len(text) && text[at+2] == 0xBF {
			return 3
		}
	}
	return 0
}

// splitSpace matches the white-space alternatives the cl100k_base and o200k_base patterns end
// with, `\s*[\r\n]+|\s+(?!\S)|\s+`, at at, where there is a white-space rune: up to the last
// newline of the white-space run if it holds one; else the run without its last rune when the
// run is followed by other text and longer than one rune; else the whole run.
func splitSpace(text string, at int) int {
	end, lastNL, last := at, -1, at
	for end < len(text) {
		c, size := classAt(text, end)
		if c&classSpace == 0 {
			break
		}
		if c&classNL != 0 {
			lastNL = end
		}
		last = end
		end += size
	}
	switch {
	case lastNL >= 0:
		return lastNL + 1 // \r and \n are one byte
	case end == len(text) || last == at:
		return end
	}
	return last
}

// splitR50k matches `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`,
// the pattern of r50k_base and p50k_base.
func splitR50k(text string, at int) int {
	if n := contraction(text, at, false); n > 0 {
		return at + n
	}
	c0, _ := classAt(text, at)
	from, c := at, c0
	if text[at] == ' ' && at+1 < len(text) {
		from = at + 1
		c, _ = classAt(text, from)
	}
	// ` ?X+`: with the space if what follows it is X, else without it, where the space,
	// not being X itself, fails.
	for _, want := range [...]uint8{classL, classN} {
		if c&want != 0 && from > at {
			return skip(text, from, want)
		}
		if c0&want != 0 {
			return skip(text, at, want)
		}
	}
	if isOther(c) && from > at {
		return skipOther(text, from)
	}
	if isOther(c0) {
		return skipOther(text, at)
	}
	// White space: \s+(?!\S)|\s+.
	end, last := at, at
	for end < len(text) {
		c, size := classAt(text, end)
		if c&classSpace == 0 {
			break
		}
		last = end
		end += size
	}
	if end == len(text) || last == at {
		return end
	}
	return last
}

// splitCl100k matches `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`, the pattern of cl100k_base.
func splitCl100k(text string, at int) int {
	if n := contraction(text, at, true); n > 0 {
		return at + n
	}
	c0, size0 := classAt(text, at)
	if isPrefix(c0) {
		if c1, _ := classAt(text, at+size0); c1&classL != 0 {
			return skip(text, at+size0, classL)
		}
	}
	if c0&classL != 0 {
		return skip(text, at, classL)
	}
	if c0&classN != 0 {
		end := at
		for n := 0; n < 3 && end < len(text); n++ {
			c, size := classAt(text, end)
			if c&classN == 0 {
				break
			}
			end += size
		}
		return end
	}
	if end := otherRun(text, at, c0, "\r\n"); end > at {
		return end
	}
	return splitSpace(text, at)
}

// otherRun matches ` ?[^\s\p{L}\p{N}]+[TAIL]*` at at, where the rune has class c0, and returns
// its end, or at when it does not match; tail holds one-byte characters.
func otherRun(text string, at int, c0 uint8, tail string) int {
	from := at
	if text[at] == ' ' {
		if c1, _ := classAt(text, at+1); isOther(c1) && at+1 < len(text) {
			from = at + 1
		}
	}
	if from == at && !isOther(c0) {
		return at
	}
	end := skipOther(text, from)
	for end < len(text) && indexByte(tail, text[end]) {
		end++
	}
	return end
}

func indexByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

// splitO200k matches the pattern of o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
func splitO200k(text string, at int) int {
	c0, size0 := classAt(text, at)
	// Each word alternative first tries with the optional prefix rune, then without.
	starts := [2]int{at, -1}
	if isPrefix(c0) {
		starts = [2]int{at + size0, at}
	}
	for _, from := range starts {
		if from >= 0 {
			if end, ok := o200kUpperLower(text, from); ok {
				return withContraction(text, end)
			}
		}
	}
	for _, from := range starts {
		if from >= 0 {
			if c, _ := classAt(text, from); c&classUpper != 0 {
				end := skip(text, skip(text, from, classUpper), classLower)
				return withContraction(text, end)
			}
		}
	}
	if c0&classN != 0 {
		end := at
		for n := 0; n < 3 && end < len(text); n++ {
			c, size := classAt(text, end)
			if c&classN == 0 {
				break
			}
			end += size
		}
		return end
	}
	if end := otherRun(text, at, c0, "\r\n/"); end > at {
		return end
	}
	return splitSpace(text, at)
}

// o200kUpperLower matches `U*L+` at from (U and L the upper and lower classes) and returns its
// end and whether it matched. U* is greedy and gives runes back until L+ can start: the
// match ends after the longest run of L runes that starts at the end of the U run, or, failing
// that, at the last rune of the U run that is also L (Lm, Lo, M).
func o200kUpperLower(text string, from int) (end int, ok bool) {
	lastLower := -1 // end of the last rune of the U run that is also in L
	u := from
	for u < len(text) {
		c, size := classAt(text, u)
		if c&classUpper == 0 {
			break
		}
		u += size
		if c&classLower != 0 {
			lastLower = u
		}
	}
	if c, _ := classAt(text, u); c&classLower != 0 {
		return skip(text, u, classLower), true
	}
	return lastLower, lastLower > 0
}

// withContraction extends a word that ends at end by an optional contraction, matched in
// either case.
func withContraction(text string, end int) int {
	return end + contraction(text, end, true)
}
