package chunkers

import (
	"slices"
	"strings"
	"testing"
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
