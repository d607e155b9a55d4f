package pretok

import "unicode/utf8"

// R50k is the scanner of R50kPattern:
// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`.
func R50k(text string, at int) int {
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

// Cl100k is the scanner of Cl100kPattern: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|
// [^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
func Cl100k(text string, at int) int {
	if n := contraction(text, at, true); n > 0 {
		return at + n
	}
	if end, ok := asciiWord(text, at, false); ok {
		return end
	}
	if end, ok := asciiOther(text, at, "\r\n"); ok {
		return end
	}
	if end, ok := asciiSpaceOrDigits(text, at); ok {
		return end
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
		return skipN(text, at, classN, 3)
	}
	if end := otherRun(text, at, c0, "\r\n"); end > at {
		return end
	}
	return splitSpace(text, at)
}

// Qwen is the scanner of QwenPattern, Cl100kPattern with `\p{N}` in place of `\p{N}{1,3}`.
// The two differ only where a piece starts with a digit: no alternative before the digits
// can start with one, so there both match the digit alternative, and elsewhere it plays no
// part. Qwen takes one digit there and leaves the rest to Cl100k, rather than both calling
// one function that takes the length of the digit run: that costs Cl100k, and so tiktoken,
// a second call per piece.
func Qwen(text string, at int) int {
	if c, size := classAt(text, at); c&classN != 0 {
		return at + size
	}
	return Cl100k(text, at)
}

// O200k is the scanner of O200kPattern:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
func O200k(text string, at int) int {
	if end, ok := asciiWord(text, at, true); ok {
		return withContraction(text, end)
	}
	if end, ok := asciiOther(text, at, "\r\n/"); ok {
		return end
	}
	if end, ok := asciiSpaceOrDigits(text, at); ok {
		return end
	}
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
		return skipN(text, at, classN, 3)
	}
	if end := otherRun(text, at, c0, "\r\n/"); end > at {
		return end
	}
	return splitSpace(text, at)
}

// asciiWord is the fast path of the word alternatives for ASCII text: an optional prefix
// character ([^\r\n\p{L}\p{N}]) and a run of ASCII letters, followed by an ASCII byte or
// the end (a non-ASCII rune could be a letter or mark that continues the word). With cased,
// the run is O200kPattern's: upper-case letters, then lower-case ones, where it matches the
// first word alternative (U*L+) if any lower-case letter follows the upper-case run and the
// second (U+L*) otherwise. It reports false where it does not apply; the caller then takes
// the general path, which finds the same match there.
func asciiWord(text string, at int, cased bool) (end int, ok bool) {
	b := text[at]
	if b >= utf8.RuneSelf {
		return 0, false
	}
	from := at
	if bmpBlocks[b]&classL == 0 {
		if !isPrefix(bmpBlocks[b]) {
			return 0, false
		}
		from = at + 1
	}
	if cased {
		end = casedRun(text, from)
	} else {
		end = lettersRun(text, from)
	}
	if end == from || end < len(text) && text[end] >= utf8.RuneSelf {
		return 0, false
	}
	return end, true
}

// asciiOther is the fast path of ` ?[^\s\p{L}\p{N}]+[TAIL]*` where the run starts with an
// ASCII character that is neither white space, letter nor digit, at at or after a space at
// at, and where no word alternative can match first: when the run starts at at, the next
// byte is ASCII and not a letter (so at is no word's prefix character). It reports false
// where it does not apply; the caller then takes the general path. (The contraction of
// Cl100kPattern, which also starts with such a character, is tried before.)
func asciiOther(text string, at int, tail string) (end int, ok bool) {
	from := at
	if text[at] == ' ' {
		from = at + 1
	}
	if from >= len(text) {
		return 0, false
	}
	if b := text[from]; b >= utf8.RuneSelf || !isOther(bmpBlocks[b]) {
		return 0, false
	}
	if from == at && at+1 < len(text) {
		if b := text[at+1]; b >= utf8.RuneSelf || bmpBlocks[b]&classL != 0 {
			return 0, false
		}
	}
	end = skipOther(text, from)
	for end < len(text) && containsByte(tail, text[end]) {
		end++
	}
	return end, true
}

// asciiSpaceOrDigits is the fast path of Cl100kPattern's and O200kPattern's white-space and
// digit alternatives where no alternative before them can match: at a line break (never a
// word's prefix), at ASCII white space followed by more or by the end (a prefix with no word
// after it), and at an ASCII digit (neither a prefix nor a letter), where \p{N}{1,3} takes up
// to three digits. It reports false where it does not apply; the caller then takes the
// general path, which finds the same match there. (The contraction of Cl100kPattern starts
// with an apostrophe.)
func asciiSpaceOrDigits(text string, at int) (end int, ok bool) {
	switch b := text[at]; {
	case b == '\n' || b == '\r':
		return splitSpace(text, at), true
	case '0' <= b && b <= '9':
		return skipN(text, at, classN, 3), true
	case b < utf8.RuneSelf && bmpBlocks[b]&classSpace != 0:
		if at+1 == len(text) || text[at+1] < utf8.RuneSelf && bmpBlocks[text[at+1]]&classSpace != 0 {
			return splitSpace(text, at), true
		}
	}
	return 0, false
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

// splitSpace matches the white-space alternatives Cl100kPattern, QwenPattern and
// O200kPattern end with, `\s*[\r\n]+|\s+(?!\S)|\s+`, at at, where there is a white-space
// rune: up to the last newline of the white-space run if it holds one; else the run without
// its last rune when the run is followed by other text and longer than one rune; else the
// whole run.
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
	for end < len(text) && containsByte(tail, text[end]) {
		end++
	}
	return end
}

// containsByte reports whether s holds b.
func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
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
