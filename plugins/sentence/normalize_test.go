package sentence

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	punkt "github.com/neurosnap/sentences"
)

func TestNormalizeFoldsEngineAnswersIntoTheContract(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		text     string
		proposed []int
		want     []int
	}{
		{"no proposals give one sentence", "One. Two.", nil, []int{9}},
		{"white space after an end moves to the sentence before", "One.  Two.", []int{4}, []int{6, 10}},
		{"proposals out of order or range are dropped", "One. Two. Three.", []int{10, 5, -1, 0, 16, 99}, []int{10, 16}},
		{"a proposal inside a rune moves to its end", "Ä. B.", []int{1}, []int{2, 6}},
		{"a proposal leaving only white space before it is dropped", "  \n One.", []int{2}, []int{8}},
		{"a blank line of its own joins the sentence before", "One.\n\n\nTwo.", []int{5, 6, 7}, []int{7, 11}},
		{"a stray continuation byte stays with the sentence before", "A. \x80 B.", []int{2}, []int{5, 7}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, normalize(tc.text, tc.proposed)); diff != "" {
				t.Errorf("normalize(%q, %v) (-want +got):\n%s", tc.text, tc.proposed, diff)
			}
		})
	}
}

func TestPunktEndsLocatesMisreportedSentences(t *testing.T) {
	t.Parallel()
	text := "One. Two. Three."
	cases := []struct {
		name  string
		sents []*punkt.Sentence
		want  []int
	}{
		{"exact ranges are kept", []*punkt.Sentence{{Start: 0, End: 4, Text: "One."}, {Start: 4, End: 9, Text: " Two."}}, []int{4, 9}},
		{"a wrong range is found by its text", []*punkt.Sentence{{Start: 7, End: 99, Text: " Two."}}, []int{9}},
		{"a text that is not there is dropped", []*punkt.Sentence{{Start: -3, End: 2, Text: "Four."}, {Start: 10, End: 16, Text: "Three."}}, []int{16}},
		{"a range before the previous end is searched after it", []*punkt.Sentence{{Start: 0, End: 9, Text: "One. Two."}, {Start: 0, End: 4, Text: "One."}}, []int{9}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, punktEnds(text, tc.sents)); diff != "" {
				t.Errorf("punktEnds (-want +got):\n%s", diff)
			}
		})
	}
}
