package sentence_test

import (
	"context"
	"slices"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/sentence"
)

// FuzzSplit checks the sdk.SentenceSplitter contract of both engines on arbitrary input:
// strictly increasing ends on rune boundaries, the last at len(text), none for a blank text,
// no sentence without a non-space rune, exact tiling, determinism, and no panic.
func FuzzSplit(f *testing.F) {
	for _, tc := range hardCases {
		f.Add(tc.text)
	}
	f.Add("a\xffb. C d.")
	f.Add("\x80\x80. Next.\n\n\xe4\xb8. 中\xe6\x96. X")
	f.Add("「はい。」と言った。\x80")
	splitters := map[string]*sentence.Splitter{}
	for _, m := range sentence.Models() {
		s, err := sentence.New(m)
		if err != nil {
			f.Fatal(err)
		}
		splitters[m] = s.(*sentence.Splitter)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for name, s := range splitters {
			got, err := s.Split(context.Background(), []string{text})
			if err != nil {
				t.Fatalf("%s: Split(%q): %v", name, text, err)
			}
			checkContract(t, name, text, got[0])
			if again := s.Ends(text); !slices.Equal(got[0], again) {
				t.Fatalf("%s: %q: Split gave %v, Ends %v", name, text, got[0], again)
			}
		}
	})
}
