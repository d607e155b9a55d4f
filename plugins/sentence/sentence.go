package sentence

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	uax29 "github.com/clipperhouse/uax29/v2/sentences"
	punkt "github.com/neurosnap/sentences"
	"github.com/neurosnap/sentences/english"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// The model names New accepts.
const (
	// PunktEnglish ("punkt:en") selects Punkt with its English model.
	PunktEnglish = "punkt:en"
	// UAX29 ("uax29") selects the Unicode UAX #29 sentence boundaries.
	UAX29 = "uax29"
)

// Models returns the model names New accepts, sorted: "punkt:en", "uax29".
func Models() []string { return []string{PunktEnglish, UAX29} }

// New returns the splitter for model, "punkt:en" or "uax29". Any other model, including "",
// is an error matching sdk.ErrUnsupported that lists both. Loading the Punkt model
// decompresses and parses its embedded training data (a few milliseconds); a model that
// fails to load is an error matching sdk.ErrInvalidConfig. The splitter is safe for
// concurrent use.
func New(model string) (sdk.SentenceSplitter, error) {
	switch model {
	case PunktEnglish:
		tok, err := english.NewSentenceTokenizer(nil)
		if err != nil {
			return nil, fmt.Errorf("sentence: load the punkt:en model: %v: %w", err, sdk.ErrInvalidConfig)
		}
		return &Splitter{name: PunktEnglish, engine: punktEngine{tok}}, nil
	case UAX29:
		return &Splitter{name: UAX29, engine: uaxEngine{}}, nil
	}
	return nil, fmt.Errorf("sentence: unknown model %q; want %q or %q: %w", model, PunktEnglish, UAX29, sdk.ErrUnsupported)
}

// NewSplitters returns what the sentence plugin serves: a registry of the models of New by
// name, each loaded on first use and then shared, with the errors of New. The model ""
// selects "punkt:en".
func NewSplitters() *plugin.SplitterMap {
	return &plugin.SplitterMap{
		Names:   Models(),
		Default: PunktEnglish,
		Load:    func(_ context.Context, model string) (sdk.SentenceSplitter, error) { return New(model) },
	}
}

// Splitter is a sentence splitter returned by New. It implements sdk.SentenceSplitter and
// sdk.Namer and is safe for concurrent use. The zero value is not usable: its Split returns
// an error matching sdk.ErrInvalidConfig; call New.
type Splitter struct {
	name   string
	engine engine
}

// engine proposes sentence ends for one text; normalize turns them into the sdk contract.
type engine interface {
	ends(text string) []int
}

// Name returns the model the splitter was made for: "punkt:en" or "uax29".
func (s *Splitter) Name() string { return s.name }

// Split returns, for each text, the end byte offset of each sentence: strictly increasing,
// on rune boundaries, the last equal to len(text); nil for a text with no non-space rune.
// White space after a sentence belongs to it. Split checks ctx before each text and, once
// ctx is done, returns an error that wraps ctx.Err() and names the text it stopped at. It
// never fails otherwise: invalid UTF-8 is split like any other text.
func (s *Splitter) Split(ctx context.Context, texts []string) ([][]int, error) {
	if s.engine == nil {
		return nil, fmt.Errorf("sentence: Split on a zero Splitter; make one with New: %w", sdk.ErrInvalidConfig)
	}
	out := make([][]int, len(texts))
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sentence %s: text %d of %d: %w", s.name, i, len(texts), err)
		}
		out[i] = s.Ends(text)
	}
	return out, nil
}

// Ends returns the sentence ends of one text, as Split does. s must come from New.
func (s *Splitter) Ends(text string) []int {
	if sdk.IsBlank(text) {
		return nil
	}
	return normalize(text, s.engine.ends(text))
}

// normalize turns an engine's proposed ends, in any order and possibly out of range, inside
// runes or before white space, into ends that meet the sdk contract: each is moved forward
// past any white space (which belongs to the sentence before) and onto a rune boundary, ends
// that would leave a sentence without a non-space rune are dropped, and len(text) closes the
// list. text must not be blank.
func normalize(text string, proposed []int) []int {
	ends := make([]int, 0, len(proposed)+1)
	prev := 0
	// nextStart(text, from) == reach, and every byte of text[from:reach] is skipped by it, so
	// nextStart of any proposal in [from, reach] is reach: remembering it keeps a run of
	// proposals inside one long stretch of white space linear. rejected is the last end
	// dropped for leaving a blank sentence, so that check also runs once per end.
	from, reach, rejected := -1, -1, -1
	for _, e := range proposed {
		if e <= prev || e >= len(text) {
			continue
		}
		if e >= from && e <= reach {
			e = reach
		} else {
			from, reach = e, nextStart(text, e)
			e = reach
		}
		if e <= prev || e >= len(text) || e == rejected {
			continue
		}
		if sdk.IsBlank(text[prev:e]) {
			rejected = e
			continue
		}
		ends = append(ends, e)
		prev = e
	}
	return append(ends, len(text))
}

// nextStart returns the first offset at or after i where a sentence may start: a byte that
// starts a rune (utf8.RuneStart, so a stray continuation byte of invalid UTF-8 stays with the
// sentence before) and is not white space; len(text) if there is none.
func nextStart(text string, i int) int {
	for i < len(text) {
		if !utf8.RuneStart(text[i]) {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

// punktEngine proposes the ends of the sentences Punkt finds.
type punktEngine struct {
	tok *punkt.DefaultSentenceTokenizer
}

// ends maps Punkt's sentences back to byte offsets. Punkt reports each sentence's byte range
// with its text; a range whose text does not match is located by searching for the trimmed
// sentence text after the previous end, and dropped if it cannot be found, so a
// misreported range can only merge sentences, never lose or reorder bytes.
func (p punktEngine) ends(text string) []int {
	short, runs := squeeze(text, spaceRun, punktSpace)
	return unsqueezeAll(runs, punktEnds(short, p.tok.Tokenize(short)))
}

// punktEnds maps Punkt's sentences of text to proposed ends, as punktEngine.ends describes.
func punktEnds(text string, sents []*punkt.Sentence) []int {
	ends := make([]int, 0, len(sents))
	cursor := 0
	for _, s := range sents {
		if s.Start >= 0 && s.Start <= s.End && s.End <= len(text) && text[s.Start:s.End] == s.Text && s.End > cursor {
			ends = append(ends, s.End)
			cursor = s.End
			continue
		}
		want := strings.TrimSpace(s.Text)
		if want == "" {
			continue
		}
		if i := strings.Index(text[cursor:], want); i >= 0 {
			cursor += i + len(want)
			ends = append(ends, cursor)
		}
	}
	return ends
}

// uaxEngine proposes the ends of UAX #29 sentences.
type uaxEngine struct{}

func (uaxEngine) ends(text string) []int {
	short, runs := squeeze(text, classRun, uaxRepeat)
	var ends []int
	it := uax29.FromString(short)
	for it.Next() {
		ends = append(ends, it.End())
	}
	return unsqueezeAll(runs, ends)
}
