package tiktoken

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"
)

// regexPieces splits text with encoding's pattern on regexp2's interpreter (regexp2.Compile
// never substitutes a generated matcher) and returns the end byte offset of each match.
func regexPieces(t testing.TB, encoding, text string) []int {
	t.Helper()
	re, err := regexp2.Compile(pattern(encoding), regexp2.None)
	if err != nil {
		t.Fatal(err)
	}
	var ends []int
	at, atRune := 0, 0
	m, err := re.FindStringMatch(text)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		for ; atRune < m.RuneIndex+m.RuneLength; atRune++ {
			_, size := utf8.DecodeRuneInString(text[at:])
			at += size
		}
		ends = append(ends, at)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ends
}

// scannerPieces splits text with encoding's scanner and returns the end of each piece.
func scannerPieces(encoding, text string) []int {
	split := splitter(encoding)
	var ends []int
	for at := 0; at < len(text); {
		end := split(text, at)
		if end <= at {
			return append(ends, -at) // a scanner that makes no progress; never equal to a regex answer
		}
		ends = append(ends, end)
		at = end
	}
	return ends
}

// splitSeeds returns the golden inputs (short forms of the repeated ones) and inputs aimed at
// the patterns' backtracking.
func splitSeeds(t testing.TB) []string {
	t.Helper()
	var file struct {
		Cases []struct {
			Text   *string `json:"text"`
			Repeat *struct {
				Unit  string `json:"unit"`
				Times int    `json:"times"`
			} `json:"repeat"`
		} `json:"cases"`
	}
	b, err := os.ReadFile("testdata/strings.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	seeds := []string{
		" \n \n \n", "\t\n\t\n", "  \n\n  x", "a  \n  b", " ", "  ", "   x", "x   ", "\n", "\r\n\r\n",
		"'s'S'ſ'Re'rE'LL'll'd", "don't DON'T Don'T", "'", "''s", "x'", "x'ſup", "\u0301", "a\u0301\u0301B",
		"ǅungla ǈ", "ABCdef", "ABC", "ʰʰa", "Aʰ", "\u0301A", " \u0301", "!\n/\n", "!/", " !", " 1", " a",
		"\x7f", "\u00a0\u00a0x", "\u3000\u3000", "12345", "x123y", "١٢٣٤", "Ⅻⅻ", "..\r\n", "a/b//c\n/",
	}
	for _, c := range file.Cases {
		switch {
		case c.Text != nil:
			seeds = append(seeds, *c.Text)
		case c.Repeat != nil:
			seeds = append(seeds, strings.Repeat(c.Repeat.Unit, min(c.Repeat.Times, 50)))
		}
	}
	return seeds
}

func TestScannersMatchThePatterns(t *testing.T) {
	t.Parallel()
	seeds := splitSeeds(t)
	for _, enc := range []string{"cl100k_base", "o200k_base", "r50k_base"} {
		t.Run(enc+" scanner splits like its pattern", func(t *testing.T) {
			t.Parallel()
			for _, text := range seeds {
				if !utf8.ValidString(text) {
					continue // scanners see repaired text only
				}
				if diff := cmp.Diff(regexPieces(t, enc, text), scannerPieces(enc, text)); diff != "" {
					t.Errorf("%q: piece ends (-pattern +scanner):\n%s", text, diff)
				}
			}
		})
	}
}

// FuzzScannersMatchThePatterns checks the scanners against regexp2 running the patterns on
// any valid UTF-8 input.
func FuzzScannersMatchThePatterns(f *testing.F) {
	for _, s := range splitSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			text = repairUTF8(text).text
		}
		for _, enc := range []string{"cl100k_base", "o200k_base", "r50k_base"} {
			if diff := cmp.Diff(regexPieces(t, enc, text), scannerPieces(enc, text)); diff != "" {
				t.Errorf("%s %q: piece ends (-pattern +scanner):\n%s", enc, text, diff)
			}
		}
	})
}
