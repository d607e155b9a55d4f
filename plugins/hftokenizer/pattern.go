package hftokenizer

import (
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"

	"github.com/chunkkit/chunkkit/internal/pretok"
)

// match is one stretch of a text as a pattern cuts it: a match or the text between two.
type match struct {
	start, end int
	match      bool
}

// pattern is what Split, Replace and the punctuation and whitespace pre-tokenizers look for.
// find covers the whole text with matches and gaps, in order, as HF's Pattern::find_matches
// does (an empty text is one empty gap), appending them to buf.
type pattern interface {
	find(text string, buf []match) []match
}

// buildPattern reads cfg["pattern"]: {"String": s} or {"Regex": r}.
func buildPattern(cfg obj, path string) (pattern, error) {
	p, err := asObj(cfg["pattern"], path+".pattern")
	if err != nil {
		return nil, err
	}
	if s, ok := p["String"].(string); ok {
		return literal(s), nil
	}
	if r, ok := p["Regex"].(string); ok {
		return compileRegex(r, path+".pattern.Regex")
	}
	return nil, invalid(path+".pattern", "want {\"String\": ...} or {\"Regex\": ...}")
}

// literal matches a string, non-overlapping, left to right.
type literal string

func (l literal) find(text string, out []match) []match {
	if text == "" || l == "" {
		return append(out, match{0, len(text), false})
	}
	prev := 0
	for i := 0; ; {
		j := strings.Index(text[i:], string(l))
		if j < 0 {
			break
		}
		s := i + j
		if s > prev {
			out = append(out, match{prev, s, false})
		}
		out = append(out, match{s, s + len(l), true})
		i = s + len(l)
		prev = i
	}
	if prev < len(text) {
		out = append(out, match{prev, len(text), false})
	}
	return out
}

// spaceRuns matches every maximal run of at least n ' ' characters: the regex " {n,}".
type spaceRuns int

func (n spaceRuns) find(text string, out []match) []match {
	prev := 0
	for i := 0; i < len(text); {
		if text[i] != ' ' {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] == ' ' {
			j++
		}
		if j-i >= int(n) {
			if i > prev {
				out = append(out, match{prev, i, false})
			}
			out = append(out, match{i, j, true})
			prev = j
		}
		i = j
	}
	if prev < len(text) || len(text) == 0 {
		out = append(out, match{prev, len(text), false})
	}
	return out
}

// runeClass matches single characters for which the function is true.
type runeClass func(rune) bool

func (f runeClass) find(text string, out []match) []match {
	if text == "" {
		return append(out, match{0, 0, false})
	}
	gap := -1
	for i, r := range text {
		if f(r) {
			if gap >= 0 {
				out = append(out, match{gap, i, false})
				gap = -1
			}
			out = append(out, match{i, i + utf8.RuneLen(r), true})
		} else if gap < 0 {
			gap = i
		}
	}
	if gap >= 0 {
		out = append(out, match{gap, len(text), false})
	}
	return out
}

// regex is a Oniguruma-style pattern (HF compiles them with Oniguruma) run by regexp2, a
// backtracking engine with look-around, so patterns such as \s+(?!\S) work; Go's regexp
// rejects them.
type regex struct {
	re *regexp2.Regexp
}

// scanner is a pattern one of internal/pretok's hand-written scanners implements exactly
// (GPT-2's, cl100k's and Llama 3's, o200k's, Qwen's): the same matches as regexp2 running the
// pattern (pretok's tests and fuzzing hold them to it), in linear time, without allocating.
type scanner pretok.Func

func (f scanner) find(text string, out []match) []match {
	if text == "" {
		return append(out, match{0, 0, false})
	}
	if want := len(text)/4 + 1; cap(out) < want {
		out = make([]match, 0, want)
	}
	for at := 0; at < len(text); {
		end := f(text, at)
		out = append(out, match{at, end, true})
		at = end
	}
	return out
}

// compileRegex returns src as a pattern: a pretok scanner when one implements src exactly,
// otherwise src compiled by regexp2.
func compileRegex(src, path string) (pattern, error) {
	if f := pretok.ForPattern(src); f != nil {
		return scanner(f), nil
	}
	if src == " {2,}" {
		// transformers' SpmConverter replaces runs of spaces with this pattern, in every
		// XLM-R and T5 file; regexp2 spent a third of their normalization on it.
		return spaceRuns(2), nil
	}
	re, err := regexp2.Compile(src, regexp2.None, regexp2.OptionMaxBacktrackingStackSize(-1))
	if err != nil {
		return nil, unsupported(path, "regular expression %q: %v", src, err)
	}
	return &regex{re: re}, nil
}

func (r *regex) find(text string, out []match) []match {
	if text == "" {
		return append(out, match{0, 0, false})
	}
	// regexp2 works on runes: convert its rune offsets to byte offsets as it goes.
	runes := []rune(text)
	byteAt := make([]int, len(runes)+1)
	b := 0
	for i, c := range runes {
		byteAt[i] = b
		b += utf8.RuneLen(c)
	}
	byteAt[len(runes)] = b
	prev := 0
	m, err := r.re.FindRunesMatch(runes)
	for m != nil && err == nil {
		s, e := byteAt[m.RuneIndex], byteAt[m.RuneIndex+m.RuneLength]
		if s > prev {
			out = append(out, match{prev, s, false})
		}
		out = append(out, match{s, e, true})
		prev = e
		m, err = r.re.FindNextMatch(m)
	}
	// err can only be a match timeout, and none is set; were it to happen, the rest of the
	// text stays one gap below rather than being lost.
	if prev < len(text) {
		out = append(out, match{prev, len(text), false})
	}
	return out
}
