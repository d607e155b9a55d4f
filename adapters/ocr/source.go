package ocr

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// readSource reads all of r and checks that it is UTF-8. what names the input format in
// errors.
func readSource(r io.Reader, what string, opts Options) ([]byte, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("ocr: reading %s %q: %w", what, opts.ID, err)
	}
	if err := checkUTF8(src, opts.ID, what); err != nil {
		return nil, err
	}
	return src, nil
}

// checkSource checks opts and that src, the bytes of a what, is UTF-8, as readSource does.
func checkSource(src []byte, what string, opts Options) error {
	if err := opts.check(); err != nil {
		return err
	}
	return checkUTF8(src, opts.ID, what)
}

// checkUTF8 returns an *sdk.InputError naming the first invalid byte of src by offset and line.
func checkUTF8(src []byte, docID, what string) error {
	if utf8.Valid(src) {
		return nil
	}
	off := sdk.InvalidUTF8At(string(src))
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	return &sdk.InputError{
		Document: docID,
		Block:    -1,
		Offset:   off,
		Problem:  fmt.Sprintf("%s: line %d: invalid UTF-8 (0x%02x); OCR output must be UTF-8", what, line, src[off]),
	}
}

// inputError returns an *sdk.InputError at byte offset off of the source (or -1).
func inputError(docID string, off int, field, format string, args ...any) error {
	return &sdk.InputError{Document: docID, Block: -1, Offset: off, Field: field, Problem: fmt.Sprintf(format, args...)}
}
