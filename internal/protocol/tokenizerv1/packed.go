package tokenizerv1

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// The packed form of composite texts (protocol 1.2, CountRangesRequest.packed_texts): for each
// composite, its number of pieces, then each piece as an unsigned varint x followed, when x is
// even, by a literal of x/2 bytes, or, when x is odd, by three varints (the index in handles
// of the range's handle, its start, and its end minus its start), x/2 being the range's text.

// AppendPackedComposite appends the start of a composite of n pieces to b.
func AppendPackedComposite(b []byte, n int) []byte {
	return protowire.AppendVarint(b, uint64(n))
}

// AppendPackedLiteral appends a literal piece to b.
func AppendPackedLiteral(b []byte, lit string) []byte {
	b = protowire.AppendVarint(b, uint64(len(lit))<<1)
	return append(b, lit...)
}

// AppendPackedRange appends the piece [start, end) of text text of the retained texts whose
// handle is handles[handle] to b. start must not be above end.
func AppendPackedRange(b []byte, handle int, text uint32, start, end uint64) []byte {
	b = protowire.AppendVarint(b, uint64(text)<<1|1)
	b = protowire.AppendVarint(b, uint64(handle))
	b = protowire.AppendVarint(b, start)
	return protowire.AppendVarint(b, end-start)
}

// PackedRangeSize is the most bytes AppendPackedRange appends when every number is below
// 2^35 (a 32 GiB text): what a host adds to a request's size per range.
const PackedRangeSize = 4 * 5

// PackedPiece is one piece of a packed composite: Literal when IsLiteral, otherwise the range
// [Start, End) of text Text of the retained texts named by handles[Handle].
type PackedPiece struct {
	IsLiteral  bool
	Literal    []byte // aliases the packed bytes
	Handle     uint64 // an index into CountRangesRequest.handles
	Text       uint32
	Start, End uint64
}

// RangePackedTexts calls f for every piece of every composite of data, the packed_texts of a
// request, with the composite's index and the piece's within it, and then calls done with each composite's index once
// its pieces are through; it returns the number of composites. It stops at the first error of
// f or done, and fails, naming the composite and piece, on data that is not the packed form (a
// varint cut short, a literal longer than what is left, a text index over 2^32, an end that
// overflows).
func RangePackedTexts(data []byte, f func(composite, piece int, p PackedPiece) error, done func(composite int) error) (int, error) {
	next := func(what string, c, j int) (uint64, error) {
		v, k := protowire.ConsumeVarint(data)
		if k < 0 {
			if j < 0 {
				return 0, fmt.Errorf("packed texts: composite %d: %s: %w", c, what, protowire.ParseError(k))
			}
			return 0, fmt.Errorf("packed texts: composite %d piece %d: %s: %w", c, j, what, protowire.ParseError(k))
		}
		data = data[k:]
		return v, nil
	}
	c := 0
	for ; len(data) > 0; c++ {
		n, err := next("number of pieces", c, -1)
		if err != nil {
			return c, err
		}
		if n > uint64(len(data)) { // every piece takes at least one byte
			return c, fmt.Errorf("packed texts: composite %d: %d pieces in %d bytes left", c, n, len(data))
		}
		for j := 0; j < int(n); j++ {
			x, err := next("kind", c, j)
			if err != nil {
				return c, err
			}
			var p PackedPiece
			if x&1 == 0 {
				size := x >> 1
				if size > uint64(len(data)) {
					return c, fmt.Errorf("packed texts: composite %d piece %d: a literal of %d bytes, %d left", c, j, size, len(data))
				}
				p.IsLiteral, p.Literal = true, data[:size:size]
				data = data[size:]
			} else {
				text := x >> 1
				if text > math.MaxUint32 {
					return c, fmt.Errorf("packed texts: composite %d piece %d: text index %d", c, j, text)
				}
				p.Text = uint32(text)
				if p.Handle, err = next("handle", c, j); err != nil {
					return c, err
				}
				if p.Start, err = next("start", c, j); err != nil {
					return c, err
				}
				size, err := next("length", c, j)
				if err != nil {
					return c, err
				}
				p.End = p.Start + size
				if p.End < p.Start {
					return c, fmt.Errorf("packed texts: composite %d piece %d: start %d plus length %d overflows", c, j, p.Start, size)
				}
			}
			if err := f(c, j, p); err != nil {
				return c, err
			}
		}
		if err := done(c); err != nil {
			return c, err
		}
	}
	return c, nil
}
