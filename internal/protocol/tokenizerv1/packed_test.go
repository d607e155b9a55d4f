package tokenizerv1

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// composite is a composite text as a test writes it: literal pieces and ranges.
type composite []PackedPiece

func lit(s string) PackedPiece { return PackedPiece{IsLiteral: true, Literal: []byte(s)} }

func pack(cs []composite) []byte {
	var b []byte
	for _, c := range cs {
		b = AppendPackedComposite(b, len(c))
		for _, p := range c {
			if p.IsLiteral {
				b = AppendPackedLiteral(b, string(p.Literal))
			} else {
				b = AppendPackedRange(b, int(p.Handle), p.Text, p.Start, p.End)
			}
		}
	}
	return b
}

func unpack(data []byte) ([]composite, error) {
	var out []composite
	var cur composite
	n, err := RangePackedTexts(data,
		func(_, _ int, p PackedPiece) error { cur = append(cur, p); return nil },
		func(int) error { out = append(out, cur); cur = nil; return nil })
	if err == nil && n != len(out) {
		return nil, errors.New("the count differs from the composites seen")
	}
	return out, err
}

func TestPackedTextsRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []composite{
		{},
		{lit("")},
		{lit("a context › "), {Handle: 0, Text: 3, Start: 5, End: 13}, lit("\n\n"), {Handle: 2, Text: 1 << 31, Start: 1 << 33, End: 1<<33 + 7}},
		{{Handle: 1, Text: 0, Start: 0, End: 0}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var c composite
		for range r.IntN(6) {
			if r.IntN(2) == 0 {
				c = append(c, lit(strings.Repeat("x", r.IntN(300))))
			} else {
				s := r.Uint64N(1 << 40)
				c = append(c, PackedPiece{Handle: r.Uint64N(70), Text: r.Uint32(), Start: s, End: s + r.Uint64N(1<<20)})
			}
		}
		cases = append(cases, c)
	}
	data := pack(cases)
	got, err := unpack(data)
	if err != nil {
		t.Fatal(err)
	}
	// A composite of no pieces decodes as nil, and so does a literal of no bytes.
	norm := func(cs []composite) []composite {
		for i, c := range cs {
			if len(c) == 0 {
				cs[i] = nil
			}
			for j := range c {
				if len(c[j].Literal) == 0 {
					c[j].Literal = nil
				}
			}
		}
		return cs
	}
	if diff := cmp.Diff(norm(cases), norm(got)); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, c := range cases {
		size := 0
		for _, p := range c {
			if !p.IsLiteral {
				size = len(AppendPackedRange(nil, int(p.Handle), p.Text, p.Start, p.End))
				if size > PackedRangeSize {
					t.Errorf("a range of %d bytes, over PackedRangeSize %d", size, PackedRangeSize)
				}
			}
		}
	}
}

func TestPackedTextsThatAreNotThePackedFormFail(t *testing.T) {
	t.Parallel()
	good := pack([]composite{{lit("abc"), {Handle: 0, Text: 1, Start: 2, End: 5}}})
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"a count cut short", []byte{0x80}, "composite 0: number of pieces"},
		{"more pieces than bytes", []byte{5, 0}, "5 pieces in 1 bytes left"},
		{"a literal past the end", []byte{1, 8, 'a'}, "a literal of 4 bytes, 1 left"},
		{"a range cut short", good[:len(good)-1], "composite 0 piece 1: length"},
		{"an end that overflows", []byte{1, 1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "overflows"},
	} {
		_, err := unpack(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	// A text index of 2^32 does not fit Range.text.
	big := []byte{1}
	big = appendVarint(big, (1<<32)<<1|1)
	big = append(big, 0, 0, 0)
	if _, err := unpack(big); err == nil || !strings.Contains(err.Error(), "text index 4294967296") {
		t.Errorf("a text index of 2^32: err = %v", err)
	}
}

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// FuzzPackedTexts decodes any bytes without panicking and, for those that decode, checks that
// packing what was decoded decodes to the same pieces.
func FuzzPackedTexts(f *testing.F) {
	f.Add(pack([]composite{{lit("abc"), {Handle: 0, Text: 1, Start: 2, End: 5}}, {}}))
	f.Add([]byte{1, 8, 'a'})
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := unpack(data)
		if err != nil {
			return
		}
		again, err := unpack(pack(cs))
		if err != nil {
			t.Fatalf("re-packed pieces do not decode: %v", err)
		}
		if !cmp.Equal(cs, again, cmp.Comparer(func(a, b []byte) bool { return string(a) == string(b) })) {
			t.Fatalf("re-packed pieces differ: %v, %v", cs, again)
		}
	})
}

// TestPackedTextsAsDocumented checks the example of docs/protocol.md.
func TestPackedTextsAsDocumented(t *testing.T) {
	t.Parallel()
	got := pack([]composite{{lit("ctx › "), {Handle: 0, Text: 0, Start: 4, End: 13}}, {}})
	want := []byte{0x02, 0x10, 0x63, 0x74, 0x78, 0x20, 0xe2, 0x80, 0xba, 0x20, 0x01, 0x00, 0x04, 0x09, 0x00}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("packed (-docs +got):\n%s", diff)
	}
}
