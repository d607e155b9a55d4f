package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// TokenCounter checks that tc keeps the laws of sdk.TokenCounter, each law as a subtest of t:
//
//   - Count("") is 0 and Boundaries("") is empty;
//   - for every text any law sends, Count equals the number of Boundaries;
//   - for every text of a built-in corpus (prose, code, white space, CJK, emoji sequences,
//     combining marks, right-to-left scripts, special-token text, a 100 kB run of one letter,
//     mixed newlines), there are as many boundaries as tokens, the boundaries pass
//     sdk.CheckBoundaries, and a text with a non-space rune has at least one token;
//   - a batch gets the same answers as its texts sent one by one, in the same order, and an
//     empty batch gets an empty answer;
//   - eight goroutines calling at once get the same answers (run the kit under -race);
//   - a call with a cancelled context either fails with an error matching context.Canceled or
//     returns the correct answer: an in-process counter may finish before it looks at the
//     context, and a plugin reports codes.Canceled, which the host maps to context.Canceled;
//   - special-token text such as "<|endoftext|>" is ordinary text: never rejected, at least one
//     token, and never fewer tokens than its own prefix "<|endoftext" (a counter that knows it
//     as one control token counts 1 for it and more for the prefix);
//   - sdk.RetainBoundaries answers as Boundaries, and its Retained counts texts made of pieces
//     of the texts (ranges, literals, several texts, none) exactly as Count counts the texts
//     built (sdk.Build): for a counter that is an sdk.Retainer (a plugin of protocol 1.1 and
//     later, through the host) this checks what it keeps and how it counts ranges of it.
//
// The laws hold for sdk.Words and sdk.Runes, so none of them assumes a subword tokenizer.
func TokenCounter(t *testing.T, tc sdk.TokenCounter) {
	t.Helper()
	runLaws(t, counterLaws(), tc)
}

// counterLaws returns the laws TokenCounter checks, in the order it runs them.
func counterLaws() []law[sdk.TokenCounter] {
	return []law[sdk.TokenCounter]{
		{"the empty string has zero tokens and no boundaries", counterEmptyString},
		{"every text has one boundary per token, on rune boundaries, the last at its length", counterBoundariesMatchCounts},
		{"a text with a non-space rune has at least one token", counterNonBlankHasTokens},
		{"a batch gets the same answers as its texts one by one", counterBatchEqualsSingles},
		{"a reversed batch gets the answers reversed", counterOrderPreserved},
		{"an empty batch gets an empty answer", counterEmptyBatch},
		{"concurrent batches get the same answers", counterConcurrent},
		{"a cancelled context gives context.Canceled or the correct answer", counterCancelled},
		{"special-token text is counted as ordinary text", counterSpecialTokens},
		{"pieces of retained texts count as the texts they make", counterRetained},
	}
}

// counterAnswers asks tc for the counts and boundaries of texts, checks the answers' shape with
// sdk.CheckCounts and sdk.CheckBoundaries, and checks that Count equals the number of
// Boundaries for every text: so every law, whatever texts it sends, checks that too.
func counterAnswers(ctx context.Context, tc sdk.TokenCounter, texts []string) ([]int, [][]int, error) {
	counts, err := tc.Count(ctx, texts)
	if err != nil {
		return nil, nil, fmt.Errorf("Count of %d texts: %w", len(texts), err)
	}
	if err := sdk.CheckCounts(texts, counts); err != nil {
		return nil, nil, fmt.Errorf("Count of %d texts: %w", len(texts), err)
	}
	bounds, err := tc.Boundaries(ctx, texts)
	if err != nil {
		return nil, nil, fmt.Errorf("Boundaries of %d texts: %w", len(texts), err)
	}
	if err := sdk.CheckBoundaries(texts, bounds); err != nil {
		return nil, nil, fmt.Errorf("Boundaries of %d texts: %w", len(texts), err)
	}
	for i, text := range texts {
		if counts[i] != len(bounds[i]) {
			return nil, nil, fmt.Errorf("text %d of %d %s: Count = %d but Boundaries gives %d offsets", i, len(texts), quote(text), counts[i], len(bounds[i]))
		}
	}
	return counts, bounds, nil
}

func counterEmptyString(ctx context.Context, tc sdk.TokenCounter) error {
	counts, bounds, err := counterAnswers(ctx, tc, []string{""})
	if err != nil {
		return err
	}
	if counts[0] != 0 {
		return fmt.Errorf(`Count("") = %d, want 0`, counts[0])
	}
	if len(bounds[0]) != 0 {
		return fmt.Errorf(`Boundaries("") = %v, want none`, bounds[0])
	}
	return nil
}

func counterBoundariesMatchCounts(ctx context.Context, tc sdk.TokenCounter) error {
	// counterAnswers checks the boundaries and their number; one text at a time, so that every
	// sample that breaks the law is named.
	var errs []error
	for _, s := range counterCorpus() {
		if _, _, err := counterAnswers(ctx, tc, []string{s.text}); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
		}
	}
	return errors.Join(errs...)
}

func counterNonBlankHasTokens(ctx context.Context, tc sdk.TokenCounter) error {
	corpus := counterCorpus()
	counts, _, err := counterAnswers(ctx, tc, texts(corpus))
	if err != nil {
		return err
	}
	var errs []error
	for i, s := range corpus {
		if !sdk.IsBlank(s.text) && counts[i] == 0 {
			errs = append(errs, fmt.Errorf("%s %s: Count = 0 for a text that is not blank", s.name, quote(s.text)))
		}
	}
	return errors.Join(errs...)
}

func counterBatchEqualsSingles(ctx context.Context, tc sdk.TokenCounter) error {
	corpus := counterCorpus()
	// The first text appears again at the end: a batch may repeat a text.
	batch := append(texts(corpus), corpus[0].text)
	names := append(sampleNames(corpus), corpus[0].name)
	counts, bounds, err := counterAnswers(ctx, tc, batch)
	if err != nil {
		return err
	}
	var errs []error
	for i, text := range batch {
		c, b, err := counterAnswers(ctx, tc, []string{text})
		if err != nil {
			return fmt.Errorf("%s alone: %w", names[i], err)
		}
		if c[0] != counts[i] {
			errs = append(errs, fmt.Errorf("%s: Count = %d alone, %d at index %d of a batch", names[i], c[0], counts[i], i))
		}
		if !slices.Equal(b[0], bounds[i]) {
			errs = append(errs, fmt.Errorf("%s: Boundaries alone differ from index %d of a batch: %s", names[i], i, firstDifference(b[0], bounds[i])))
		}
	}
	return errors.Join(errs...)
}

func counterOrderPreserved(ctx context.Context, tc sdk.TokenCounter) error {
	corpus := counterCorpus()
	ts := texts(corpus)
	counts, bounds, err := counterAnswers(ctx, tc, ts)
	if err != nil {
		return err
	}
	rcounts, rbounds, err := counterAnswers(ctx, tc, reversed(ts))
	if err != nil {
		return fmt.Errorf("reversed batch: %w", err)
	}
	var errs []error
	if got := reversed(rcounts); !slices.Equal(got, counts) {
		errs = append(errs, fmt.Errorf("Count of the reversed batch, reversed back = %v, want %v", got, counts))
	}
	for i, b := range reversed(rbounds) {
		if !slices.Equal(b, bounds[i]) {
			errs = append(errs, fmt.Errorf("%s: Boundaries differ in the reversed batch: %s", corpus[i].name, firstDifference(bounds[i], b)))
		}
	}
	return errors.Join(errs...)
}

func counterEmptyBatch(ctx context.Context, tc sdk.TokenCounter) error {
	var errs []error
	for _, batch := range [][]string{nil, {}} {
		counts, err := tc.Count(ctx, batch)
		if err != nil {
			errs = append(errs, fmt.Errorf("Count(%#v): %w", batch, err))
		} else if len(counts) != 0 {
			errs = append(errs, fmt.Errorf("Count(%#v) = %v, want an empty answer", batch, counts))
		}
		bounds, err := tc.Boundaries(ctx, batch)
		if err != nil {
			errs = append(errs, fmt.Errorf("Boundaries(%#v): %w", batch, err))
		} else if len(bounds) != 0 {
			errs = append(errs, fmt.Errorf("Boundaries(%#v) = %v, want an empty answer", batch, bounds))
		}
	}
	return errors.Join(errs...)
}

func counterConcurrent(ctx context.Context, tc sdk.TokenCounter) error {
	corpus := counterCorpus()
	ts := texts(corpus)
	counts, bounds, err := counterAnswers(ctx, tc, ts)
	if err != nil {
		return err
	}
	errs := make([]error, concurrentGoroutines)
	var wg sync.WaitGroup
	for g := range concurrentGoroutines {
		wg.Go(func() {
			// Each goroutine sends the corpus in another order, so that answers put in the
			// wrong batch or the wrong slot show up as differences.
			gc, gb, err := counterAnswers(ctx, tc, rotated(ts, g))
			if err != nil {
				errs[g] = fmt.Errorf("goroutine %d: %w", g, err)
				return
			}
			if want := rotated(counts, g); !slices.Equal(gc, want) {
				errs[g] = fmt.Errorf("goroutine %d: Count = %v, want %v", g, gc, want)
				return
			}
			for i, b := range rotated(bounds, g) {
				if !slices.Equal(gb[i], b) {
					errs[g] = fmt.Errorf("goroutine %d: Boundaries of %s differ: %s", g, corpus[(i+g)%len(corpus)].name, firstDifference(b, gb[i]))
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func counterCancelled(ctx context.Context, tc sdk.TokenCounter) error {
	ts := texts(counterCorpus())
	counts, bounds, err := counterAnswers(ctx, tc, ts)
	if err != nil {
		return err
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	var errs []error
	if got, err := tc.Count(cancelled, ts); err != nil {
		if !errors.Is(err, context.Canceled) {
			errs = append(errs, fmt.Errorf("Count with a cancelled context: error %q does not match context.Canceled", err))
		}
	} else if !slices.Equal(got, counts) {
		errs = append(errs, fmt.Errorf("Count with a cancelled context returned no error and a wrong answer %v, want %v", got, counts))
	}
	if got, err := tc.Boundaries(cancelled, ts); err != nil {
		if !errors.Is(err, context.Canceled) {
			errs = append(errs, fmt.Errorf("Boundaries with a cancelled context: error %q does not match context.Canceled", err))
		}
	} else if !slices.EqualFunc(got, bounds, slices.Equal) {
		errs = append(errs, errors.New("Boundaries with a cancelled context returned no error and a wrong answer"))
	}
	return errors.Join(errs...)
}

func counterSpecialTokens(ctx context.Context, tc sdk.TokenCounter) error {
	specials := []string{"<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"}
	var batch []string
	for _, s := range specials {
		batch = append(batch, s, strings.TrimSuffix(s, "|>"))
	}
	counts, _, err := counterAnswers(ctx, tc, batch)
	if err != nil {
		return fmt.Errorf("special-token text: %w", err)
	}
	var errs []error
	for i, s := range specials {
		whole, prefix := counts[2*i], counts[2*i+1]
		if whole < 1 {
			errs = append(errs, fmt.Errorf("Count(%q) = %d, want at least 1", s, whole))
		}
		if whole < prefix {
			errs = append(errs, fmt.Errorf("Count(%q) = %d is less than Count(%q) = %d: the text is treated as a control token, not as text", s, whole, batch[2*i+1], prefix))
		}
	}
	return errors.Join(errs...)
}

func sampleNames(samples []sample) []string {
	out := make([]string, len(samples))
	for i, s := range samples {
		out[i] = s.name
	}
	return out
}

// firstDifference describes where two offset lists first differ.
func firstDifference(want, got []int) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("offset %d is %d, want %d", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d offsets, want %d", len(got), len(want))
}

// counterRetained checks sdk.RetainBoundaries and the Retained it returns against Boundaries
// and Count.
func counterRetained(ctx context.Context, tc sdk.TokenCounter) error {
	// The corpus but its long run of one letter: the law is about pieces, and that run costs a
	// tokenizer whose merge is quadratic seconds for each of the several texts made of it.
	var corpus []sample
	for _, s := range counterCorpus() {
		if len(s.text) <= 4<<10 {
			corpus = append(corpus, s)
		}
	}
	ts := texts(corpus)
	want, err := tc.Boundaries(ctx, ts)
	if err != nil {
		return fmt.Errorf("Boundaries of %d texts: %w", len(ts), err)
	}
	if err := sdk.CheckBoundaries(ts, want); err != nil {
		return fmt.Errorf("Boundaries: %w", err)
	}
	bounds, retained, err := sdk.RetainBoundaries(ctx, tc, ts)
	if err != nil {
		return fmt.Errorf("RetainBoundaries of %d texts: %w", len(ts), err)
	}
	if len(bounds) != len(ts) {
		return fmt.Errorf("RetainBoundaries: %d answers for %d texts", len(bounds), len(ts))
	}
	var errs []error
	for i := range ts {
		if !slices.Equal(want[i], bounds[i]) {
			errs = append(errs, fmt.Errorf("%s: RetainBoundaries differ from Boundaries: %s", corpus[i].name, firstDifference(want[i], bounds[i])))
		}
	}
	items := retainedItems(ts)
	built, err := sdk.Build(ts, items)
	if err != nil {
		return fmt.Errorf("the kit's own pieces: %w", err)
	}
	wantCounts, err := tc.Count(ctx, built)
	if err != nil {
		return fmt.Errorf("Count of the %d texts the pieces make: %w", len(built), err)
	}
	got, err := retained.CountPieces(ctx, items)
	if err != nil {
		return fmt.Errorf("CountPieces of %d items: %w", len(items), err)
	}
	if len(got) != len(items) {
		return fmt.Errorf("CountPieces: %d counts for %d items", len(got), len(items))
	}
	for i := range items {
		if got[i] != wantCounts[i] {
			errs = append(errs, fmt.Errorf("item %d (%s): CountPieces = %d, Count of its text %q = %d", i, describeItem(items[i], corpus), got[i], clip(built[i]), wantCounts[i]))
		}
	}
	return errors.Join(errs...)
}

// retainedItems returns composite texts of pieces of texts as a chunker makes them: each text
// whole, its halves cut at a rune boundary, a context line and separators around ranges of two
// texts, a range that is empty, an item of no pieces, and one of a literal only.
func retainedItems(texts []string) [][]sdk.Piece {
	var items [][]sdk.Piece
	for i, t := range texts {
		mid := len(t) / 2
		for mid > 0 && mid < len(t) && !utf8.RuneStart(t[mid]) {
			mid--
		}
		items = append(items,
			[]sdk.Piece{{Text: i, Start: 0, End: len(t)}},
			[]sdk.Piece{{Text: i, Start: 0, End: mid}},
			[]sdk.Piece{{Text: i, Start: mid, End: len(t)}},
			[]sdk.Piece{sdk.LiteralPiece("Title › Section\n\n"), {Text: i, Start: mid, End: len(t)}, sdk.LiteralPiece(sdk.Separator), {Text: (i + 1) % len(texts), Start: 0, End: len(texts[(i+1)%len(texts)])}},
		)
	}
	items = append(items,
		[]sdk.Piece{{Text: 0, Start: 3, End: 3}},
		[]sdk.Piece{},
		[]sdk.Piece{sdk.LiteralPiece("only a literal")},
	)
	return items
}

// describeItem names the texts an item's pieces come from.
func describeItem(item []sdk.Piece, corpus []sample) string {
	var parts []string
	for _, p := range item {
		if p.Text < 0 {
			parts = append(parts, fmt.Sprintf("literal %q", clip(p.Literal)))
		} else {
			parts = append(parts, fmt.Sprintf("%s [%d, %d)", corpus[p.Text].name, p.Start, p.End))
		}
	}
	if len(parts) == 0 {
		return "no pieces"
	}
	return strings.Join(parts, " + ")
}
