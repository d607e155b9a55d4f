package sdk

import (
	"context"
	"fmt"
	"strings"
)

// Piece is one part of a text counted through a Retained: the bytes [Start, End) of the
// retained text number Text, or, when Text is negative, Literal.
type Piece struct {
	Text       int
	Start, End int
	Literal    string
}

// LiteralPiece returns the Piece that stands for s itself.
func LiteralPiece(s string) Piece { return Piece{Text: -1, Literal: s} }

// Retained counts texts made of pieces of the texts of one RetainBoundaries call, so that a
// counter across a process boundary is not sent them again. CountPieces returns one count per
// item: the count of the concatenation of its pieces, exactly what Count would return for that
// string. A Retained is safe for concurrent use; the texts it holds stay the caller's.
type Retained interface {
	CountPieces(ctx context.Context, items [][]Piece) ([]int, error)
}

// Retainer is an optional ability of a TokenCounter: Boundaries that also keeps its texts, so
// that texts made of their pieces can be counted without sending the texts again. Plugin
// clients have it (protocol 1.1); in-process counters need not, since nothing is sent. Use
// RetainBoundaries, which falls back to Boundaries and Count for any other counter.
type Retainer interface {
	Count(ctx context.Context, texts []string) ([]int, error)
	Boundaries(ctx context.Context, texts []string) ([][]int, error)
	RetainBoundaries(ctx context.Context, texts []string) ([][]int, Retained, error)
}

// RetainBoundaries returns tc's Boundaries of texts and a Retained that counts pieces of them:
// through tc's own RetainBoundaries when tc is a Retainer, otherwise a Retained that builds
// each item's text from texts and counts it with tc.Count. texts must not change while the
// Retained is used.
func RetainBoundaries(ctx context.Context, tc TokenCounter, texts []string) ([][]int, Retained, error) {
	if r, ok := tc.(Retainer); ok {
		return r.RetainBoundaries(ctx, texts)
	}
	bounds, err := tc.Boundaries(ctx, texts)
	if err != nil {
		return nil, nil, err
	}
	return bounds, CountingRetained{Counter: tc, Texts: texts}, nil
}

// CountingRetained is the Retained of a counter without the ability: it builds each item's
// text from Texts and counts them all with one Count call.
type CountingRetained struct {
	Counter TokenCounter
	Texts   []string
}

// CountPieces builds the items' texts (see Build) and counts them with one Count call.
func (c CountingRetained) CountPieces(ctx context.Context, items [][]Piece) ([]int, error) {
	texts, err := Build(c.Texts, items)
	if err != nil {
		return nil, err
	}
	return c.Counter.Count(ctx, texts)
}

// Build returns the text of each item, its pieces of texts concatenated. A piece naming a text
// that is not there or a range outside it is an error matching ErrInvalidInput.
func Build(texts []string, items [][]Piece) ([]string, error) {
	out := make([]string, len(items))
	for i, item := range items {
		if len(item) == 1 {
			s, err := piece(texts, item[0])
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			out[i] = s
			continue
		}
		var sb strings.Builder
		for j, p := range item {
			s, err := piece(texts, p)
			if err != nil {
				return nil, fmt.Errorf("item %d piece %d: %w", i, j, err)
			}
			sb.WriteString(s)
		}
		out[i] = sb.String()
	}
	return out, nil
}

// CheckPieces reports the first piece of items that names a text not in texts or a range
// outside its text, as an error matching ErrInvalidInput, as Build does, without building the
// texts: what a Retained checks before it sends pieces to be counted.
func CheckPieces(texts []string, items [][]Piece) error {
	for i, item := range items {
		for j, p := range item {
			if _, err := piece(texts, p); err != nil {
				return fmt.Errorf("item %d piece %d: %w", i, j, err)
			}
		}
	}
	return nil
}

func piece(texts []string, p Piece) (string, error) {
	if p.Text < 0 {
		return p.Literal, nil
	}
	if p.Text >= len(texts) {
		return "", fmt.Errorf("%w: piece of text %d, but %d texts are retained", ErrInvalidInput, p.Text, len(texts))
	}
	t := texts[p.Text]
	if p.Start < 0 || p.Start > p.End || p.End > len(t) {
		return "", fmt.Errorf("%w: piece [%d, %d) outside text %d of %d bytes", ErrInvalidInput, p.Start, p.End, p.Text, len(t))
	}
	return t[p.Start:p.End], nil
}
