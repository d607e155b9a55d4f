package sdk_test

import (
	"fmt"
	"maps"
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
