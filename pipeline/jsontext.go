package pipeline

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// jsonText is the "text" of a JSONL line: the string literal as it lies in the line, kept by
// json.Unmarshal (which hands an Unmarshaler its value's bytes in the input it was given) and
// decoded where it lies once the line has been checked whole (decode). A JSON string's
// escapes are never shorter than what they stand for, so the decoded text fits in its literal:
// a 50 MB document costs its line and not a decoded copy besides (bench/rss.sh, "JSONL").
type jsonText struct {
	raw []byte // the literal, quotes included
}

// UnmarshalJSON keeps b, a string literal; any other value is the error json gives a string
// field for it.
func (t *jsonText) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		t.raw, _ = json.Marshal(s) // not a bare literal: one of its own
		return nil
	}
	t.raw = b
	return nil
}

// decode returns the text, decoded as json.Unmarshal decodes a string, in place: it writes
// over the literal, so nothing may read the line as JSON after it. A literal with bytes that
// are not UTF-8 (which json turns into U+FFFD, three bytes for one) is decoded into a new
// string instead.
func (t *jsonText) decode() []byte {
	s, ok := unquoteInPlace(t.raw)
	if ok {
		return s[:len(s):len(s)] // an append must not write over the rest of the line
	}
	var text string
	if err := json.Unmarshal(t.raw, &text); err != nil || text == "" {
		return []byte{} // cannot fail: the line was decoded whole before
	}
	return unsafe.Slice(unsafe.StringData(text), len(text))
}

// unquoteInPlace decodes lit, a JSON string literal that json.Valid accepts, as
// json.Unmarshal does, writing the text over lit from its second byte on, and returns it
// (aliasing lit). It reports false, having written nothing, when lit holds bytes that are not
// UTF-8.
func unquoteInPlace(lit []byte) ([]byte, bool) {
	s := lit[1 : len(lit)-1]
	if !utf8.Valid(s) { // escapes are ASCII: the literal is UTF-8 where the text is
		return nil, false
	}
	esc := bytes.IndexByte(s, '\\')
	if esc < 0 {
		return s, true
	}
	w, r := esc, esc
	for r < len(s) {
		if s[r] != '\\' {
			n := bytes.IndexByte(s[r:], '\\')
			if n < 0 {
				n = len(s) - r
			}
			w += copy(s[w:], s[r:r+n])
			r += n
			continue
		}
		c := s[r+1]
		r += 2
		switch c {
		case 'b':
			s[w] = '\b'
		case 'f':
			s[w] = '\f'
		case 'n':
			s[w] = '\n'
		case 'r':
			s[w] = '\r'
		case 't':
			s[w] = '\t'
		case 'u':
			rr := hex4(s[r:])
			r += 4
			if utf16.IsSurrogate(rr) {
				// A pair is one rune; a lone half is U+FFFD, as json has it.
				if r+6 <= len(s) && s[r] == '\\' && s[r+1] == 'u' {
					if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != utf8.RuneError {
						r += 6
						w += utf8.EncodeRune(s[w:], dec)
						continue
					}
				}
				rr = utf8.RuneError
			}
			w += utf8.EncodeRune(s[w:], rr)
			continue
		default: // '"', '\\', '/': the scanner allows no other escape
			s[w] = c
		}
		w++
	}
	return s[:w], true
}

// hex4 returns the value of the four hexadecimal digits b starts with, or -1 when it does not.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		v = v<<4 | rune(c)
	}
	return v
}
