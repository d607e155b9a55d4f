package codec

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
)

func TestCodecWritesWhatProtobufWritesAndReadsItBack(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 3, 100_000} { // nothing, under the pooling threshold, over it
		t.Run(strings.Repeat("x", min(n, 3)), func(t *testing.T) {
			t.Parallel()
			msg := &tokenizerv1.CountRequest{Model: "cl100k_base", Texts: [][]byte{[]byte(strings.Repeat("word ", n)), {}}}
			want, err := proto.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			data, err := Codec{}.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			if got := data.Materialize(); !bytes.Equal(want, got) {
				t.Fatalf("Marshal wrote %d bytes unlike proto.Marshal's %d", len(got), len(want))
			}
			// Split the bytes over several buffers, as frames arrive.
			var split mem.BufferSlice
			for b := data.Materialize(); len(b) > 0; {
				k := min(len(b), 16<<10)
				split = append(split, mem.SliceBuffer(b[:k]))
				b = b[k:]
			}
			data.Free()
			var back tokenizerv1.CountRequest
			if err := (Codec{}).Unmarshal(split, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(msg, &back, protocmp.Transform()); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCodecRefusesWhatIsNotAMessage(t *testing.T) {
	t.Parallel()
	if _, err := (Codec{}).Marshal("text"); err == nil || !strings.Contains(err.Error(), "not a proto.Message") {
		t.Errorf("Marshal(string) = %v, want an error", err)
	}
	if err := (Codec{}).Unmarshal(nil, new(int)); err == nil || !strings.Contains(err.Error(), "not a proto.Message") {
		t.Errorf("Unmarshal into *int = %v, want an error", err)
	}
	if Codec.Name(Codec{}) != "proto" {
		t.Errorf("Name = %q, want gRPC's proto", Codec{}.Name())
	}
}

func TestPoolTiers(t *testing.T) {
	t.Parallel()
	p := newTiered(12, 16)
	tests := []struct {
		name      string
		size, cap int
	}{
		{name: "a small buffer comes from the smallest tier", size: 10, cap: 4096},
		{name: "a power of two fits its own tier", size: 8192, cap: 8192},
		{name: "one byte over takes the next tier", size: 8193, cap: 16384},
		{name: "above the largest tier it is allocated to size", size: 70000, cap: 70000},
	}
	for _, tt := range tests {
		b := p.Get(tt.size)
		if len(*b) != tt.size || cap(*b) != tt.cap {
			t.Errorf("%s: Get(%d) has len %d cap %d, want %d and %d", tt.name, tt.size, len(*b), cap(*b), tt.size, tt.cap)
		}
		p.Put(b)
	}
	b := p.Get(5000)
	(*b)[0] = 42
	p.Put(b)
	// sync.Pool may drop it, but when it comes back it is the same, uncleared buffer.
	if c := p.Get(6000); cap(*c) != 8192 || len(*c) != 6000 || (c == b && (*c)[0] != 42) {
		t.Errorf("Get(6000) after a Put: len %d cap %d", len(*c), cap(*c))
	}
	odd := make([]byte, 5000)
	p.Put(&odd) // not a tier's capacity: dropped, never handed out short
	for range 10 {
		if c := p.Get(8000); cap(*c) < 8000 {
			t.Fatalf("Get(8000) handed out a buffer of cap %d", cap(*c))
		}
	}
}
