package pretok

import (
	"unicode"
	"unicode/utf8"
)

// Rune classes, as bits, of the character classes the patterns use.
const (
	classL     = 1 << iota // \p{L}
	classN                 // \p{N}
	classSpace             // \s, Unicode White_Space (what Rust's regex, Oniguruma and regexp2 use)
	classNL                // \r or \n
	classUpper             // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], O200kPattern's "upper" letters
	classLower             // [\p{Ll}\p{Lm}\p{Lo}\p{M}], O200kPattern's "lower" letters
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

// classAt returns the class of the rune at byte offset at and its size; 0, 0 at the end.
func classAt(text string, at int) (c uint8, size int) {
	if at >= len(text) {
		return 0, 0
	}
	if b := text[at]; b < utf8.RuneSelf {
		return bmpBlocks[b], 1 // block 0 is ASCII's
	}
	r, size := utf8.DecodeRuneInString(text[at:])
	return runeClass(r), size
}

// skip returns the end of the run of runes, from at, whose class has a bit of want.
func skip(text string, at int, want uint8) int {
	for at < len(text) {
		if b := text[at]; b < utf8.RuneSelf {
			if bmpBlocks[b]&want == 0 {
				break
			}
			at++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[at:])
		if runeClass(r)&want == 0 {
			break
		}
		at += size
	}
	return at
}

// skipN returns the end of the run of at most limit runes, from at, whose class has a bit of
// want.
func skipN(text string, at int, want uint8, limit int) int {
	for n := 0; n < limit && at < len(text); n++ {
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
		if b := text[at]; b < utf8.RuneSelf {
			if !isOther(bmpBlocks[b]) {
				break
			}
			at++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[at:])
		if !isOther(runeClass(r)) {
			break
		}
		at += size
	}
	return at
}

// runeClass returns class(r), from the generated table for the Basic Multilingual Plane.
func runeClass(r rune) uint8 {
	if r < 0x10000 {
		return bmpBlocks[int(bmpIndex[r>>8])<<8|int(r&0xFF)]
	}
	return class(r)
}
