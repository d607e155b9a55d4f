package sentence

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Both engines take time that grows with the square of the length of some runs of
// characters: neurosnap/sentences v1.1.2 rescans a whole run of white space at each of its
// characters (word_tokenizer.go: strings.TrimSpace(text[lastSpace:cursor])), and
// clipperhouse/uax29 v2.7.0 rescans the closing punctuation and spaces after a period at each
// of them ("One." followed by 20,000 spaces and "Two." takes 0.4 s). Before an engine sees a
// text, squeeze shortens every such run longer than maxRun bytes to a few characters that
// the engine treats the same way, and unsqueeze maps the engine's offsets back.

// maxRun is the longest run, in bytes, that an engine is given as is.
const maxRun = 16

// squeezedRun records a run text[o0:o1] that squeeze replaced by short[c0:c1].
type squeezedRun struct{ c0, c1, o0, o1 int }

// squeeze returns text with each run longer than maxRun bytes replaced by replace(run), and
// the replaced runs in order. run(s) is the length in bytes of the run s starts with, 0 if
// none. A text without such runs is returned as is, with no runs, without copying.
func squeeze(text string, run func(string) int, replace func(string) string) (string, []squeezedRun) {
	var b strings.Builder
	var runs []squeezedRun
	copied := 0 // text[copied:] is not yet in b
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf && !asciiRunStart(c) {
			i++ // the common case, kept cheap: an ASCII byte that starts no run
			continue
		}
		n := run(text[i:])
		if n <= maxRun {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += max(n, size)
			continue
		}
		if runs == nil {
			b.Grow(len(text))
		}
		b.WriteString(text[copied:i])
		c0 := b.Len()
		b.WriteString(replace(text[i : i+n]))
		runs = append(runs, squeezedRun{c0: c0, c1: b.Len(), o0: i, o1: i + n})
		i += n
		copied = i
	}
	if runs == nil {
		return text, nil
	}
	b.WriteString(text[copied:])
	return b.String(), runs
}

// asciiRunStart reports whether the ASCII byte c may start a run of spaceRun or classRun:
// white space, brackets and quotation marks. Every other ASCII byte starts none.
func asciiRunStart(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r', '(', ')', '[', ']', '{', '}', '"', '\'':
		return true
	}
	return false
}

// unsqueezeAll maps offsets in a squeezed text back to the text, in place.
func unsqueezeAll(runs []squeezedRun, offsets []int) []int {
	if len(runs) > 0 {
		for i, p := range offsets {
			offsets[i] = unsqueeze(runs, p)
		}
	}
	return offsets
}

// unsqueeze maps an offset in the squeezed text back to text: an offset inside a squeezed run
// maps to the end of the original run, where normalize would move it anyway.
func unsqueeze(runs []squeezedRun, p int) int {
	i, _ := slices.BinarySearchFunc(runs, p, func(r squeezedRun, p int) int { return cmp.Compare(r.c0, p) })
	// runs[:i] start before p; runs[i], if any, starts at or after p.
	if i < len(runs) && runs[i].c0 == p {
		return runs[i].o0
	}
	if i == 0 {
		return p
	}
	r := runs[i-1]
	if p < r.c1 {
		return r.o1
	}
	return r.o1 + (p - r.c1)
}

// spaceRun is the length of the run of white space s starts with.
func spaceRun(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !unicode.IsSpace(r) {
			break
		}
		n += size
	}
	return n
}

// punktSpace is what Punkt needs of a run of white space: its first rune (which ends the
// word before), its last rune, and up to two of the line feeds between them (Punkt notes a
// line start at one and a paragraph start at two).
func punktSpace(run string) string {
	_, first := utf8.DecodeRuneInString(run)
	_, last := utf8.DecodeLastRuneInString(run)
	newlines := min(2, strings.Count(run[first:len(run)-last], "\n"))
	return run[:first] + "\n\n"[:newlines] + run[len(run)-last:]
}

// classRun is the length of the run s starts with of runes of one UAX #29 class that the
// annex never breaks inside: white space other than line and paragraph separators (class
// Sp), or opening and closing punctuation and quotation marks (class Close). It is 0 if s
// starts with any other rune or with invalid UTF-8.
func classRun(s string) int {
	class := uaxClass(s)
	if class == 0 {
		return 0
	}
	n := 0
	for n < len(s) && uaxClass(s[n:]) == class {
		_, size := utf8.DecodeRuneInString(s[n:])
		n += size
	}
	return n
}

// uaxClass returns 1 if s starts with a rune of class Sp, 2 for class Close, 0 otherwise.
func uaxClass(s string) int {
	if s[0] < utf8.RuneSelf {
		switch s[0] {
		case ' ', '\t', '\v', '\f':
			return 1
		case '(', ')', '[', ']', '{', '}', '"', '\'':
			return 2
		}
		return 0
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError || r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029':
		return 0
	case unicode.IsSpace(r):
		return 1
	case unicode.In(r, unicode.Ps, unicode.Pe, unicode.Pi, unicode.Pf, unicode.Quotation_Mark):
		return 2
	}
	return 0
}

// uaxRepeat is what UAX #29 needs of a run of one class: three of its first rune. The
// annex's rules see such runs only as Sp* or Close*, so neither the length past one nor
// which runes of the class they hold changes any boundary.
func uaxRepeat(run string) string {
	_, size := utf8.DecodeRuneInString(run)
	return strings.Repeat(run[:size], 3)
}
