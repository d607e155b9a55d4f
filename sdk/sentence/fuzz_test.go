package sentence_test

import (
	"context"
	"slices"
	"testing"

	"github.com/chunkkit/chunkkit/sdk/sentence"
)

// FuzzSplit checks the invariants of every answer, for the built-in rules and with an extra
// abbreviation, on any input, invalid UTF-8 included: no panic, strictly increasing offsets on
// rune boundaries, the last equal to len(text), sentences that tile the text, the same answer
// every time.
func FuzzSplit(f *testing.F) {
	for _, tc := range splitCases {
		f.Add(tc.text, "")
	}
	f.Add("Siehe Abb. 3 und z.B. Bilder.", "abb")
	f.Add("Ende.\n\nDanach.", "Ende.")
	f.Add("「はい。」と言った。\x80", "")
	f.Fuzz(func(t *testing.T, text, abbr string) {
		ends := sentence.Ends(text)
		checkInvariants(t, text, ends)
		if again := sentence.Ends(text); !slices.Equal(ends, again) {
			t.Fatalf("Ends(%q) is not deterministic: %v then %v", text, ends, again)
		}
		got, err := sentence.Splitter{Abbreviations: []string{abbr}}.Split(context.Background(), []string{text})
		if err != nil {
			t.Fatalf("Split(%q) with abbreviation %q: %v", text, abbr, err)
		}
		checkInvariants(t, text, got[0])
	})
}
