package sdk

import (
	"context"
	"unicode"
	"unicode/utf8"
)

// Words is an in-process TokenCounter for tests and for users without plugins: a token is a
// run of non-space runes (unicode.IsSpace) together with the white space before it. Token
// boundaries fall at word ends; the last token also takes the trailing white space, so the
// last boundary is len(text). A text of white space only has zero tokens. The zero value is
// ready to use and safe for concurrent use.
type Words struct{}

// Name returns "words".
func (Words) Name() string { return "words" }

// Count returns the number of words in each text.
func (w Words) Count(ctx context.Context, texts []string) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	counts := make([]int, len(texts))
	for i, t := range texts {
		inWord := false
		for _, r := range t {
			space := unicode.IsSpace(r)
			if !space && !inWord {
				counts[i]++
			}
			inWord = !space
		}
	}
	return counts, nil
}

// Boundaries returns the end offset of each word in each text; the last is len(text).
func (w Words) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]int, len(texts))
	for i, t := range texts {
		var ends []int
		inWord := false
		for j, r := range t {
			space := unicode.IsSpace(r)
			if space && inWord {
				ends = append(ends, j)
			}
			inWord = !space
		}
		if inWord {
			ends = append(ends, len(t))
		}
		if len(ends) > 0 {
			ends[len(ends)-1] = len(t)
		}
		out[i] = ends
	}
	return out, nil
}

// Runes is an in-process TokenCounter where every rune is a token, white space included. In
// text that is not valid UTF-8 a byte that cannot start a rune stays with the token before
// it (a stray byte at the start is a token of its own), so boundaries always fall where
// sdk.CheckBoundaries expects them. The zero value is ready to use and safe for concurrent use.
type Runes struct{}

// Name returns "runes".
func (Runes) Name() string { return "runes" }

// Count returns the number of runes in each text.
func (Runes) Count(ctx context.Context, texts []string) ([]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	counts := make([]int, len(texts))
	for i, t := range texts {
		if utf8.ValidString(t) {
			counts[i] = utf8.RuneCountInString(t)
			continue
		}
		for range runeEnds(t) {
			counts[i]++
		}
	}
	return counts, nil
}

// Boundaries returns the end offset of every rune in each text.
func (Runes) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]int, len(texts))
	for i, t := range texts {
		ends := make([]int, 0, len(t))
		for e := range runeEnds(t) {
			ends = append(ends, e)
		}
		out[i] = ends
	}
	return out, nil
}

// runeEnds yields the end offset of each rune of t, where a byte that cannot start a rune
// extends the rune before it.
func runeEnds(t string) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for j := 0; j < len(t); {
			_, size := utf8.DecodeRuneInString(t[j:])
			j += size
			for j < len(t) && !utf8.RuneStart(t[j]) {
				j++
			}
			if !yield(j) {
				return
			}
		}
	}
}
