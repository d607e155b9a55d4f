package sentence

import (
	"slices"
	"strings"
	"testing"

	uax29 "github.com/clipperhouse/uax29/v2/sentences"
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

func TestSqueezeSpaceKeepsPunktAnswersAndMapsBack(t *testing.T) {
	t.Parallel()
	tok, err := New(PunktEnglish)
	if err != nil {
		t.Fatal(err)
	}
	p := tok.(*Splitter).engine.(punktEngine)
	long := strings.Repeat(" ", 40)
	cases := []struct {
		name, text string
	}{
		{"spaces between sentences", "One is here." + long + "Two is there."},
		{"a blank line made of many line feeds", "Title" + strings.Repeat("\n", 30) + "Body text. More."},
		{"spaces and line feeds mixed", "Mr." + long + "\n" + long + "Smith left. He ran." + long},
		{"leading and trailing runs", long + "Pi is 3.14. That is known." + long + "\n\n"},
		{"an abbreviation before a run", "It is 5 p.m." + long + "Tomorrow is fine."},
	}
	for _, tc := range cases {
		t.Run(tc.name+" splits as the short form does", func(t *testing.T) {
			short, runs := squeeze(tc.text, spaceRun, punktSpace)
			if len(runs) == 0 || len(short) >= len(tc.text) {
				t.Fatalf("squeeze(%q) squeezed nothing", tc.text)
			}
			got := normalize(tc.text, p.ends(tc.text))
			// The same text with every long run replaced by its squeezed form, split by Punkt
			// directly, must give the same sentences, white space aside.
			want := normalize(short, punktEnds(short, p.tok.Tokenize(short)))
			if len(got) != len(want) {
				t.Fatalf("%q: %d sentences %v, the squeezed text %q has %d %v", tc.text, len(got), got, short, len(want), want)
			}
			prevG, prevW := 0, 0
			for i := range got {
				g, w := strings.TrimSpace(tc.text[prevG:got[i]]), strings.TrimSpace(short[prevW:want[i]])
				if strings.Join(strings.Fields(g), " ") != strings.Join(strings.Fields(w), " ") {
					t.Errorf("sentence %d: %q, squeezed %q", i, g, w)
				}
				prevG, prevW = got[i], want[i]
			}
		})
	}
	t.Run("unsqueeze maps offsets around and inside runs", func(t *testing.T) {
		text := "ab" + long + "cd" + long + "ef"
		short, runs := squeeze(text, spaceRun, punktSpace)
		if short != "ab  cd  ef" {
			t.Fatalf("squeeze = %q", short)
		}
		for p, want := range map[int]int{0: 0, 2: 2, 3: 42, 4: 42, 5: 43, 6: 44, 7: 84, 8: 84, 10: 86} {
			if got := unsqueeze(runs, p); got != want {
				t.Errorf("unsqueeze(%d) = %d, want %d", p, got, want)
			}
		}
	})
}

// FuzzSqueezeKeepsAnswers checks that squeezing long runs before an engine sees a text
// changes no sentence end: each engine's normalized answer equals its answer on the text as
// is.
func FuzzSqueezeKeepsAnswers(f *testing.F) {
	long := strings.Repeat(" ", 20)
	for _, seed := range []string{
		"One." + long + "Two.", "One." + strings.Repeat(")", 20) + " Two.", "He said \"" + strings.Repeat("\"", 20) + "Stop.",
		"Title" + strings.Repeat("\n", 20) + "Body. More.", "Mr." + long + "\n" + long + "Smith left.", "a.\t" + strings.Repeat("\t", 20) + "b",
		"U.S." + strings.Repeat("\u3000", 10) + "Army", "x" + strings.Repeat("«", 10) + ". Y", "No." + long + "5 is it." + long,
		"One." + strings.Repeat(")\"", 10) + " Two.", "One.\u00a0" + strings.Repeat(" \u00a0", 7) + "two.", "a(" + strings.Repeat("[{“", 6) + "b. C",
	} {
		f.Add(seed)
	}
	p, err := New(PunktEnglish)
	if err != nil {
		f.Fatal(err)
	}
	tok := p.(*Splitter).engine.(punktEngine).tok
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4000 || strings.TrimSpace(text) == "" {
			return
		}
		var raw []int
		it := uax29.FromString(text)
		for it.Next() {
			raw = append(raw, it.End())
		}
		if want, got := normalize(text, raw), normalize(text, uaxEngine{}.ends(text)); !slices.Equal(want, got) {
			t.Errorf("uax29: %q: squeezed %v, as is %v", text, got, want)
		}
		want := normalize(text, punktEnds(text, tok.Tokenize(text)))
		if got := normalize(text, punktEngine{tok}.ends(text)); !slices.Equal(want, got) {
			t.Errorf("punkt:en: %q: squeezed %v, as is %v", text, got, want)
		}
	})
}
