package bpe

import (
	"bufio"
	"fmt"
	"io"
	"unsafe"
)

// b64 maps a standard base64 character to its 6 bits; 0xFF marks any other byte.
var b64 = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = byte(i)
	}
	return t
}()

// ParseTiktoken reads a .tiktoken file, one "BASE64 RANK" line per token with ranks
// increasing, into the tokens' bytes concatenated by rank and their start offsets: token r
// is data[starts[r]:starts[r+1]], empty for a rank the file skips. An error names the line.
// It reads r through a 64 KB buffer, so an embedded file is not copied whole first.
func ParseTiktoken(r io.Reader) (data string, starts []uint32, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	buf := make([]byte, 0, 1<<20)
	starts = make([]uint32, 1, 1<<16)
	for line := 1; ; line++ {
		text, err := br.ReadSlice('\n')
		if err == io.EOF && len(text) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return "", nil, fmt.Errorf("%w: line %d: %w", errFormat, line, err)
		}
		if len(text) > 0 && text[len(text)-1] == '\n' {
			text = text[:len(text)-1]
		}
		if len(text) == 0 {
			continue
		}
		if buf, starts, err = parseLine(text, line, buf, starts); err != nil {
			return "", nil, err
		}
	}
	// buf is never written again: the string shares its memory instead of copying it.
	return unsafe.String(unsafe.SliceData(buf), len(buf)), starts, nil
}

// parseLine appends the token of one line to buf and its end to starts.
func parseLine(text []byte, line int, buf []byte, starts []uint32) ([]byte, []uint32, error) {
	// The token: groups of four base64 characters, the last padded with '='.
	var acc uint32
	nbits, at := 0, 0
	for ; at < len(text) && text[at] != ' '; at++ {
		c := text[at]
		if c == '=' {
			continue
		}
		d := b64[c]
		if d == 0xFF {
			return nil, nil, fmt.Errorf("%w: line %d: byte %q is not base64", errFormat, line, c)
		}
		acc = acc<<6 | uint32(d)
		if nbits += 6; nbits >= 8 {
			nbits -= 8
			buf = append(buf, byte(acc>>nbits))
		}
	}
	at++ // the space
	rank, digits := 0, 0
	for ; at < len(text); at++ {
		c := text[at]
		if c < '0' || c > '9' || digits > 9 {
			return nil, nil, fmt.Errorf("%w: line %d: rank is not a number", errFormat, line)
		}
		rank, digits = rank*10+int(c-'0'), digits+1
	}
	if digits == 0 {
		return nil, nil, fmt.Errorf("%w: line %d: no rank", errFormat, line)
	}
	if rank < len(starts)-1 {
		return nil, nil, fmt.Errorf("%w: line %d: rank %d is not above the line before's", errFormat, line, rank)
	}
	for len(starts) <= rank {
		starts = append(starts, starts[len(starts)-1]) // ranks the file skips: empty
	}
	return buf, append(starts, uint32(len(buf))), nil
}
