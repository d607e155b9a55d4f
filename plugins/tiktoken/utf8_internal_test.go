package tiktoken

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestRepairUTF8(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		wantText string
		wantSegs []segment
	}{
		{name: "a lone invalid byte becomes U+FFFD", in: "\xff", wantText: "\ufffd",
			wantSegs: []segment{{from: 0, origFrom: 0, origTo: 1, replaced: true}}},
		{name: "valid text around an invalid byte is copied", in: "ab\xffcd", wantText: "ab\ufffdcd",
			wantSegs: []segment{{0, 0, 2, false}, {2, 2, 3, true}, {5, 3, 5, false}}},
		{name: "a cut-off sequence is one U+FFFD", in: "\xe4\xb8!", wantText: "\ufffd!",
			wantSegs: []segment{{0, 0, 2, true}, {3, 2, 3, false}}},
		{name: "two stray continuation bytes are two U+FFFD", in: "\x80\x80", wantText: "\ufffd\ufffd",
			wantSegs: []segment{{0, 0, 1, true}, {3, 1, 2, true}}},
		{name: "an encoded surrogate is three U+FFFD", in: "\xed\xa0\x80", wantText: "\ufffd\ufffd\ufffd",
			wantSegs: []segment{{0, 0, 1, true}, {3, 1, 2, true}, {6, 2, 3, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := repairUTF8(tt.in)
			if got.text != tt.wantText {
				t.Errorf("repairUTF8(%q).text = %q, want %q", tt.in, got.text, tt.wantText)
			}
			if diff := cmp.Diff(tt.wantSegs, got.segs, cmp.AllowUnexported(segment{})); diff != "" {
				t.Errorf("repairUTF8(%q).segs (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestEndsMapsTokenLengthsToCutPoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		text   string
		lens   []int // token byte lengths on the text the backend saw
		want   []int
		wantOK bool
	}{
		{name: "ASCII tokens end where they end", text: "abc", lens: []int{1, 2}, want: []int{1, 3}, wantOK: true},
		{name: "tokens inside a character end after it", text: "🦀x", lens: []int{2, 1, 1, 1}, want: []int{4, 4, 4, 5}, wantOK: true},
		{name: "lengths that fall short are reported", text: "abc", lens: []int{1, 1}, want: []int{1, 2}, wantOK: false},
		{name: "a token ending inside a U+FFFD ends after its invalid bytes", text: "a\xe4\xb8b",
			lens: []int{1, 2, 1, 1}, want: []int{1, 3, 3, 4}, wantOK: true},
		{name: "a stray continuation byte stays with the rune before it", text: "\x80\x80",
			lens: []int{3, 3}, want: []int{2, 2}, wantOK: true},
		{name: "a token spanning valid text and a U+FFFD ends after the invalid byte", text: "ab\xff",
			lens: []int{1, 4}, want: []int{1, 3}, wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var r *repair
			if !utf8.ValidString(tt.text) {
				rep := repairUTF8(tt.text)
				r = &rep
			}
			got, ok := ends(tt.text, r, append([]int(nil), tt.lens...))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ends(%q, %v) (-want +got):\n%s", tt.text, tt.lens, diff)
			}
			if ok != tt.wantOK {
				t.Errorf("ends(%q, %v) ok = %v, want %v", tt.text, tt.lens, ok, tt.wantOK)
			}
		})
	}
}
