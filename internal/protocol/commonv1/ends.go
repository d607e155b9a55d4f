package commonv1

import (
	"fmt"

	"github.com/chunkkit/chunkkit/internal/protocol/convert"
)

// NewEndsList returns the wire form of per-text offsets, one Ends per text, in order. A nil or
// empty list of offsets becomes an Ends with no offsets.
func NewEndsList(bounds [][]int) []*Ends {
	out := make([]*Ends, len(bounds))
	for i, b := range bounds {
		out[i] = &Ends{Ends: convert.Int64s(b)}
	}
	return out
}

// EndsLists returns per-text offsets from their wire form, one list per Ends, in order. A nil
// Ends or one with no offsets becomes a nil list. It fails, naming the text, when an offset does
// not fit an int; other range checks are the caller's (sdk.CheckBoundaries).
func EndsLists(list []*Ends) ([][]int, error) {
	out := make([][]int, len(list))
	for i, e := range list {
		ends := e.GetEnds()
		if len(ends) == 0 {
			continue
		}
		b, err := convert.Ints(ends)
		if err != nil {
			return nil, fmt.Errorf("commonv1: ends of text %d: %w", i, err)
		}
		out[i] = b
	}
	return out, nil
}
