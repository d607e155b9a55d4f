package convert

import (
	"fmt"
	"unsafe"
)

// Int64s returns xs as int64s, the wire form of counts and offsets. A nil slice stays nil.
func Int64s(xs []int) []int64 {
	if xs == nil {
		return nil
	}
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

// Ints returns xs as ints. It fails, naming the index, when a value does not fit an int (only
// possible where int has 32 bits). A nil slice stays nil. Range checks such as "not negative"
// belong to the caller, which knows what the numbers mean.
func Ints(xs []int64) ([]int, error) {
	if xs == nil {
		return nil, nil
	}
	out := make([]int, len(xs))
	for i, x := range xs {
		if int64(int(x)) != x {
			return nil, fmt.Errorf("convert: value %d at index %d does not fit an int", x, i)
		}
		out[i] = int(x)
	}
	return out, nil
}

// Bytes returns texts as byte slices, the wire form of texts. Each text is copied. A nil slice
// stays nil.
func Bytes(texts []string) [][]byte {
	if texts == nil {
		return nil
	}
	out := make([][]byte, len(texts))
	for i, t := range texts {
		out[i] = []byte(t)
	}
	return out
}

// Strings returns wire texts as strings. Each text is copied, so the result does not alias a
// request buffer. A nil slice stays nil.
func Strings(texts [][]byte) []string {
	if texts == nil {
		return nil
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = string(t)
	}
	return out
}

// BytesView returns texts as byte slices that share the strings' memory instead of copying
// them: the wire form of a request that is only encoded (proto.Marshal reads its fields and
// keeps nothing). The slices must never be written to: the strings' memory is read-only.
func BytesView(texts []string) [][]byte {
	if texts == nil {
		return nil
	}
	out := make([][]byte, len(texts))
	for i, t := range texts {
		out[i] = unsafe.Slice(unsafe.StringData(t), len(t))
	}
	return out
}

// StringsView returns wire texts as strings that share the slices' memory instead of copying
// them: the texts of a decoded request, whose byte slices the decoder allocated for that message
// alone. Nothing may write to the slices afterwards, for as long as the strings are in use.
func StringsView(texts [][]byte) []string {
	if texts == nil {
		return nil
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = StringView(t)
	}
	return out
}

// StringView is StringsView of one text.
func StringView(text []byte) string { return unsafe.String(unsafe.SliceData(text), len(text)) }
