package conformance

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

// SourceMapping checks that every chunk of a document parsed from the text file src says
// where in src its text is, as adapters/markdown's Parse and ParseText make chunkers say it:
// see CheckSource for the laws. It fails t with the first chunk that breaks one.
func SourceMapping(t testing.TB, src []byte, chunks []sdk.Chunk) {
	t.Helper()
	if err := CheckSource(src, chunks); err != nil {
		t.Fatal(err)
	}
}

// CheckSource returns an error naming the first chunk whose position in src is wrong, or nil.
// The laws, for each chunk whose Content holds more than its rendered prefix
// (Metadata[sdk.MetaPrefix]):
//
//   - it has a position: LineStart ≥ 1;
//   - 0 ≤ SourceStart < SourceEnd ≤ len(src), and LineStart and LineEnd are the 1-based lines
//     of src holding SourceStart and SourceEnd-1 ("\n", "\r\n" and a lone "\r" end a line);
//   - file := src[SourceStart:SourceEnd] holds the chunk's text, the Content less its
//     prefix: its lines appear in file in order, the first at the start and the last at the
//     end, so that a one-line text is file itself. Between them file may hold what the
//     canonical text leaves out (heading markers, indentation, line-ending CRs, blank lines).
func CheckSource(src []byte, chunks []sdk.Chunk) error {
	lines := lineStarts(src)
	for _, c := range chunks {
		prefix, _ := c.Metadata[sdk.MetaPrefix].(string)
		text := strings.TrimPrefix(c.Content, prefix)
		if sdk.IsBlank(text) {
			continue
		}
		where := fmt.Sprintf("chunk %s (position %d, canonical [%d, %d))", c.ID, c.Position, c.Start, c.End)
		if c.LineStart < 1 {
			return fmt.Errorf("%s has no position in the source (line_start %d)", where, c.LineStart)
		}
		if c.SourceStart < 0 || c.SourceEnd <= c.SourceStart || c.SourceEnd > len(src) {
			return fmt.Errorf("%s: source range [%d, %d) is not a non-empty range of the %d-byte source", where, c.SourceStart, c.SourceEnd, len(src))
		}
		if a, b := lineOf(lines, c.SourceStart), lineOf(lines, c.SourceEnd-1); a != c.LineStart || b != c.LineEnd {
			return fmt.Errorf("%s: source range [%d, %d) is on lines %d–%d, the chunk says %d–%d", where, c.SourceStart, c.SourceEnd, a, b, c.LineStart, c.LineEnd)
		}
		file := src[c.SourceStart:c.SourceEnd]
		want := strings.Split(text, "\n")
		if len(want) == 1 {
			if string(file) != text {
				return fmt.Errorf("%s: source [%d, %d) holds %q, not the chunk's text %q", where, c.SourceStart, c.SourceEnd, clip(string(file)), clip(text))
			}
			continue
		}
		if !bytes.HasPrefix(file, []byte(want[0])) {
			return fmt.Errorf("%s: source [%d, %d) = %q does not start with the chunk's first line %q", where, c.SourceStart, c.SourceEnd, clip(string(file)), clip(want[0]))
		}
		last := want[len(want)-1]
		if !bytes.HasSuffix(file, []byte(last)) {
			return fmt.Errorf("%s: source [%d, %d) = %q does not end with the chunk's last line %q", where, c.SourceStart, c.SourceEnd, clip(string(file)), clip(last))
		}
		rest := file[len(want[0]) : len(file)-len(last)]
		for i, l := range want[1 : len(want)-1] {
			k := bytes.Index(rest, []byte(l))
			if k < 0 {
				return fmt.Errorf("%s: line %d of the chunk's text, %q, is not in the source [%d, %d) after the lines before it", where, i+2, clip(l), c.SourceStart, c.SourceEnd)
			}
			rest = rest[k+len(l):]
		}
	}
	return nil
}

// lineStarts returns the offset of every line of src; "\r\n" and a lone "\r" end a line as
// "\n" does.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case '\n':
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the 1-based line holding byte off.
func lineOf(starts []int, off int) int {
	lo, hi := 0, len(starts) // the last start ≤ off
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// clip shortens s to 60 runes for an error message.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
