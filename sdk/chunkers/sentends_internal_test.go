package chunkers

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/words"

	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// TestWholeWordEnds checks that a sentence end a splitter put inside a word moves to the end
// of that word, or goes when that word runs to the end of the text or past what is looked at,
// and that ends between words stay as they are.
func TestWholeWordEnds(t *testing.T) {
	long := strings.Repeat("x", 3*nearWords)
	for _, tc := range []struct {
		name, text string
		ends, want []int
		changed    bool
	}{
		{"between words", "One. Two. Three.", []int{5, 10, 16}, []int{5, 10, 16}, false},
		{"CJK between ideographs", "中文句子。第二句。", []int{15, 27}, []int{15, 27}, false},
		// "！" is 3 bytes at 24; the combining acute after it is one word with it (UAX #29 WB4).
		{"before a combining mark", "中文句子。第二句！\u0301 Next.", []int{15, 27, 35}, []int{15, 29, 35}, true},
		{"inside an abbreviation", "See U.S.A today. Then.", []int{8, 17, 22}, []int{9, 17, 22}, true},
		{"moved onto the next end", "ab cd. Ef", []int{4, 5, 7, 9}, []int{5, 7, 9}, true},
		{"inside the last word", "one two", []int{5, 7}, []int{7}, true},
		{"inside a word longer than what is looked at", "a " + long + " b", []int{2 + nearWords + 5, 5 + 3*nearWords}, []int{5 + 3*nearWords}, true},
		// A flag is two regional indicators of 4 bytes each, a family emoji three emoji joined
		// by two ZWJs (18 bytes): one segment each (WB15, WB3c), as CR LF is (WB3). Spaces (WB3d)
		// are not moved over.
		{"inside a flag", "Hi 🇩🇪 there.", []int{7, 17}, []int{11, 17}, true},
		{"inside an emoji ZWJ sequence", "A 👩‍👩‍👧 b.", []int{6, 13}, []int{20}, true},
		{"between CR and LF", "One.\r\nTwo.", []int{5, 10}, []int{6, 10}, true},
		{"between two spaces", "One.  Two.", []int{5, 10}, []int{5, 10}, false},
		{"at the ends", "ab", []int{0, 2}, []int{0, 2}, false},
		{"none", "ab", nil, nil, false},
	} {
		in := slices.Clone(tc.ends)
		got, changed := wholeWordEnds(tc.text, tc.ends)
		if !slices.Equal(got, tc.want) || changed != tc.changed {
			t.Errorf("%s: wholeWordEnds(%q, %v) = %v, %v; want %v, %v", tc.name, tc.text, tc.ends, got, changed, tc.want, tc.changed)
		}
		if !slices.Equal(in, tc.ends) {
			t.Errorf("%s: wholeWordEnds changed its argument to %v", tc.name, tc.ends)
		}
	}
}

// TestBreaksWords checks breaksWords against the segmenter (github.com/clipperhouse/uax29/v2)
// it stands in for: a word boundary after an ASCII white space before every rune that
// startsWord takes (all of them after a space, the class that fewest rules break after), and
// one after every rune of closesCJK before a rune of each class of UAX #29's word breaking,
// whatever comes before that rune.
func TestBreaksWords(t *testing.T) {
	breaks := func(s string, at int) bool {
		for seg := words.FromString(s); seg.Next(); {
			if seg.Start() == at {
				return true
			}
			if seg.Start() > at {
				break
			}
		}
		return false
	}
	runes := 0
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) || !startsWord(r) {
			continue
		}
		runes++
		s := "a " + string(r) + "a"
		if !breaks(s, 2) {
			t.Errorf("no word boundary between a space and %U, which startsWord takes", r)
		}
		if !breaksWords(s, 2) {
			t.Errorf("breaksWords(%q, 2) = false", s)
		}
	}
	if runes < 100_000 {
		t.Fatalf("startsWord took %d runes; want the letters, numbers and punctuation, over 100,000", runes)
	}
	// One rune of each class that a rule keeps in a word with what comes before it: ALetter,
	// Hebrew_Letter, Numeric, Katakana, ExtendNumLet, MidLetter, MidNum, MidNumLet,
	// Single_Quote, Double_Quote, Other (Han, Hiragana, a CJK terminator), Regional_Indicator,
	// Extended_Pictographic, and ASCII ones.
	next := []string{"a", "é", "א", "1", "١", "ア", "ｱ", "_", ":", "·", ",", ".", "'", "\"", "漢", "か", "。", "🇦", "©", "A", "(", "-", "$"}
	for c := rune(0x80); c <= unicode.MaxRune; c++ {
		if !closesCJK(c) {
			continue
		}
		for _, before := range []string{"", "a", "1", "ア", "א", "_", "漢"} {
			for _, n := range next {
				for _, after := range []string{"", "a", "1", "ア"} {
					s := before + string(c) + n + after
					at := len(before) + utf8.RuneLen(c)
					if !breaks(s, at) {
						t.Errorf("no word boundary at %d in %q: %q, which closesCJK takes, is not of class Other", at, s, c)
					}
				}
			}
		}
	}
	if !closesCJK('。') || !closesCJK('！') || !closesCJK('」') {
		t.Errorf("closesCJK does not take 。, ！ or 」")
	}
	// What breaksWords leaves to segmenting.
	for _, tc := range []struct {
		text string
		at   int
	}{
		{"a  b", 2},         // a space after a space
		{"a \u0301b", 2},    // a combining mark after a space (WB4)
		{"a \uFF9Eb", 2},    // a halfwidth sound mark, a letter of class Extend
		{"a \u200db", 2},    // a zero-width joiner
		{"a \u3000b", 2},    // an ideographic space after a space (WB3d)
		{"ab", 1},           // inside a word
		{"。\u3099か", 3},     // a combining mark after a terminator
		{"1\uFF0C2", 1 + 3}, // a fullwidth comma (MidNum) is not a closesCJK rune
		{"アア", 3},           // two Katakana
		{"a 🇦", 2},          // a regional indicator: a symbol, not taken
	} {
		if breaksWords(tc.text, tc.at) {
			t.Errorf("breaksWords(%q, %d) = true; want it left to the segmenter", tc.text, tc.at)
		}
	}
}

// FuzzWholeWordEnds checks wholeWordEnds on any text and any sorted ends on rune boundaries,
// as a plugin splitter may answer them: no end it returns is strictly inside a word, or another
// segment a cut must leave whole, of the whole text (wordbreak.Whole, on valid UTF-8), they stay in order within the text, every end
// that was between words stays, and breaksWords takes no end that the segmenter does not
// break at.
func FuzzWholeWordEnds(f *testing.F) {
	f.Add("See U.S.A today. Then.", []byte{8, 9, 5})
	f.Add("中文句子。第二句！\u0301 Next.", []byte{15, 12, 8})
	f.Add("관리인은 점검한다. 기록에는 적는다?", []byte{3, 22, 7})
	f.Add("a \uFF9Eb 🇦🇧🇨🇩 x", []byte{1, 1, 1, 4, 4})
	f.Add("One.\r\nTwo 👩\u200d👧 ✌🏽.", []byte{5, 3, 4, 3, 4})
	f.Add(strings.Repeat("x", 600)+" y", []byte{200, 200, 200})
	f.Fuzz(func(t *testing.T, text string, steps []byte) {
		var ends []int
		for e, k := 0, 0; k < len(steps) && e <= len(text); k++ {
			e += int(steps[k]) % 64
			for e < len(text) && !utf8.RuneStart(text[e]) {
				e++ // splitters' ends are on rune boundaries (sdk.CheckBoundaries, for plugins)
			}
			if e <= len(text) {
				ends = append(ends, e)
			}
		}
		out, _ := wholeWordEnds(text, ends)
		for k, e := range out {
			if e < 0 || e > len(text) || (k > 0 && e < out[k-1]) {
				t.Fatalf("ends %v became %v: %d is out of order or outside [0, %d]", ends, out, e, len(text))
			}
		}
		if !utf8.ValidString(text) {
			return
		}
		words := wordbreak.NewIndex(text)
		inside := func(e int) bool {
			_, in := words.Inside(e)
			return in
		}
		for _, e := range out {
			if inside(e) {
				t.Fatalf("ends %v of %q became %v: %d is inside a word", ends, text, out, e)
			}
		}
		for _, e := range ends {
			if !inside(e) && !slices.Contains(out, e) {
				t.Fatalf("ends %v of %q became %v: %d, between words, went", ends, text, out, e)
			}
			if e > 0 && e < len(text) && breaksWords(text, e) && inside(e) {
				t.Fatalf("breaksWords(%q, %d) = true inside a word", text, e)
			}
		}
	})
}
