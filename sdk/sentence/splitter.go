package sentence

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// Splitter is the rule-based sentence splitter described in the package documentation. It
// implements sdk.SentenceSplitter and sdk.Namer.
//
// The zero value is ready to use and applies the built-in English rules. A Splitter is safe
// for concurrent use as long as Abbreviations is not modified while a Split call runs.
type Splitter struct {
	// Abbreviations extends the built-in list with words after which a period never ends a
	// sentence (a blank line still does), such as "approx", "z.B." or "Abb". Matching is
	// case-insensitive; a final period and surrounding white space are ignored, and empty
	// entries are. The slice is read by every Split call and never modified.
	Abbreviations []string
}

var (
	_ sdk.SentenceSplitter = Splitter{}
	_ sdk.Namer            = Splitter{}
)

// Default returns a Splitter with the built-in English rules and no extra abbreviations,
// the same as the zero value.
func Default() *Splitter { return &Splitter{} }

// Name returns "rules".
func (Splitter) Name() string { return "rules" }

// Split returns, for each text, the end byte offset of each of its sentences: strictly
// increasing, on rune boundaries, the last equal to len(text). The entry for a text with no
// non-space rune (empty or white space only) is nil. Split checks ctx before each text and,
// once ctx is done, returns an error that wraps ctx.Err() and names the text it stopped at.
// It never fails otherwise: invalid UTF-8 is split like any other text.
func (s Splitter) Split(ctx context.Context, texts []string) ([][]int, error) {
	r := newRules(s.Abbreviations)
	out := make([][]int, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sentence: split text %d of %d: %w", i, len(texts), err)
		}
		out[i] = r.ends(t)
	}
	return out, nil
}

// Ends returns the end byte offset of each sentence of text under the built-in rules, as
// Splitter.Split does for one text: nil for a text with no non-space rune.
func Ends(text string) []int {
	var r rules
	return r.ends(text)
}
