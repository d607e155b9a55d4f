package sentence

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbrevClass says when a period after a word ends a sentence.
type abbrevClass uint8

const (
	// notAbbrev: an ordinary word; the period ends the sentence unless the case rule says no.
	notAbbrev abbrevClass = iota
	// abbrevNever: a title or a word such as "e.g." that is always followed by more of its
	// sentence.
	abbrevNever
	// abbrevNumber: an abbreviation only before a number ("No. 5"); a word elsewhere ("No.").
	abbrevNumber
	// abbrevMaybe: an abbreviation that may also close a sentence ("etc.", "Inc.", "U.S."); the
	// period ends one only before a common sentence starter.
	abbrevMaybe
)

// maxBuiltinAbbrev is the length in bytes of the longest built-in abbreviation.
const maxBuiltinAbbrev = 6

// builtinClass returns the class of a built-in English abbreviation, given in lower case
// without its final period. A switch rather than a map keeps the list immutable.
func builtinClass(lower string) abbrevClass {
	switch lower {
	case "mr", "mrs", "ms", "mx", "messrs", "mme", "mlle", "dr", "prof", "rev", "hon",
		"gen", "col", "capt", "cmdr", "lt", "sgt", "cpl", "adm", "gov", "sen", "rep", "pres",
		"supt", "insp",
		"e.g", "i.e", "cf", "viz", "vs", "approx", "esp", "incl", "resp":
		return abbrevNever
	case "no", "nos", "nr", "art", "pp", "op", "tel", "ext":
		return abbrevNumber
	case "etc", "al", "inc", "ltd", "co", "corp", "llc", "plc", "bros", "jr", "sr",
		"st", "ave", "rd", "blvd", "mt", "ft", "dept", "univ", "assn", "est",
		"fig", "figs", "eq", "eqs", "vol", "vols", "ch", "chap", "sec", "sect", "ed", "eds",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec":
		return abbrevMaybe
	}
	return notAbbrev
}

// isStarter reports whether word commonly starts an English sentence. After an abbreviation
// that may also close a sentence, such a word is taken as the start of the next one.
func isStarter(word string) bool {
	switch word {
	case "A", "After", "All", "Also", "An", "And", "Another", "As", "At", "Because", "Before",
		"Being", "But", "By", "During", "Each", "Every", "For", "From", "He", "Her", "Here",
		"His", "How", "However", "I", "If", "In", "It", "Its", "Many", "Meanwhile", "More",
		"Most", "My", "Now", "On", "One", "Our", "She", "Since", "So", "Some", "That", "The",
		"Their", "Then", "There", "These", "They", "This", "Those", "Thus", "To", "We", "What",
		"When", "Where", "While", "Who", "Why", "With", "Yet", "You", "Your":
		return true
	}
	return false
}

// isInitialism reports whether tok is a dotted abbreviation such as "U.S", "a.m" or "Ph.D"
// (the final period already removed): two or more groups of one or two letters joined by
// periods.
func isInitialism(tok string) bool {
	if len(tok) > 16 {
		return false
	}
	groups, letters := 1, 0
	for _, r := range tok {
		switch {
		case r == '.':
			if letters == 0 {
				return false
			}
			groups, letters = groups+1, 0
		case unicode.IsLetter(r):
			letters++
			if letters > 2 {
				return false
			}
		default:
			return false
		}
	}
	return groups >= 2 && letters > 0
}

// isSingleLetter reports whether tok is one letter, such as an initial or "p".
func isSingleLetter(tok string) bool {
	r, size := utf8.DecodeRuneInString(tok)
	return size == len(tok) && size > 0 && unicode.IsLetter(r)
}

// isListMarker reports whether tok numbers a list item or a section: groups of one to three
// digits joined by periods ("1", "2.3"), or a Roman numeral of up to five letters I, V, X.
func isListMarker(tok string) bool {
	if tok == "" || len(tok) > 12 {
		return false
	}
	if strings.Trim(tok, "ivxIVX") == "" {
		return len(tok) <= 5
	}
	digits := 0
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case '0' <= c && c <= '9':
			digits++
			if digits > 3 {
				return false
			}
		case c == '.' && digits > 0:
			digits = 0
		default:
			return false
		}
	}
	return digits > 0
}

// trimToken strips opening punctuation from the front of tok and closing punctuation from its
// end: `("Mr` becomes `Mr`.
func trimToken(tok string) string {
	for tok != "" {
		r, size := utf8.DecodeRuneInString(tok)
		if !isOpener(r) {
			break
		}
		tok = tok[size:]
	}
	for tok != "" {
		r, size := utf8.DecodeLastRuneInString(tok)
		if !isCloser(r) {
			break
		}
		tok = tok[:len(tok)-size]
	}
	return tok
}

// normalizeAbbrev returns the form abbreviations are looked up in: lower case, without white
// space around it or a final period.
func normalizeAbbrev(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, ".")
	return strings.ToLower(s)
}
