package convert

import (
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

func TestInt64sAndIntsRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []int
		wire []int64
	}{
		{name: "nil stays nil", in: nil, wire: nil},
		{name: "empty stays empty", in: []int{}, wire: []int64{}},
		{name: "values keep their order", in: []int{0, 3, 7, 7, 12}, wire: []int64{0, 3, 7, 7, 12}},
		{name: "negative values pass through for the caller to judge", in: []int{-1}, wire: []int64{-1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wire := Int64s(tt.in)
			if diff := cmp.Diff(tt.wire, wire); diff != "" {
				t.Errorf("Int64s(%v) (-want +got):\n%s", tt.in, diff)
			}
			if (wire == nil) != (tt.wire == nil) {
				t.Errorf("Int64s(%v) = %#v, nil-ness differs from %#v", tt.in, wire, tt.wire)
			}
			back, err := Ints(wire)
			if err != nil {
				t.Fatalf("Ints(%v): %v", wire, err)
			}
			if diff := cmp.Diff(tt.in, back); diff != "" {
				t.Errorf("Ints(Int64s(x)) (-want +got):\n%s", diff)
			}
			if (back == nil) != (tt.in == nil) {
				t.Errorf("Ints(%v) = %#v, nil-ness differs from %#v", wire, back, tt.in)
			}
		})
	}
}

func TestBytesAndStringsRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		wire [][]byte
	}{
		{name: "nil stays nil", in: nil, wire: nil},
		{name: "an empty text stays empty", in: []string{""}, wire: [][]byte{{}}},
		{name: "multi-byte text keeps its bytes", in: []string{"héllo", "日本"}, wire: [][]byte{[]byte("héllo"), []byte("日本")}},
		{name: "invalid UTF-8 survives byte for byte", in: []string{"a\xffb"}, wire: [][]byte{{'a', 0xff, 'b'}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wire := Bytes(tt.in)
			if diff := cmp.Diff(tt.wire, wire); diff != "" {
				t.Errorf("Bytes(%q) (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.in, Strings(wire)); diff != "" {
				t.Errorf("Strings(Bytes(x)) (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBytesCopiesTheText(t *testing.T) {
	t.Parallel()
	wire := [][]byte{[]byte("abc")}
	s := Strings(wire)
	wire[0][0] = 'X'
	if s[0] != "abc" {
		t.Errorf("Strings aliased its input: got %q after the buffer changed, want %q", s[0], "abc")
	}
}

func TestViewsShareMemoryAndKeepContents(t *testing.T) {
	t.Parallel()
	texts := []string{"", "héllo", "a\xffb"}
	views := BytesView(texts)
	for i, v := range views {
		if string(v) != texts[i] {
			t.Errorf("BytesView[%d] = %q, want %q", i, v, texts[i])
		}
	}
	if len(texts[1]) > 0 && &views[1][0] != unsafe.StringData(texts[1]) {
		t.Error("BytesView copied the text")
	}
	back := StringsView(views)
	if diff := cmp.Diff(texts, back); diff != "" {
		t.Errorf("StringsView(BytesView(texts)) (-want +got):\n%s", diff)
	}
	if unsafe.StringData(back[1]) != &views[1][0] {
		t.Error("StringsView copied the bytes")
	}
	if BytesView(nil) != nil || StringsView(nil) != nil {
		t.Error("nil did not stay nil")
	}
}
