package sdk_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestFootnoteDefinition(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"[^1]: A note.":   "1",
		"  [^x-y]:":       "x-y",
		"[^1] : spaced":   "",
		"[^1]":            "",
		"[^]: empty":      "",
		"[^a b]: spaced":  "",
		"[^a^b]: caret":   "",
		"Text [^1]: late": "",
		"[1]: /url":       "",
	} {
		if got := sdk.FootnoteDefinition(text); got != want {
			t.Errorf("FootnoteDefinition(%q) = %q, want %q", text, got, want)
		}
	}
	for label, want := range map[string]bool{"1": true, "note-2": true, "": false, "a b": false, "a\tb": false, "a]": false, "[a": false, "^": false} {
		if got := sdk.IsFootnoteLabel(label); got != want {
			t.Errorf("IsFootnoteLabel(%q) = %v, want %v", label, got, want)
		}
	}
}

func TestScanFootnotes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text            string
		defined, refsTo []string
	}{
		{"", nil, nil},
		{"no notes [1] [^] [^ a] [^a b]", nil, nil},
		{"See [^1] and [^a-z].\n\n[^1]: The note [^2].", []string{"1"}, []string{"1", "2", "a-z"}},
		{"`[^code]` \\[^esc] > [^quoted]: x", []string{"quoted"}, []string{"code", "esc"}},
		{"[^[^a]] [^^b] [^c", nil, []string{"a"}},
		{"mid [^x]: line, [^x] [^y]:", []string{"x", "y"}, []string{"x"}},
	} {
		s := sdk.ScanFootnotes(c.text)
		if got := slices.Sorted(maps.Keys(s.Defined)); !slices.Equal(got, c.defined) || s.Defined == nil {
			t.Errorf("ScanFootnotes(%q).Defined = %v, want %v", c.text, got, c.defined)
		}
		if got := slices.Sorted(maps.Keys(s.Referenced)); !slices.Equal(got, c.refsTo) || s.Referenced == nil {
			t.Errorf("ScanFootnotes(%q).Referenced = %v, want %v", c.text, got, c.refsTo)
		}
	}
	// Past 65,536 labels, a set is not known: nil.
	var sb strings.Builder
	for i := range 1<<16 + 1 {
		fmt.Fprintf(&sb, "[^%d] ", i)
	}
	sb.WriteString("[^d]: a note")
	if s := sdk.ScanFootnotes(sb.String()); s.Referenced != nil || !s.Defined["d"] {
		t.Errorf("%d references: Referenced has %d, Defined %v; want nil and d", 1<<16+1, len(s.Referenced), s.Defined)
	}
}

// TestScanFootnotesIsTheNaiveScan holds ScanFootnotes, which reads a label only up to the first
// byte no label holds, to the plain reading: from each "[^", the text up to the next "]" is a
// label when IsFootnoteLabel says so, defined when ":" follows, referenced otherwise.
func TestScanFootnotesIsTheNaiveScan(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 3))
	naive := func(s string) (defined, referenced []string) {
		d, ref := map[string]bool{}, map[string]bool{}
		for at := 0; at+1 < len(s); at++ {
			if s[at] != '[' || s[at+1] != '^' {
				continue
			}
			rest := s[at+2:]
			if k := strings.IndexByte(rest, ']'); k >= 0 && sdk.IsFootnoteLabel(rest[:k]) {
				if strings.HasPrefix(rest[k+1:], ":") {
					d[rest[:k]] = true
				} else {
					ref[rest[:k]] = true
				}
			}
		}
		return slices.Sorted(maps.Keys(d)), slices.Sorted(maps.Keys(ref))
	}
	pieces := []string{"[", "^", "]", ":", " ", "\n", "\t", "a", "1", "é", "\\", "[^", "[^a]", "[^1]:"}
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(16) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := sb.String()
		s := sdk.ScanFootnotes(text)
		d, ref := naive(text)
		if got := slices.Sorted(maps.Keys(s.Defined)); !slices.Equal(got, d) {
			t.Fatalf("ScanFootnotes(%q).Defined = %v, want %v", text, got, d)
		}
		if got := slices.Sorted(maps.Keys(s.Referenced)); !slices.Equal(got, ref) {
			t.Fatalf("ScanFootnotes(%q).Referenced = %v, want %v", text, got, ref)
		}
	}
}

func TestFootnoteLabelAt(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]struct {
		n  int
		ok bool
	}{
		"1]": {1, true}, "a-z]: x": {3, true}, "]": {0, false}, "": {0, false}, "abc": {3, false},
		"a b]": {1, false}, "a[^b]": {1, false}, "a^b]": {1, false}, "a\nb]": {1, false}, "é]": {2, true},
	} {
		if n, ok := sdk.FootnoteLabelAt(s); n != want.n || ok != want.ok {
			t.Errorf("FootnoteLabelAt(%q) = %d, %v; want %d, %v", s, n, ok, want.n, want.ok)
		}
	}
}

// BenchmarkScanFootnotes scans 1 MB of text with a "[^" every few bytes and one "]" at its end,
// which took time quadratic in the text when each "[^" looked for the next "]".
func BenchmarkScanFootnotes(b *testing.B) {
	text := strings.Repeat("[^\n\n", 1<<18) + "]"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sdk.ScanFootnotes(text)
	}
}
