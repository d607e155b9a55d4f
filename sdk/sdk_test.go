package sdk_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
)

func TestInProcessCountersKeepTheCounterLaws(t *testing.T) {
	t.Parallel()
	t.Run("words", func(t *testing.T) { conformance.TokenCounter(t, sdk.Words{}) })
	t.Run("runes", func(t *testing.T) { conformance.TokenCounter(t, sdk.Runes{}) })
}

func TestWordsAndRunes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		text         string
		words        []int
		runes        []int
		wordsCountIs int
		runesCountIs int
	}{
		{"empty text has no tokens", "", nil, []int{}, 0, 0},
		{"white space alone has no words", " \n\t", nil, []int{1, 2, 3}, 0, 3},
		{"the last word takes the trailing space", "ab cd ", []int{2, 6}, []int{1, 2, 3, 4, 5, 6}, 2, 6},
		{"leading space belongs to the first word", "  x", []int{3}, []int{1, 2, 3}, 1, 3},
		{"a multi-byte rune is one rune", "é😀", []int{6}, []int{2, 6}, 1, 2},
		{"special-token text is ordinary text", "<|endoftext|>", []int{13}, nil, 1, 13},
		{"stray continuation bytes stay with the rune before", "a\x80\x80b", []int{4}, []int{3, 4}, 1, 2},
		{"a stray byte at the start is a rune of its own", "\x80é", []int{3}, []int{1, 3}, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			wb, _ := sdk.Words{}.Boundaries(ctx, []string{tc.text})
			if diff := cmp.Diff(tc.words, wb[0]); diff != "" {
				t.Errorf("Words boundaries (-want +got):\n%s", diff)
			}
			if tc.runes != nil {
				rb, _ := sdk.Runes{}.Boundaries(ctx, []string{tc.text})
				if diff := cmp.Diff(tc.runes, rb[0]); diff != "" {
					t.Errorf("Runes boundaries (-want +got):\n%s", diff)
				}
				if err := sdk.CheckBoundaries([]string{tc.text}, rb); err != nil {
					t.Error(err)
				}
			}
			wc, _ := sdk.Words{}.Count(ctx, []string{tc.text})
			rc, _ := sdk.Runes{}.Count(ctx, []string{tc.text})
			if wc[0] != tc.wordsCountIs || rc[0] != tc.runesCountIs {
				t.Errorf("counts: words %d runes %d; want %d and %d", wc[0], rc[0], tc.wordsCountIs, tc.runesCountIs)
			}
		})
	}
}

func TestCanonicalJoinsBlocksWithABlankLine(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{Blocks: []sdk.Block{{Text: "a"}, {Text: ""}, {Text: "bc"}}}
	got := doc.Canonical()
	want := sdk.Canonical{Text: "a\n\n\n\nbc", Starts: []int{0, 3, 5}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("canonical (-want +got):\n%s", diff)
	}
}

func TestValidateNamesTheBlockAndByte(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		doc  *sdk.Document
		want string
	}{
		{"invalid UTF-8", &sdk.Document{ID: "d", Blocks: []sdk.Block{{Text: "ok"}, {Text: "ab\xffc"}}},
			`chunkkit: invalid input: document "d" block 1 field text at byte 2: invalid UTF-8`},
		{"a heading without a level", &sdk.Document{ID: "d", Blocks: []sdk.Block{{Kind: sdk.KindHeading, Text: "h"}}},
			`chunkkit: invalid input: document "d" block 0 field level: heading level must be 1 or more, got 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.doc.Validate()
			if err == nil || err.Error() != tc.want || !errors.Is(err, sdk.ErrInvalidInput) {
				t.Errorf("Validate() = %v, want %q matching ErrInvalidInput", err, tc.want)
			}
		})
	}
	if err := (&sdk.Document{Blocks: []sdk.Block{{Kind: sdk.KindHeading, Level: 9, Text: "deep"}}}).Validate(); err != nil {
		t.Errorf("a level-9 heading is valid, got %v", err)
	}
}

func TestCheckBoundariesCatchesContractBreaches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		texts  []string
		bounds [][]int
		ok     bool
	}{
		{"a correct answer passes", []string{"ab", ""}, [][]int{{1, 2}, nil}, true},
		{"repeated offsets pass", []string{"😀"}, [][]int{{0, 0, 4}}, true},
		{"a missing list fails", []string{"ab"}, nil, false},
		{"decreasing offsets fail", []string{"abc"}, [][]int{{2, 1, 3}}, false},
		{"a last offset short of the end fails", []string{"abc"}, [][]int{{1, 2}}, false},
		{"an offset inside a rune fails", []string{"é"}, [][]int{{1, 2}}, false},
		{"an offset past the end fails", []string{"a"}, [][]int{{2}}, false},
		{"an offset for the empty text fails", []string{"a", ""}, [][]int{{1}, {0}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := sdk.CheckBoundaries(tc.texts, tc.bounds)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, sdk.ErrBadResponse)) {
				t.Errorf("CheckBoundaries = %v, want ok=%v", err, tc.ok)
			}
		})
	}
	if err := sdk.CheckCounts([]string{"a"}, []int{-1}); !errors.Is(err, sdk.ErrBadResponse) {
		t.Errorf("a negative count passed: %v", err)
	}
	if err := sdk.CheckCounts([]string{"a", ""}, []int{1, 1}); !errors.Is(err, sdk.ErrBadResponse) || !strings.Contains(err.Error(), "text 1 is empty but counted 1 tokens") {
		t.Errorf("a token in the empty text passed: %v", err)
	}
	if err := sdk.CheckCounts([]string{"a", ""}, []int{1, 0}); err != nil {
		t.Errorf("a correct answer failed: %v", err)
	}
}

func TestRecorderCountsCallsAndTheLongestText(t *testing.T) {
	t.Parallel()
	rec := &sdk.Recorder{Counter: sdk.Words{}}
	ctx := context.Background()
	rec.Count(ctx, []string{"a b", "abcdef"})
	rec.Boundaries(ctx, []string{"xyz"})
	want := sdk.CallStats{CountCalls: 1, BoundariesCalls: 1, Texts: 3, Bytes: 12, LongestText: 6}
	if diff := cmp.Diff(want, rec.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if rec.Name() != "words" {
		t.Errorf("name %q", rec.Name())
	}
	rec.Reset()
	if rec.Stats().Calls() != 0 {
		t.Error("Reset kept calls")
	}
}

func TestStampPrefersTheRequestAndCopiesLabels(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "doc", TenantID: "dt", CorpusID: "dc"}
	labels := []string{"a"}
	chunks := make([]sdk.Chunk, 2)
	sdk.Stamp(chunks, sdk.Request{CorpusID: "rc", Principal: sdk.Principal{ACLLabels: labels}}, doc)
	labels[0] = "changed"
	for i, c := range chunks {
		if c.ID != sdk.ChunkID("doc", i) || c.Position != i || c.TenantID != "dt" || c.CorpusID != "rc" || c.DocumentID != "doc" || c.ACLLabels[0] != "a" {
			t.Errorf("chunk %d: %+v", i, c)
		}
	}
}

func TestInvalidUTF8At(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want int
	}{{"", -1}, {"héllo", -1}, {"ab\xffc", 2}, {"é\x80", 2}, {"\xe2\x82", 0}} {
		if got := sdk.InvalidUTF8At(tc.in); got != tc.want {
			t.Errorf("InvalidUTF8At(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
