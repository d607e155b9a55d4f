package hftokenizer

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// addedToken is one entry of "added_tokens".
type addedToken struct {
	id                         int32
	content                    string
	singleWord, lstrip, rstrip bool
	normalized, special        bool
}

// matcher finds added tokens in a text leftmost-longest, as HF's Aho-Corasick set does.
type matcher struct {
	// byFirst lists, for each first byte, the patterns that start with it, longest first.
	byFirst [256][]int
	pats    []string
	toks    []*addedToken
}

func newMatcher(toks []*addedToken, pats []string) *matcher {
	m := &matcher{pats: pats, toks: toks}
	for i, p := range pats {
		if p == "" {
			continue
		}
		m.byFirst[p[0]] = append(m.byFirst[p[0]], i)
	}
	for b := range m.byFirst {
		l := m.byFirst[b]
		sort.SliceStable(l, func(i, j int) bool { return len(pats[l[i]]) > len(pats[l[j]]) })
	}
	return m
}

func (m *matcher) empty() bool { return m == nil || len(m.pats) == 0 }

// split cuts p at the added tokens it holds (HF's AddedVocabulary::find_matches and
// split_with_indices), appending the pieces, tokens marked with their id, to out.
func (m *matcher) split(p piece, out []piece) []piece {
	if m.empty() || p.text == "" {
		return keep(p, out)
	}
	text := p.text
	startOffset := 0
	for i := 0; i < len(text); {
		k := m.longestAt(text, i)
		if k < 0 {
			i++
			continue
		}
		t := m.toks[k]
		start, stop := i, i+len(m.pats[k])
		if t.singleWord && (start > 0 && endsWithWord(text[:start]) || stop < len(text) && startsWithWord(text[stop:])) {
			i = stop // HF's search goes on after the discarded match
			continue
		}
		if t.lstrip {
			start = max(leftmostSpaceAtEnd(text[:start]), startOffset)
		}
		if t.rstrip {
			stop += rightmostSpaceAtStart(text[stop:])
		}
		if startOffset < start {
			out = append(out, p.slice(startOffset, start))
		}
		tp := p.slice(start, stop)
		tp.id = t.id
		out = append(out, tp)
		startOffset = stop
		i = max(stop, i+len(m.pats[k]))
	}
	if startOffset < len(text) {
		out = append(out, p.slice(startOffset, len(text)))
	}
	return out
}

// longestAt returns the longest pattern that starts at text[i], or -1.
func (m *matcher) longestAt(text string, i int) int {
	for _, k := range m.byFirst[text[i]] {
		if strings.HasPrefix(text[i:], m.pats[k]) {
			return k
		}
	}
	return -1
}

// endsWithWord and startsWithWord are HF's \w$ and ^\w (Rust regex, Unicode \w).
func endsWithWord(s string) bool {
	r, n := utf8.DecodeLastRuneInString(s)
	return n > 0 && isWordRune(r)
}

func startsWithWord(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && isWordRune(r)
}

// leftmostSpaceAtEnd is where the white space at the end of s starts.
func leftmostSpaceAtEnd(s string) int {
	i := len(s)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.IsSpace(r) {
			break
		}
		i -= n
	}
	return i
}

// rightmostSpaceAtStart is how many bytes of white space s starts with.
func rightmostSpaceAtStart(s string) int {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}
