package ocr

import (
	"slices"
	"strings"
	"unicode"
)

// Font size from word boxes. A word's box reaches from the top of its tallest letter to the
// bottom of its lowest, so "Heading" and "onion" in the same font have boxes of different
// heights. wordSize divides a word's height by the part of the em its letters span, in the
// proportions of DejaVu Sans (close to most sans and serif faces): ascenders 0.76 em, capitals
// and digits 0.73, x-height 0.55, descenders 0.21. That makes sizes comparable between lines.
// The sizes are in pixels per em up to one common factor, which cancels in every ratio analyze
// takes.
const (
	emAscender   = 0.76 // b d f h k l t, the dots of i and j, lower-case accents
	emCap        = 0.73 // capitals and digits
	emCapAccent  = 0.92 // capitals with accents: Ä É Ñ
	emXHeight    = 0.55 // a c e m n o r s u v w x z
	emDescender  = 0.21 // g j p q y
	emComma      = 0.13 // , ; and the tails of brackets
	emIdeograph  = 0.88 // letters of uncased scripts fill most of the em
	emIdeoBottom = 0.12
)

// wordSize estimates the font size of a word from its box height, or returns 0 when the word
// has no letter or digit to go by.
func wordSize(w word) float64 {
	top, bottom := 0.0, 0.0
	for _, r := range w.text {
		t, b := glyphExtent(r)
		top, bottom = max(top, t), max(bottom, b)
	}
	if top == 0 || w.box.height() <= 0 {
		return 0
	}
	return float64(w.box.height()) / (top + bottom)
}

// glyphExtent returns how far above and below the baseline a rune reaches, in ems; 0, 0 for
// runes that say nothing about the font size, such as most punctuation.
func glyphExtent(r rune) (top, bottom float64) {
	switch {
	case r < 0x80:
		switch {
		case strings.ContainsRune("gpqy", r):
			return emXHeight, emDescender
		case r == 'j':
			return emAscender, emDescender
		case strings.ContainsRune("bdfhiklt", r):
			return emAscender, 0
		case r == 'Q':
			return emCap, emComma
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return emCap, 0
		case r >= 'a' && r <= 'z':
			return emXHeight, 0
		case strings.ContainsRune("()[]{}|", r):
			return emAscender, emComma
		case r == ',' || r == ';':
			return 0, emComma
		}
		return 0, 0
	case r == 'ß':
		return emAscender, 0
	case r == 'ç' || r == 'ş' || r == 'ţ':
		return emAscender, emComma
	case unicode.IsUpper(r):
		if strings.ContainsRune("ÀÁÂÃÄÅÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝŒŠŽŸ", r) {
			return emCapAccent, 0
		}
		return emCap, 0
	case unicode.IsLower(r):
		// Lower-case letters beyond ASCII are mostly accented, which reaches ascender height.
		return emAscender, 0
	case unicode.IsLetter(r):
		return emIdeograph, emIdeoBottom
	case unicode.IsDigit(r):
		return emCap, 0
	}
	return 0, 0
}

// lineSize estimates a line's font size as the median of its words' sizes, or returns the
// line's height when no word has a size.
func lineSize(words []word) float64 {
	var sizes []float64
	var b box
	for _, w := range words {
		if s := wordSize(w); s > 0 {
			sizes = append(sizes, s)
		}
		b = b.union(w.box)
	}
	if len(sizes) == 0 {
		return float64(b.height())
	}
	return median(sizes)
}

// median returns the median of xs, the mean of the middle two for an even count, 0 for none.
// It sorts xs.
func median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	slices.Sort(xs)
	if n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[n/2]
}
