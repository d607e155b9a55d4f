package bpe

import (
	"encoding/binary"
	"fmt"
)

// The .tokens format, which gen writes and ReadTokens reads: a vocabulary with nothing to
// decode. A four-byte little-endian count n of token ids, then n bytes each the length of the
// token of that id (0 for an id without a token), then the tokens' bytes in id order.

// TokensFile returns the .tokens file of the tokens data[starts[id]:starts[id+1]], as
// ParseTiktoken returns them. Tokens are at most 255 bytes long (maxTokenLen).
func TokensFile(data string, starts []uint32) ([]byte, error) {
	n := len(starts) - 1
	out := make([]byte, 4+n, 4+n+len(data))
	binary.LittleEndian.PutUint32(out, uint32(n))
	for id := range n {
		l := starts[id+1] - starts[id]
		if l > maxTokenLen {
			return nil, fmt.Errorf("%w: token %d is %d bytes long, more than %d", errFormat, id, l, maxTokenLen)
		}
		out[4+id] = byte(l)
	}
	return append(out, data[starts[0]:starts[n]]...), nil
}

// ReadTokens reads a .tokens file into the tokens' bytes and their start offsets, as
// ParseTiktoken gives them: token id is data[starts[id]:starts[id+1]]. data is a substring of
// file, not a copy. An error says what is wrong with the file.
func ReadTokens(file string) (data string, starts []uint32, err error) {
	if len(file) < 4 {
		return "", nil, fmt.Errorf("%w: a .tokens file of %d bytes has no header", errFormat, len(file))
	}
	n := int(binary.LittleEndian.Uint32([]byte(file[:4])))
	if n > len(file)-4 {
		return "", nil, fmt.Errorf("%w: a .tokens file of %d bytes cannot hold the lengths of %d tokens", errFormat, len(file), n)
	}
	lens, data := file[4:4+n], file[4+n:]
	starts = make([]uint32, n+1)
	var at uint32
	for id := range n {
		at += uint32(lens[id])
		starts[id+1] = at
	}
	if int(at) != len(data) {
		return "", nil, fmt.Errorf("%w: the token lengths of a .tokens file add up to %d bytes, but it holds %d", errFormat, at, len(data))
	}
	return data, starts, nil
}
