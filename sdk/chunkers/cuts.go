package chunkers

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// blockStrong returns, ascending, the strong cuts of measured block i: its start, its line
// starts (after indentation, except in code) and its sentence starts, where an overlap prefers
// to start. They are made the first time they are asked for and kept.
func (l *layout) blockStrong(i int) []int {
	if l.strong[i] != nil || l.ends[i] == nil {
		return l.strong[i]
	}
	text := l.canon.Text
	start, end := trim(text, l.canon.Starts[i], l.blockEnd(i))
	strong := []int{start}
	code := l.doc.Blocks[i].Kind == sdk.KindCode
	for off := start; ; {
		nl := strings.IndexByte(text[off:end], '\n')
		if nl < 0 {
			break
		}
		off += nl + 1
		a := off
		if !code { // a code line starts with its indentation
			a, _ = trim(text, off, end)
		}
		strong = append(strong, a)
	}
	if i < len(l.sentEnds) {
		for _, e := range l.sentEnds[i] {
			if a, _ := trim(text, e, end); a > start && a < end {
				strong = append(strong, a)
			}
		}
	}
	slices.Sort(strong)
	l.strong[i] = slices.Compact(strong)
	return l.strong[i]
}

// blockCuts returns, ascending, the offsets c with a <= c < b inside measured block i where a
// chunk may start or end without breaking a word: its strong cuts and its UAX #29 word starts.
// Words are found from the last strong cut at or before a, which is a word boundary, so a
// document pays only for the text near where a chunk is cut or an overlap starts.
func (l *layout) blockCuts(i, a, b int) []int {
	strong := l.blockStrong(i)
	if len(strong) == 0 {
		return nil
	}
	text := l.canon.Text
	_, end := trim(text, l.canon.Starts[i], l.blockEnd(i))
	b = min(b, end)
	k, found := slices.BinarySearch(strong, a)
	if !found && k > 0 {
		k--
	}
	from := strong[k]
	var out []int
	if from >= a && from < b {
		out = append(out, from)
	}
	if from >= b {
		return out
	}
	next := k + 1
	var starts []int
	if p := l.wordStartNear(from, a); p >= 0 {
		for _, w := range wordbreak.Starts(text[p:b]) {
			starts = append(starts, p+w)
		}
		if p > from {
			starts = append([]int{p}, starts...)
		}
	} else {
		starts = l.blockWords(i, from, b) // a long stretch without spaces: segment the block once
	}
	for _, c := range starts {
		for next < len(strong) && strong[next] < c {
			if strong[next] >= a {
				out = append(out, strong[next])
			}
			next++
		}
		if c >= a && (len(out) == 0 || out[len(out)-1] < c) {
			out = append(out, c)
		}
	}
	for ; next < len(strong) && strong[next] < b; next++ {
		if strong[next] >= a && (len(out) == 0 || out[len(out)-1] < strong[next]) {
			out = append(out, strong[next])
		}
	}
	return out
}

// firstCut returns the first cut (a strong one, if strongOnly) in [s, end), or -1.
func (l *layout) firstCut(s, end int, strongOnly bool) int {
	for i := l.blockAt(s); i < len(l.doc.Blocks) && l.canon.Starts[i] < end; i++ {
		if strongOnly {
			strong := l.blockStrong(i)
			if k, _ := slices.BinarySearch(strong, s); k < len(strong) && strong[k] < end {
				return strong[k]
			}
			continue
		}
		if cuts := l.blockCuts(i, s, end); len(cuts) > 0 {
			return cuts[0]
		}
	}
	return -1
}

// cutsBetween returns the cuts strictly inside (a, b), ascending.
func (l *layout) cutsBetween(a, b int) []int {
	var out []int
	for i := l.blockAt(a); i < len(l.doc.Blocks) && l.canon.Starts[i] < b; i++ {
		out = append(out, l.blockCuts(i, a+1, b)...)
	}
	return out
}

// midCut returns the cut strictly inside (a, b) nearest the middle token boundary, or, when
// there is none (the range is one word), that token boundary, or -1 when there is neither.
func (l *layout) midCut(a, b int) int {
	m := l.midToken(a, b)
	cuts := l.cutsBetween(a, b)
	if len(cuts) == 0 {
		return m
	}
	if m < 0 {
		m = (a + b) / 2
	}
	k, _ := slices.BinarySearch(cuts, m)
	best := -1
	for _, j := range []int{k - 1, k} {
		if j >= 0 && j < len(cuts) && (best < 0 || abs(cuts[j]-m) < abs(best-m)) {
			best = cuts[j]
		}
	}
	return best
}

// nearWords is how far back from a cut blockCuts looks for a space to start segmenting words
// after, instead of at the last strong cut.
const nearWords = 256

// wordStartNear returns where to start finding the word starts at or after a: from, when it is
// within nearWords bytes of a; else the position after the last white space before a within
// nearWords bytes, when a letter, digit or punctuation mark follows it (a UAX #29 boundary);
// else -1.
func (l *layout) wordStartNear(from, a int) int {
	if a-from <= nearWords {
		return from
	}
	text := l.canon.Text
	for p := a; p > max(from, a-nearWords); {
		r, size := utf8.DecodeLastRuneInString(text[:p])
		if unicode.IsSpace(r) {
			next, _ := utf8.DecodeRuneInString(text[p:])
			if unicode.IsLetter(next) || unicode.IsDigit(next) || unicode.IsPunct(next) {
				return p
			}
		}
		p -= size
	}
	return -1
}

// blockWords returns the UAX #29 word starts of block i in [a, b), from all the block's word
// starts, found once and kept.
func (l *layout) blockWords(i, a, b int) []int {
	if l.words[i] == nil {
		text := l.canon.Text
		start, end := trim(text, l.canon.Starts[i], l.blockEnd(i))
		ws := []int{}
		for _, w := range wordbreak.Starts(text[start:end]) {
			ws = append(ws, start+w)
		}
		l.words[i] = ws
	}
	lo, _ := slices.BinarySearch(l.words[i], a)
	hi, _ := slices.BinarySearch(l.words[i], b)
	return l.words[i][lo:hi]
}
