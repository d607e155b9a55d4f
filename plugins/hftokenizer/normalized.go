package hftokenizer

import (
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/internal/utf8x"
)

// span is a range of bytes of the caller's original text.
type span struct{ start, end int32 }

// piece is HF tokenizers' NormalizedString with every alignment absolute: a text that
// normalizers and pre-tokenizers rewrite and cut, and, for each of its bytes, the range of the
// original text that byte came from. A byte of an original character aligns to the whole
// character; every byte of a character a normalizer wrote aligns to the character it replaced
// (or, for an inserted one, to the byte before it), exactly as HF aligns them, so a token's
// offsets in the original are align[first].start and align[last].end.
type piece struct {
	text  string
	align []span
	// origStart is where the piece starts in the original text; HF's offsets_original().0,
	// which Metaspace's "first" prepend scheme asks about.
	origStart int32
	// id is the added token this piece is, or -1.
	id int32
}

// newPiece returns the whole original text as one piece. Invalid UTF-8 becomes U+FFFD, one
// per maximal invalid subsequence (what Python's and the WHATWG decoders do, and so what HF
// sees from them), aligned to the invalid bytes it stands for.
func newPiece(text string) piece {
	p := piece{id: -1, align: make([]span, 0, len(text))}
	if utf8.ValidString(text) {
		p.text = text
		for i, r := range text {
			n := utf8.RuneLen(r)
			for range n {
				p.align = append(p.align, span{int32(i), int32(i + n)})
			}
		}
		return p
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && n <= 1 {
			n = utf8x.MaximalSubpart(text[i:])
		}
		b.WriteRune(r)
		for range utf8.RuneLen(r) {
			p.align = append(p.align, span{int32(i), int32(i + n)})
		}
		i += n
	}
	p.text = b.String()
	return p
}

// slice returns the bytes [from, to) of p as a piece of their own.
func (p *piece) slice(from, to int) piece {
	s := piece{text: p.text[from:to], align: p.align[from:to:to], id: -1, origStart: p.origStart}
	if from < to {
		s.origStart = p.align[from].start
	} else if from < len(p.align) {
		s.origStart = p.align[from].start
	}
	return s
}

// orig returns the original range of p's bytes [from, to), to > from.
func (p *piece) orig(from, to int) span {
	return span{p.align[from].start, p.align[to-1].end}
}

// edit is one character of a transformation's output and its change, as in HF's
// NormalizedString::transform: 0 replaces the next input character, 1 inserts a character,
// -n replaces the next input character and removes the n after it.
type edit struct {
	r      rune
	change int
}

// transformRange rewrites the bytes [from, to) of p as dest says, after skipping (removing)
// the first skip characters of that range, aligning each new character the way HF does.
func (p *piece) transformRange(from, to int, dest []edit, skip int) {
	rest := p.text[from:to]
	off := from
	next := func() {
		if rest == "" {
			return
		}
		_, n := utf8.DecodeRuneInString(rest)
		rest, off = rest[n:], off+n
	}
	for range skip {
		next()
	}
	var b strings.Builder
	b.Grow(to - from)
	align := make([]span, 0, to-from)
	for _, d := range dest {
		var a span
		switch {
		case d.change > 0 && off < 1:
			a = span{p.origStart, p.origStart}
		case d.change > 0:
			a = p.align[off-1]
		case off < len(p.align):
			a = p.align[off]
		default:
			a = p.align[len(p.align)-1]
		}
		if d.change <= 0 {
			next()
		}
		for range -d.change {
			next()
		}
		b.WriteRune(d.r)
		for range utf8.RuneLen(d.r) {
			align = append(align, a)
		}
	}
	p.text = p.text[:from] + b.String() + p.text[to:]
	na := make([]span, 0, from+len(align)+len(p.align)-to)
	na = append(na, p.align[:from]...)
	na = append(na, align...)
	p.align = append(na, p.align[to:]...)
}

// transform rewrites all of p.
func (p *piece) transform(dest []edit, skip int) { p.transformRange(0, len(p.text), dest, skip) }

// mapRunes replaces every character by f's, one for one (HF's NormalizedString::map).
func (p *piece) mapRunes(f func(rune) rune) {
	first := -1
	for i, r := range p.text {
		if f(r) != r {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	var b strings.Builder
	b.Grow(len(p.text))
	align := make([]span, 0, len(p.align))
	for i, r := range p.text {
		m := f(r)
		b.WriteRune(m)
		for range utf8.RuneLen(m) {
			align = append(align, p.align[i])
		}
	}
	p.text, p.align = b.String(), align
}

// filter keeps the characters keep accepts (HF's NormalizedString::filter): a removed character
// leaves no alignment behind.
func (p *piece) filter(keep func(rune) bool) {
	all := true
	for _, r := range p.text {
		if !keep(r) {
			all = false
			break
		}
	}
	if all {
		return
	}
	var b strings.Builder
	align := make([]span, 0, len(p.align))
	for i, r := range p.text {
		if keep(r) {
			b.WriteRune(r)
			n := utf8.RuneLen(r)
			align = append(align, p.align[i:i+n]...)
		}
	}
	p.text, p.align = b.String(), align
}

// prepend puts s before p's text, aligned to p's first character; nothing for an empty p.
func (p *piece) prepend(s string) {
	if p.text == "" {
		return
	}
	first, n := utf8.DecodeRuneInString(p.text)
	dest := make([]edit, 0, 4)
	i := 0
	for _, r := range s {
		dest = append(dest, edit{r, min(i, 1)})
		i++
	}
	dest = append(dest, edit{first, 1})
	p.transformRange(0, n, dest, 0)
}

// replaceMatches replaces each [start, end) in matches (sorted, disjoint) by content: its
// characters align to the last byte of what they replace (HF's NormalizedString::replace).
func (p *piece) replaceMatches(matches [][2]int, content string) {
	if len(matches) == 0 {
		return
	}
	var b strings.Builder
	align := make([]span, 0, len(p.align))
	last := 0
	for _, m := range matches {
		b.WriteString(p.text[last:m[0]])
		align = append(align, p.align[last:m[0]]...)
		a := p.align[m[1]-1]
		if m[1] == m[0] {
			if m[0] > 0 {
				a = p.align[m[0]-1]
			} else {
				a = span{p.origStart, p.origStart}
			}
		}
		for _, r := range content {
			b.WriteRune(r)
			for range utf8.RuneLen(r) {
				align = append(align, a)
			}
		}
		last = m[1]
	}
	b.WriteString(p.text[last:])
	align = append(align, p.align[last:]...)
	p.text, p.align = b.String(), align
}

// lowercase lower-cases p character by character the way Rust's char::to_lowercase does:
// U+0130 becomes "i̇", every other character its simple lower case.
func (p *piece) lowercase() {
	if !strings.ContainsRune(p.text, 'İ') {
		// One character for one: HF's transform with no change aligns each new character to
		// the one it replaces, which is what mapRunes does.
		p.mapRunes(toLower)
		return
	}
	dest := make([]edit, 0, len(p.text))
	changed := false
	for _, r := range p.text {
		if r == 'İ' {
			dest = append(dest, edit{'i', 0}, edit{'\u0307', 1})
			changed = true
			continue
		}
		l := toLower(r)
		changed = changed || l != r
		dest = append(dest, edit{l, 0})
	}
	if changed {
		p.transform(dest, 0)
	}
}
