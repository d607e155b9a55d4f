package chunkers

import "testing"

// TestTrimKeepsTheSpaceAMarkExtends checks that trimming a range's white space never begins it
// inside a word segment: a mark after a space is one with the space and the spaces before it
// (UAX #29 WB3d, WB4), but not after a line break (FuzzSections found " \u0301" cut after its
// space, and review " \uFF9E", which Go's mark categories miss).
func TestTrimKeepsTheSpaceAMarkExtends(t *testing.T) {
	for _, tc := range []struct {
		s          string
		from, a, b int
	}{
		{"  word  ", 0, 2, 6},
		{"a \u0301", 1, 1, 4},     // the space and the combining acute
		{"\t\u200d x", 0, 0, 6},   // a joiner after a tab
		{"\n\u0301", 0, 1, 3},     // a mark after a line break begins a word of its own
		{" \u00e9", 0, 1, 3},      // a precomposed letter is no mark
		{"  \U0001F3FB", 0, 0, 6}, // an emoji modifier joins both spaces (WB3d, WB4)
		{"x  \u0301", 1, 1, 5},    // so does a combining acute
		{" \uFF9E", 0, 0, 4},      // a halfwidth sound mark is a letter that extends a space
		{"   ", 0, 3, 3},
	} {
		if a, b := trim(tc.s, tc.from, len(tc.s)); a != tc.a || b != tc.b {
			t.Errorf("trim(%q, %d) = %d, %d; want %d, %d", tc.s, tc.from, a, b, tc.a, tc.b)
		}
	}
}
