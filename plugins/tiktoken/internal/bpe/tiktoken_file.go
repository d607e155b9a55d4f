package bpe

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
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
// It reads r through a 64 KB buffer, so an embedded file is not copied whole first; when r is
// an fs.File that is also an io.ReaderAt (an embedded file is), it parses the two halves of
// the file at once.
func ParseTiktoken(r io.Reader) (data string, starts []uint32, err error) {
	if f, ok := r.(interface {
		io.ReaderAt
		Stat() (fs.FileInfo, error)
	}); ok {
		if info, err := f.Stat(); err == nil && info.Size() > 1<<20 {
			return parseHalves(f, info.Size())
		}
	}
	p := newParse(1<<20, 1<<16, 0)
	if err := p.read(r, 1); err != nil {
		return "", nil, err
	}
	return p.result(), p.starts, nil
}

// parse is a .tiktoken file, or part of one, being read: the bytes of the tokens so far and
// their ends, starts[i] being where the token of rank base+i starts. A part that does not
// start the file has base -1 until its first line sets it.
type parse struct {
	buf    []byte
	starts []uint32
	base   int
	lines  int
}

func newParse(bytes, tokens, base int) *parse {
	return &parse{buf: make([]byte, 0, bytes), starts: make([]uint32, 1, tokens), base: base}
}

// result returns the tokens' bytes as a string that shares the buffer's memory: it is never
// written again.
func (p *parse) result() string { return unsafe.String(unsafe.SliceData(p.buf), len(p.buf)) }

// read parses r, whose first line is the file's line number first.
func (p *parse) read(r io.Reader, first int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for line := first; ; line++ {
		text, err := br.ReadSlice('\n')
		if err == io.EOF && len(text) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%w: line %d: %w", errFormat, line, err)
		}
		if len(text) > 0 && text[len(text)-1] == '\n' {
			text = text[:len(text)-1]
		}
		p.lines++
		if len(text) == 0 {
			continue
		}
		if err := p.line(text, line); err != nil {
			return err
		}
	}
	if p.base < 0 {
		p.base = 0
	}
	return nil
}

// parseHalves parses f, of size bytes, as two halves split at a line end, at once.
func parseHalves(f io.ReaderAt, size int64) (string, []uint32, error) {
	// The second half starts after the first newline past the middle.
	mid := size / 2
	window := make([]byte, 512)
	n, err := f.ReadAt(window, mid)
	if err != nil && err != io.EOF {
		return "", nil, fmt.Errorf("%w: %w", errFormat, err)
	}
	i := bytes.IndexByte(window[:n], '\n')
	if i < 0 {
		return "", nil, fmt.Errorf("%w: a line of more than 512 bytes near byte %d", errFormat, mid)
	}
	mid += int64(i) + 1
	first, second := newParse(int(mid)/2, int(mid)/8, 0), newParse(int(size-mid)/2, int(size-mid)/8, -1)
	var wg sync.WaitGroup
	var err2 error
	wg.Go(func() { err2 = second.read(io.NewSectionReader(f, mid, size-mid), 0) })
	err1 := first.read(io.NewSectionReader(f, 0, mid), 1)
	wg.Wait()
	if err1 != nil {
		return "", nil, err1
	}
	if err2 != nil {
		// Line numbers in the second half count from its start: report them from the file's.
		var pe *lineError
		if errors.As(err2, &pe) {
			return "", nil, fmt.Errorf("%w: line %d: %s", errFormat, pe.line+first.lines+1, pe.msg)
		}
		return "", nil, err2
	}
	if second.base < len(first.starts)-1 {
		return "", nil, fmt.Errorf("%w: line %d: rank %d is not above the line before's", errFormat, first.lines+1, second.base)
	}
	buf := append(first.buf, second.buf...)
	starts := first.starts
	for len(starts)-1 < second.base {
		starts = append(starts, starts[len(starts)-1]) // ranks the file skips: empty
	}
	shift := uint32(len(first.buf))
	for _, s := range second.starts[1:] {
		starts = append(starts, s+shift)
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf)), starts, nil
}

// lineError is a malformed line: its number within the part parsed, and what is wrong.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("%v: line %d: %s", errFormat, e.line, e.msg) }
func (e *lineError) Unwrap() error { return errFormat }

// line appends the token of one line.
func (p *parse) line(text []byte, line int) error {
	sp := bytes.IndexByte(text, ' ')
	if sp < 0 {
		return &lineError{line, "no rank"}
	}
	// The token: groups of four base64 characters, the last padded with '='.
	enc := text[:sp]
	for len(enc) > 0 && enc[len(enc)-1] == '=' {
		enc = enc[:len(enc)-1]
	}
	buf := p.buf
	i := 0
	for ; i+4 <= len(enc); i += 4 {
		a, b, c, d := b64[enc[i]], b64[enc[i+1]], b64[enc[i+2]], b64[enc[i+3]]
		if (a|b|c|d)&0xC0 != 0 {
			return notBase64(enc, line)
		}
		v := uint32(a)<<18 | uint32(b)<<12 | uint32(c)<<6 | uint32(d)
		buf = append(buf, byte(v>>16), byte(v>>8), byte(v))
	}
	switch rest := enc[i:]; len(rest) {
	case 0:
	case 2, 3:
		var v uint32
		for _, ch := range rest {
			d := b64[ch]
			if d&0xC0 != 0 {
				return notBase64(enc, line)
			}
			v = v<<6 | uint32(d)
		}
		if len(rest) == 2 {
			buf = append(buf, byte(v>>4))
		} else {
			buf = append(buf, byte(v>>10), byte(v>>2))
		}
	default:
		return &lineError{line, "token is not base64 (one character too many)"}
	}
	rank, digits := 0, 0
	for _, c := range text[sp+1:] {
		if c < '0' || c > '9' || digits > 9 {
			return &lineError{line, "rank is not a number"}
		}
		rank, digits = rank*10+int(c-'0'), digits+1
	}
	if digits == 0 {
		return &lineError{line, "no rank"}
	}
	if p.base < 0 {
		p.base = rank
	}
	if rank < p.base+len(p.starts)-1 {
		return &lineError{line, fmt.Sprintf("rank %d is not above the line before's", rank)}
	}
	for p.base+len(p.starts) <= rank {
		p.starts = append(p.starts, p.starts[len(p.starts)-1]) // ranks the file skips: empty
	}
	p.buf = buf
	p.starts = append(p.starts, uint32(len(buf)))
	return nil
}

// notBase64 is the error for a token with a byte that is not base64.
func notBase64(enc []byte, line int) error {
	for _, c := range enc {
		if b64[c] == 0xFF {
			return &lineError{line, fmt.Sprintf("byte %q is not base64", c)}
		}
	}
	return &lineError{line, "token is not base64"}
}
