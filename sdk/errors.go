package sdk

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Sentinel errors. They survive a process boundary: a plugin's gRPC status maps back to the same
// sentinel, so errors.Is works whether a counter runs in-process or as a plugin.
var (
	// ErrInvalidInput marks input that cannot be chunked or counted as given.
	ErrInvalidInput = errors.New("chunkkit: invalid input")
	// ErrInvalidConfig marks a configuration that cannot work, such as overlap ≥ budget.
	ErrInvalidConfig = errors.New("chunkkit: invalid configuration")
	// ErrUnsupported marks a request the implementation does not support, such as an unknown
	// encoding or an RPC an older plugin lacks.
	ErrUnsupported = errors.New("chunkkit: unsupported")
	// ErrUnavailable marks a counter or splitter that cannot be reached, such as a crashed plugin.
	ErrUnavailable = errors.New("chunkkit: unavailable")
	// ErrBadResponse marks an answer that breaks the interface contract, such as a count
	// missing from a batch or boundaries that do not end at len(text).
	ErrBadResponse = errors.New("chunkkit: bad response")
)

// InputError says where a document is bad and what is wrong. It matches ErrInvalidInput.
type InputError struct {
	// Document is the document's ID.
	Document string
	// Block is the index of the offending block, or -1.
	Block int
	// Offset is the byte offset in the block's text — or, when Block is -1, in the source the
	// document was parsed from — or -1 when it does not apply.
	Offset int
	// Field names the offending field, such as "text" or "level".
	Field string
	// Problem says what is wrong.
	Problem string
}

func (e *InputError) Error() string {
	s := "chunkkit: invalid input: document " + strconv.Quote(e.Document)
	if e.Block >= 0 {
		s += " block " + itoa(e.Block)
	}
	if e.Field != "" {
		s += " field " + e.Field
	}
	if e.Offset >= 0 {
		s += " at byte " + itoa(e.Offset)
	}
	return s + ": " + e.Problem
}

// Is reports whether target is ErrInvalidInput.
func (e *InputError) Is(target error) bool { return target == ErrInvalidInput }

// CheckCounts verifies a Count answer against its request: one count per text, none negative,
// 0 for the empty text. It returns an error matching ErrBadResponse otherwise.
func CheckCounts(texts []string, counts []int) error {
	if len(counts) != len(texts) {
		return fmt.Errorf("%w: %d counts for %d texts", ErrBadResponse, len(counts), len(texts))
	}
	for i, c := range counts {
		if c < 0 {
			return fmt.Errorf("%w: text %d: negative count %d", ErrBadResponse, i, c)
		}
		if c != 0 && texts[i] == "" {
			return fmt.Errorf("%w: text %d is empty but counted %d tokens", ErrBadResponse, i, c)
		}
	}
	return nil
}

// CheckBoundaries verifies a Boundaries answer against its request: one list per text, each
// non-decreasing, within the text, on rune boundaries and ending at len(text) when not empty,
// and none for the empty text. It returns an error matching ErrBadResponse otherwise.
func CheckBoundaries(texts []string, bounds [][]int) error {
	if len(bounds) != len(texts) {
		return fmt.Errorf("%w: %d boundary lists for %d texts", ErrBadResponse, len(bounds), len(texts))
	}
	for i, bs := range bounds {
		text := texts[i]
		prev := 0
		for j, b := range bs {
			if b < prev || b > len(text) {
				return fmt.Errorf("%w: text %d: boundary %d is %d, after %d, text length %d", ErrBadResponse, i, j, b, prev, len(text))
			}
			if b < len(text) && !utf8.RuneStart(text[b]) {
				return fmt.Errorf("%w: text %d: boundary %d at byte %d is inside a rune", ErrBadResponse, i, j, b)
			}
			prev = b
		}
		if len(bs) > 0 && text == "" {
			return fmt.Errorf("%w: text %d is empty but has %d boundaries", ErrBadResponse, i, len(bs))
		}
		if len(bs) > 0 && bs[len(bs)-1] != len(text) {
			return fmt.Errorf("%w: text %d: last boundary %d is not the text length %d", ErrBadResponse, i, bs[len(bs)-1], len(text))
		}
	}
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }
