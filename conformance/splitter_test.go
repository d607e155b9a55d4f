package conformance

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// punctSplitter is a reference splitter: a sentence ends after a run of terminal punctuation
// and the white space after it, or at the end of the text; a blank text has no sentence.
type punctSplitter struct{}

func isTerminal(r rune) bool { return strings.ContainsRune(".!?。！？؟", r) }

func punctEnds(text string) []int {
	if sdk.IsBlank(text) {
		return nil
	}
	var ends []int
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if !isTerminal(r) {
			continue
		}
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !isTerminal(r) {
				break
			}
			i += size
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsSpace(r) {
				break
			}
			j += size
		}
		if j > i || j == len(text) || r >= utf8.RuneSelf {
			ends = append(ends, j)
			i = j
		}
	}
	switch {
	case len(ends) == 0:
		ends = []int{len(text)}
	case ends[len(ends)-1] != len(text):
		if sdk.IsBlank(text[ends[len(ends)-1]:]) {
			ends[len(ends)-1] = len(text)
		} else {
			ends = append(ends, len(text))
		}
	}
	return ends
}

func (punctSplitter) Split(ctx context.Context, texts []string) ([][]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]int, len(texts))
	for i, t := range texts {
		out[i] = punctEnds(t)
	}
	return out, nil
}

// splitterFunc adapts a function that rewrites the reference answer into a broken splitter.
type splitterFunc func(ctx context.Context, texts []string, ends [][]int) ([][]int, error)

func (f splitterFunc) Split(ctx context.Context, texts []string) ([][]int, error) {
	ends, err := punctSplitter{}.Split(ctx, texts)
	if err != nil {
		return nil, err
	}
	return f(ctx, texts, ends)
}

func TestSentenceSplitterPassesForTheReferenceSplitter(t *testing.T) {
	t.Parallel()
	SentenceSplitter(t, punctSplitter{})
}

func TestSplitterLawsCatchBrokenSplitters(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	for _, tc := range []struct {
		name     string
		splitter sdk.SentenceSplitter
		wantLaw  string
	}{
		{"a splitter that repeats a sentence end", splitterFunc(func(_ context.Context, _ []string, ends [][]int) ([][]int, error) {
			for i, e := range ends {
				if len(e) > 0 {
					ends[i] = append([]int{e[0]}, e...)
				}
			}
			return ends, nil
		}), "sentence ends are strictly increasing rune boundaries, the last at the text length"},
		{"a splitter that leaves trailing white space out", splitterFunc(func(_ context.Context, texts []string, ends [][]int) ([][]int, error) {
			for i, e := range ends {
				if n := len(e); n > 0 {
					e[n-1] = len(strings.TrimRightFunc(texts[i], unicode.IsSpace))
				}
			}
			return ends, nil
		}), "sentence ends are strictly increasing rune boundaries, the last at the text length"},
		{"a splitter that ends a sentence inside a rune", splitterFunc(func(_ context.Context, texts []string, ends [][]int) ([][]int, error) {
			for i, e := range ends {
				for j := range e {
					if k := e[j]; k < len(texts[i]) && k > 0 && texts[i][k-1] >= utf8.RuneSelf {
						e[j]--
					}
				}
			}
			return ends, nil
		}), "sentence ends are strictly increasing rune boundaries, the last at the text length"},
		{"a splitter that finds no sentence in text without punctuation", splitterFunc(func(_ context.Context, texts []string, ends [][]int) ([][]int, error) {
			for i, t := range texts {
				if strings.IndexFunc(t, isTerminal) < 0 {
					ends[i] = nil
				}
			}
			return ends, nil
		}), "sentence ends are strictly increasing rune boundaries, the last at the text length"},
		{"a splitter that gives the empty text a sentence", splitterFunc(func(_ context.Context, texts []string, ends [][]int) ([][]int, error) {
			for i, t := range texts {
				if t == "" {
					ends[i] = []int{0}
				}
			}
			return ends, nil
		}), "the empty text has no sentences"},
		{"a splitter that answers in order of text length", splitterFunc(func(ctx context.Context, texts []string, _ [][]int) ([][]int, error) {
			sorted := slices.Clone(texts)
			slices.SortStableFunc(sorted, func(a, b string) int { return len(a) - len(b) })
			return punctSplitter{}.Split(ctx, sorted)
		}), "a reversed batch gets the answers reversed"},
		{"a splitter that rejects an empty batch", splitterFunc(func(_ context.Context, texts []string, ends [][]int) ([][]int, error) {
			if len(texts) == 0 {
				return nil, sdk.ErrInvalidInput
			}
			return ends, nil
		}), "an empty batch gets an empty answer"},
		{"a splitter whose answers change from call to call", splitterFunc(func(_ context.Context, texts []string, ends [][]int) ([][]int, error) {
			if calls.Add(1)%3 == 0 {
				for i := range ends {
					if len(ends[i]) > 1 {
						ends[i] = ends[i][1:]
					}
				}
			}
			return ends, nil
		}), "a batch gets the same answers as its texts one by one"},
		{"a splitter that answers nothing to a cancelled context", cancelIgnored{}, "a cancelled context gives context.Canceled or the correct answer"},
	} {
		t.Run(tc.name+" breaks the law that "+tc.wantLaw, func(t *testing.T) {
			l := findLaw(t, splitterLaws(), tc.wantLaw)
			if err := l.check(t.Context(), tc.splitter); err == nil {
				t.Fatalf("law %q passed for a broken splitter", tc.wantLaw)
			} else {
				t.Logf("reported: %v", err)
			}
		})
	}
}

// cancelIgnored answers empty lists whatever the context.
type cancelIgnored struct{}

func (cancelIgnored) Split(ctx context.Context, texts []string) ([][]int, error) {
	if ctx.Err() != nil {
		return make([][]int, len(texts)), nil
	}
	return punctSplitter{}.Split(ctx, texts)
}

func TestCheckSentenceEnds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		texts  []string
		ends   [][]int
		wantOK bool
	}{
		{"one sentence ending at the text length is accepted", []string{"Hi."}, [][]int{{3}}, true},
		{"a blank text without sentences is accepted", []string{"   "}, [][]int{nil}, true},
		{"a blank text with one sentence to its end is accepted", []string{"   "}, [][]int{{3}}, true},
		{"a missing answer is rejected", []string{"a", "b"}, [][]int{{1}}, false},
		{"a zero end is rejected", []string{"a"}, [][]int{{0, 1}}, false},
		{"an end past the text is rejected", []string{"a"}, [][]int{{2}}, false},
		{"a repeated end is rejected", []string{"a. b."}, [][]int{{3, 3, 5}}, false},
		{"an end inside a rune is rejected", []string{"日本"}, [][]int{{1, 6}}, false},
		{"a last end short of the text is rejected", []string{"a. b."}, [][]int{{3}}, false},
		{"no sentence in a text that is not blank is rejected", []string{"a"}, [][]int{nil}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := checkSentenceEnds(tc.texts, tc.ends)
			if gotOK := err == nil; gotOK != tc.wantOK {
				t.Errorf("checkSentenceEnds(%q, %v) = %v, want ok %v", tc.texts, tc.ends, err, tc.wantOK)
			}
		})
	}
}
