package bpe

import "fmt"

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
func ParseTiktoken(file []byte) (data string, starts []uint32, err error) {
	buf := make([]byte, 0, len(file)*3/4)
	starts = make([]uint32, 1, len(file)/8)
	line := 0
	for at := 0; at < len(file); {
		line++
		if file[at] == '\n' {
			at++
			continue
		}
		// The token: groups of four base64 characters, the last padded with '='.
		var acc uint32
		nbits := 0
		for ; at < len(file) && file[at] != ' '; at++ {
			c := file[at]
			if c == '=' {
				continue
			}
			d := b64[c]
			if d == 0xFF {
				return "", nil, fmt.Errorf("%w: line %d: byte %q is not base64", errFormat, line, c)
			}
			acc = acc<<6 | uint32(d)
			if nbits += 6; nbits >= 8 {
				nbits -= 8
				buf = append(buf, byte(acc>>nbits))
			}
		}
		if at >= len(file) {
			return "", nil, fmt.Errorf("%w: line %d: no rank", errFormat, line)
		}
		at++ // the space
		rank, digits := 0, 0
		for ; at < len(file) && file[at] != '\n'; at++ {
			c := file[at]
			if c < '0' || c > '9' || digits > 9 {
				return "", nil, fmt.Errorf("%w: line %d: rank is not a number", errFormat, line)
			}
			rank, digits = rank*10+int(c-'0'), digits+1
		}
		if digits == 0 {
			return "", nil, fmt.Errorf("%w: line %d: no rank", errFormat, line)
		}
		if rank < len(starts)-1 {
			return "", nil, fmt.Errorf("%w: line %d: rank %d is not above the line before's", errFormat, line, rank)
		}
		end := uint32(len(buf))
		for len(starts) <= rank {
			starts = append(starts, starts[len(starts)-1]) // ranks the file skips: empty
		}
		starts = append(starts, end)
	}
	return string(buf), starts, nil
}
