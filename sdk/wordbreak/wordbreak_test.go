package wordbreak_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

func TestWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"English words keep their inner dots and underscores", "Call fs.access() on ERR_X, then stop.", []string{"Call", "fs.access", "on", "ERR_X", "then", "stop"}},
		{"a URL breaks at slashes and colons", "https://github.com/rust-lang/rust/pull/40006", []string{"https", "github.com", "rust", "lang", "rust", "pull", "40006"}},
		{"German compounds are one word", "Die Paketverwaltung läuft.", []string{"Die", "Paketverwaltung", "läuft"}},
		{"Japanese Katakana runs are words and each ideograph is one", "パッケージを管理する。", []string{"パッケージ", "を", "管", "理", "す", "る"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, w := range wordbreak.Words(tc.text) {
				got = append(got, tc.text[w.Start:w.End])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStartsLeaveWordsWholeAndPunctuationWithTheWordBefore(t *testing.T) {
	t.Parallel()
	text := "Hello, world. See fs.access()!"
	var pieces []string
	prev := 0
	for _, s := range append(wordbreak.Starts(text), len(text)) {
		pieces = append(pieces, text[prev:s])
		prev = s
	}
	want := []string{"Hello, ", "world. ", "See ", "fs.access()!"}
	if diff := cmp.Diff(want, pieces); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIndexInside(t *testing.T) {
	t.Parallel()
	text := "ab cd"
	x := wordbreak.NewIndex(text)
	for off, want := range map[int]bool{0: false, 1: true, 2: false, 3: false, 4: true, 5: false} {
		if _, got := x.Inside(off); got != want {
			t.Errorf("Inside(%d) = %v, want %v", off, got, want)
		}
	}
}

func TestWholeKeepsWordsAndSegmentsThatReadAsOneCharacter(t *testing.T) {
	t.Parallel()
	text := "Hi 🇩🇪, 👩\u200d👧 ✌🏽 a\r\nb  c!?"
	var got []string
	for _, w := range wordbreak.Whole(text) {
		got = append(got, text[w.Start:w.End])
	}
	// The two spaces are one segment (WB3d) but no character; "!" and "?" are one rune each.
	want := []string{"Hi", "🇩🇪", "👩\u200d👧", "✌🏽", "a", "\r\n", "b", "c"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
