package commonv1

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// The packed form of per-text offsets (protocol 1.1, tokenizer.proto's packed_ends): for each
// text, its number of offsets, then each offset minus the previous one (the first minus 0),
// every number an unsigned varint.

// AppendPacked appends the packed form of bounds to buf and returns it. It fails, naming the
// text, on an offset that is negative or smaller than the one before it, which the packed form
// cannot carry (and which no valid answer has).
func AppendPacked(buf []byte, bounds [][]int) ([]byte, error) {
	for i, b := range bounds {
		buf = protowire.AppendVarint(buf, uint64(len(b)))
		prev := 0
		for j, e := range b {
			if e < prev {
				return nil, fmt.Errorf("commonv1: text %d: offset %d at index %d is below the one before it (%d)", i, e, j, prev)
			}
			if d := uint64(e - prev); d < 0x80 {
				buf = append(buf, byte(d)) // most tokens: protowire's is a call per offset
			} else {
				buf = protowire.AppendVarint(buf, d)
			}
			prev = e
		}
	}
	return buf, nil
}

// PackedSize returns the size of the packed form of bounds when every offset is less than 128
// past the one before it, as token ends are but for tokens of over 127 bytes: the capacity to
// give AppendPacked's buffer.
func PackedSize(bounds [][]int) int {
	n := 0
	for _, b := range bounds {
		n += protowire.SizeVarint(uint64(len(b))) + len(b)
	}
	return n
}

// Packed returns the offsets of texts texts from their packed form: one list per text, nil for
// a text of none. The lists share one backing array, each capped at its length, so appending to
// one never writes into another. It fails, naming the text, when data holds fewer or more texts,
// a number that is not a varint, more offsets than bytes left, or an offset that does not fit
// an int; other range checks are the caller's (sdk.CheckBoundaries).
func Packed(data []byte, texts int) ([][]int, error) {
	out := make([][]int, texts)
	// Every offset takes at least one byte, and so does every text's count.
	all := make([]int, 0, max(0, len(data)-texts))
	for i := range out {
		n, k := protowire.ConsumeVarint(data)
		if k < 0 {
			return nil, fmt.Errorf("commonv1: packed ends of text %d: count: %w", i, protowire.ParseError(k))
		}
		data = data[k:]
		if n > uint64(len(data)) {
			return nil, fmt.Errorf("commonv1: packed ends of text %d: %d offsets in %d bytes left", i, n, len(data))
		}
		if n == 0 {
			continue
		}
		lo := len(all)
		end := uint64(0)
		for j := uint64(0); j < n; j++ {
			var d uint64
			if len(data) > 0 && data[0] < 0x80 {
				d, data = uint64(data[0]), data[1:] // most tokens: a call per offset costs more
			} else {
				v, k := protowire.ConsumeVarint(data)
				if k < 0 {
					return nil, fmt.Errorf("commonv1: packed ends of text %d: offset %d: %w", i, j, protowire.ParseError(k))
				}
				d, data = v, data[k:]
			}
			end += d
			if end < d || end > uint64(maxInt) {
				return nil, fmt.Errorf("commonv1: packed ends of text %d: offset %d does not fit an int", i, j)
			}
			all = append(all, int(end))
		}
		out[i] = all[lo:len(all):len(all)]
	}
	if len(data) > 0 {
		return nil, fmt.Errorf("commonv1: packed ends: %d bytes after the last of %d texts", len(data), texts)
	}
	return out, nil
}

const maxInt = int(^uint(0) >> 1)
