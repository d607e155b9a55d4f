package sentence

import (
	"unicode"
	"unicode/utf8"
)

// termKind says how a terminator rune ends a sentence.
type termKind uint8

const (
	termNone     termKind = iota
	termPeriod            // '.': subject to abbreviation, number and case rules
	termEllipsis          // '…': ends a sentence only before an uppercase letter
	termStrong            // '!', '?' and relatives: end a sentence unless a lowercase word follows
	termCJK               // '。', '！', ...: end a sentence with or without following space
)

// terminator returns the kind of r, or termNone if r does not end sentences.
// The full-width period U+FF0E is a decimal point between digits: the caller checks that.
func terminator(r rune) termKind {
	switch r {
	case '.':
		return termPeriod
	case '…', '⋯':
		return termEllipsis
	case '!', '?', '‼', '‽', '⁇', '⁈', '⁉',
		'\u037E', // Greek question mark
		'؟', '۔', // Arabic question mark, Urdu full stop
		'।', '॥', // Devanagari danda and double danda
		'։',      // Armenian full stop
		'።', '፧': // Ethiopic full stop and question mark
		return termStrong
	case '。', '｡', '！', '？', '．', '︒', '﹒', '﹗', '﹖':
		return termCJK
	}
	return termNone
}

// isCloser reports whether r closes a quotation or bracket and so stays with the sentence
// whose terminator it follows.
func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '*', '_',
		'”', '’', '»', '›', '〞', '〟',
		'」', '』', '）', '］', '｝', '】', '〉', '》', '〕', '〗', '〙', '〛', '＂', '＇', '｣':
		return true
	}
	return false
}

// isExtend reports whether r extends the rune before it, so that no sentence ends between
// them: a combining mark (accents, variation selectors), a format character (zero-width
// joiners, directional marks) or an emoji skin-tone modifier. That is UAX #29's Extend and
// Format, and the zero-width space besides (a Cf that the annex counts as Other), which stays
// with the sentence before it as a space does.
func isExtend(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Cf) || (r >= 0x1F3FB && r <= 0x1F3FF)
}

// isOpener reports whether r may open a quotation or bracket at the start of a sentence; such
// runes are skipped to find the sentence's first letter.
func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '(', '[', '{', '*', '_', '¿', '¡',
		'“', '‘', '„', '‚', '«', '‹', '»', '›',
		'「', '『', '（', '［', '｛', '【', '〈', '《', '〔', '〖', '〘', '〚', '〝', '＂', '＇', '｢':
		return true
	}
	return false
}

// lineBreaks returns how many line breaks r stands for: a form feed and a paragraph separator
// count as two, so that each ends a paragraph on its own.
func lineBreaks(r rune) int {
	switch r {
	case '\n', '\v', '\u0085', '\u2028':
		return 1
	case '\f', '\u2029':
		return 2
	}
	return 0
}

// spaceRun returns the end of the run of white space that starts at i and how many line breaks
// it holds; "\r\n" counts as one line break, a lone "\r" as one.
func spaceRun(text string, i int) (end, breaks int) {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			switch c {
			case ' ', '\t':
			case '\r':
				if i+1 >= len(text) || text[i+1] != '\n' {
					breaks++
				}
			case '\n', '\v', '\f':
				breaks += lineBreaks(rune(c))
			default:
				return i, breaks
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			return i, breaks
		}
		breaks += lineBreaks(r)
		i += size
	}
	return i, breaks
}

// isSpaceAt reports whether a white-space rune starts at text[i].
func isSpaceAt(text string, i int) bool {
	c := text[i]
	if c < utf8.RuneSelf {
		return c == ' ' || ('\t' <= c && c <= '\r')
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsSpace(r)
}

// isDigitAt reports whether a decimal digit (ASCII or not) starts at text[i].
func isDigitAt(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsDigit(r)
}
