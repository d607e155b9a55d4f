package commonv1

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"
)

func TestPackedRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		bounds [][]int
		wire   []byte
		back   [][]int
	}{
		{name: "no texts are no bytes", bounds: [][]int{}, wire: nil, back: [][]int{}},
		{name: "a text of no offsets is a zero count and comes back nil", bounds: [][]int{{}, nil}, wire: []byte{0, 0}, back: [][]int{nil, nil}},
		{name: "offsets travel as steps from the one before", bounds: [][]int{{3, 7}, {5}, {1, 1, 4}}, wire: []byte{2, 3, 4, 1, 5, 3, 1, 0, 3}, back: [][]int{{3, 7}, {5}, {1, 1, 4}}},
		{name: "the example of docs/protocol.md", bounds: [][]int{{3, 7}, {}, {5}}, wire: []byte{2, 3, 4, 0, 1, 5}, back: [][]int{{3, 7}, nil, {5}}},
		{name: "a step of 128 or more takes two bytes", bounds: [][]int{{200, 201}}, wire: []byte{2, 0xc8, 0x01, 1}, back: [][]int{{200, 201}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wire, err := AppendPacked(nil, tt.bounds)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wire, wire); diff != "" {
				t.Errorf("AppendPacked(%v) (-want +got):\n%s", tt.bounds, diff)
			}
			back, err := Packed(wire, len(tt.bounds))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.back, back); diff != "" {
				t.Errorf("Packed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPackedListsDoNotShareCapacity(t *testing.T) {
	t.Parallel()
	wire, _ := AppendPacked(nil, [][]int{{1, 2}, {3}})
	back, err := Packed(wire, 2)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(back[0], 99)
	if back[1][0] != 3 {
		t.Errorf("appending to the first list changed the second: %v", back[1])
	}
}

func TestAppendPackedRefusesDecreasingOffsets(t *testing.T) {
	t.Parallel()
	for _, bounds := range [][][]int{{{5}, {4, 2}}, {{-1}}} {
		if _, err := AppendPacked(nil, bounds); err == nil || !strings.Contains(err.Error(), "below the one before") {
			t.Errorf("AppendPacked(%v) = %v, want an error about a decreasing offset", bounds, err)
		}
	}
}

func TestPackedRefusesMalformedData(t *testing.T) {
	t.Parallel()
	huge := protowire.AppendVarint(protowire.AppendVarint([]byte{2}, 1<<63), 1<<63)
	tests := []struct {
		name  string
		data  []byte
		texts int
		want  string
	}{
		{name: "fewer texts than asked", data: []byte{1, 3}, texts: 2, want: "text 1: count"},
		{name: "more bytes than texts", data: []byte{1, 3, 0}, texts: 1, want: "1 bytes after the last of 1 texts"},
		{name: "more offsets than bytes", data: []byte{5, 1, 1}, texts: 1, want: "5 offsets in 2 bytes left"},
		{name: "a varint cut short", data: []byte{2, 1, 0x80}, texts: 1, want: "text 0: offset 1"},
		{name: "offsets past an int", data: huge, texts: 1, want: "does not fit an int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Packed(tt.data, tt.texts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Packed(% x, %d) = %v, want an error containing %q", tt.data, tt.texts, err, tt.want)
			}
		})
	}
}

func FuzzPacked(f *testing.F) {
	f.Add([]byte{2, 3, 4, 1, 5, 3, 1, 0, 3}, 3)
	f.Add([]byte{0, 0}, 2)
	f.Add([]byte{2, 0xc8, 0x01, 1}, 1)
	f.Fuzz(func(t *testing.T, data []byte, texts int) {
		if texts < 0 || texts > 1<<16 {
			return
		}
		bounds, err := Packed(data, texts)
		if err != nil {
			return
		}
		if len(bounds) != texts {
			t.Fatalf("%d lists for %d texts", len(bounds), texts)
		}
		again, err := AppendPacked(nil, bounds)
		if err != nil {
			t.Fatalf("decoded offsets do not encode: %v", err)
		}
		back, err := Packed(again, texts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(bounds, back); diff != "" {
			t.Errorf("re-encoded offsets differ (-first +second):\n%s", diff)
		}
	})
}

// BenchmarkPacked packs and unpacks the token ends of 1 MiB of English-like text in 64 texts,
// a RetainBoundaries answer's worth: ~4 bytes a token, and one token in 64 of 200 bytes.
func BenchmarkPacked(b *testing.B) {
	bounds := make([][]int, 64)
	tokens := 0
	for i := range bounds {
		end := 0
		for j := 0; end < 16<<10; j++ {
			end += 1 + (i+j)%7
			if j%64 == 63 {
				end += 200
			}
			bounds[i] = append(bounds[i], end)
			tokens++
		}
	}
	packed, err := AppendPacked(nil, bounds)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=pack", func(b *testing.B) {
		b.SetBytes(int64(tokens))
		buf := make([]byte, 0, len(packed))
		for b.Loop() {
			if buf, err = AppendPacked(buf[:0], bounds); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=unpack", func(b *testing.B) {
		b.SetBytes(int64(tokens))
		for b.Loop() {
			if _, err := Packed(packed, len(bounds)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
