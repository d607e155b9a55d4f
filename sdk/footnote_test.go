package sdk_test

import (
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
