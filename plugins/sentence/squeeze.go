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

// repeatRun is the length of the run of one repeated rune s starts with, if that rune is
// one UAX #29 never breaks inside a run of: white space other than line and paragraph
// separators (class Sp), or opening and closing punctuation and quotation marks (class
// Close). It is 0 for any other rune and for invalid UTF-8.
func repeatRun(s string) int {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !uaxSqueezable(r) {
		return 0
	}
	n := size
	for n < len(s) {
		next, nsize := utf8.DecodeRuneInString(s[n:])
		if next != r {
			break
		}
		n += nsize
	}
	return n
}

// uaxSqueezable reports whether r is of UAX #29 class Sp or Close.
func uaxSqueezable(r rune) bool {
	switch r {
	case '\n', '\r', '\u0085', '\u2028', '\u2029':
		return false
	}
	return unicode.IsSpace(r) || unicode.In(r, unicode.Ps, unicode.Pe, unicode.Pi, unicode.Pf, unicode.Quotation_Mark)
}

// uaxRepeat is what UAX #29 needs of a run of one repeated rune: three of it. Its rules see
// such runs only as Sp* or Close*, so the length past one does not change any boundary.
func uaxRepeat(run string) string {
	_, size := utf8.DecodeRuneInString(run)
	return strings.Repeat(run[:size], 3)
}
