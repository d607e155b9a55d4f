package utf8x

import "testing"

func TestMaximalSubpart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want int
	}{
		{name: "a stray continuation byte is one", in: "\x80\x80", want: 1},
		{name: "a byte never used in UTF-8 is one", in: "\xffa", want: 1},
		{name: "an overlong lead byte is one", in: "\xc0\xaf", want: 1},
		{name: "a two-byte lead at the end is one", in: "\xc3", want: 1},
		{name: "a three-byte sequence cut after two bytes is two", in: "\xe4\xb8a", want: 2},
		{name: "a four-byte sequence cut after three bytes is three", in: "\xf0\x9f\x98", want: 3},
		{name: "E0 needs A0..BF next, so E0 80 is one", in: "\xe0\x80\x80", want: 1},
		{name: "ED A0 (a surrogate) is one", in: "\xed\xa0\x80", want: 1},
		{name: "F4 90 (above U+10FFFF) is one", in: "\xf4\x90\x80\x80", want: 1},
		{name: "F0 8F (overlong) is one", in: "\xf0\x8f\xbf\xbf", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := MaximalSubpart(tt.in); got != tt.want {
				t.Errorf("MaximalSubpart(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}
