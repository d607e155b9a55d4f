package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// SentenceSplitter checks that s keeps the laws of sdk.SentenceSplitter, each law as a subtest
// of t:
//
//   - the empty text has no sentences;
//   - for every text of a built-in corpus (prose with abbreviations, text without punctuation,
//     leading and trailing white space, CJK, emoji, right-to-left scripts, combining marks,
//     code, mixed newlines, a long text), the sentence ends are strictly increasing, on rune
//     boundaries, within the text, and the last one is the text's length when the text is not
//     blank (a blank text may have no sentence or one that ends at its length);
//   - a batch gets the same answers as its texts one by one, in the same order, and an empty
//     batch gets an empty answer;
//   - eight goroutines calling at once get the same answers (run the kit under -race);
//   - a call with a cancelled context fails with an error matching context.Canceled or
//     returns the correct answer.
func SentenceSplitter(t *testing.T, s sdk.SentenceSplitter) {
	t.Helper()
	runLaws(t, splitterLaws(), s)
}

// splitterLaws returns the laws SentenceSplitter checks, in the order it runs them.
func splitterLaws() []law[sdk.SentenceSplitter] {
	return []law[sdk.SentenceSplitter]{
		{"the empty text has no sentences", splitterEmptyText},
		{"sentence ends are strictly increasing rune boundaries, the last at the text length", splitterEndsValid},
		{"a batch gets the same answers as its texts one by one", splitterBatchEqualsSingles},
		{"a reversed batch gets the answers reversed", splitterOrderPreserved},
		{"an empty batch gets an empty answer", splitterEmptyBatch},
		{"concurrent batches get the same answers", splitterConcurrent},
		{"a cancelled context gives context.Canceled or the correct answer", splitterCancelled},
	}
}

// checkSentenceEnds verifies a Split answer against its request and returns an error matching
// sdk.ErrBadResponse that names the first bad text.
func checkSentenceEnds(texts []string, ends [][]int) error {
	if len(ends) != len(texts) {
		return fmt.Errorf("%w: %d sentence lists for %d texts", sdk.ErrBadResponse, len(ends), len(texts))
	}
	for i, es := range ends {
		text := texts[i]
		prev := 0
		for j, e := range es {
			if e <= prev || e > len(text) {
				return fmt.Errorf("%w: text %d %s: sentence end %d is %d, after %d, text length %d", sdk.ErrBadResponse, i, quote(text), j, e, prev, len(text))
			}
			if e < len(text) && !utf8.RuneStart(text[e]) {
				return fmt.Errorf("%w: text %d %s: sentence end %d at byte %d is inside a rune", sdk.ErrBadResponse, i, quote(text), j, e)
			}
			prev = e
		}
		switch {
		case len(es) > 0 && es[len(es)-1] != len(text):
			return fmt.Errorf("%w: text %d %s: last sentence ends at %d, not at the text length %d", sdk.ErrBadResponse, i, quote(text), es[len(es)-1], len(text))
		case len(es) == 0 && !sdk.IsBlank(text):
			return fmt.Errorf("%w: text %d %s: no sentence in a text that is not blank", sdk.ErrBadResponse, i, quote(text))
		}
	}
	return nil
}

// splitterAnswer asks s to split texts and checks the answer with checkSentenceEnds.
func splitterAnswer(ctx context.Context, s sdk.SentenceSplitter, texts []string) ([][]int, error) {
	ends, err := s.Split(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("Split of %d texts: %w", len(texts), err)
	}
	if err := checkSentenceEnds(texts, ends); err != nil {
		return nil, fmt.Errorf("Split of %d texts: %w", len(texts), err)
	}
	return ends, nil
}

func splitterEmptyText(ctx context.Context, s sdk.SentenceSplitter) error {
	ends, err := splitterAnswer(ctx, s, []string{""})
	if err != nil {
		return err
	}
	if len(ends[0]) != 0 {
		return fmt.Errorf(`Split("") = %v, want no sentences`, ends[0])
	}
	return nil
}

func splitterEndsValid(ctx context.Context, s sdk.SentenceSplitter) error {
	_, err := splitterAnswer(ctx, s, texts(splitterCorpus()))
	return err
}

func splitterBatchEqualsSingles(ctx context.Context, s sdk.SentenceSplitter) error {
	corpus := splitterCorpus()
	ends, err := splitterAnswer(ctx, s, texts(corpus))
	if err != nil {
		return err
	}
	var errs []error
	for i, sm := range corpus {
		alone, err := splitterAnswer(ctx, s, []string{sm.text})
		if err != nil {
			return fmt.Errorf("%s alone: %w", sm.name, err)
		}
		if !slices.Equal(alone[0], ends[i]) {
			errs = append(errs, fmt.Errorf("%s: sentence ends alone differ from index %d of a batch: %s", sm.name, i, firstDifference(alone[0], ends[i])))
		}
	}
	return errors.Join(errs...)
}

func splitterOrderPreserved(ctx context.Context, s sdk.SentenceSplitter) error {
	corpus := splitterCorpus()
	ts := texts(corpus)
	ends, err := splitterAnswer(ctx, s, ts)
	if err != nil {
		return err
	}
	rends, err := splitterAnswer(ctx, s, reversed(ts))
	if err != nil {
		return fmt.Errorf("reversed batch: %w", err)
	}
	var errs []error
	for i, e := range reversed(rends) {
		if !slices.Equal(e, ends[i]) {
			errs = append(errs, fmt.Errorf("%s: sentence ends differ in the reversed batch: %s", corpus[i].name, firstDifference(ends[i], e)))
		}
	}
	return errors.Join(errs...)
}

func splitterEmptyBatch(ctx context.Context, s sdk.SentenceSplitter) error {
	var errs []error
	for _, batch := range [][]string{nil, {}} {
		ends, err := s.Split(ctx, batch)
		if err != nil {
			errs = append(errs, fmt.Errorf("Split(%#v): %w", batch, err))
		} else if len(ends) != 0 {
			errs = append(errs, fmt.Errorf("Split(%#v) = %v, want an empty answer", batch, ends))
		}
	}
	return errors.Join(errs...)
}

func splitterConcurrent(ctx context.Context, s sdk.SentenceSplitter) error {
	corpus := splitterCorpus()
	ts := texts(corpus)
	ends, err := splitterAnswer(ctx, s, ts)
	if err != nil {
		return err
	}
	errs := make([]error, concurrentGoroutines)
	var wg sync.WaitGroup
	for g := range concurrentGoroutines {
		wg.Go(func() {
			got, err := splitterAnswer(ctx, s, rotated(ts, g))
			if err != nil {
				errs[g] = fmt.Errorf("goroutine %d: %w", g, err)
				return
			}
			for i, e := range rotated(ends, g) {
				if !slices.Equal(got[i], e) {
					errs[g] = fmt.Errorf("goroutine %d: sentence ends of %s differ: %s", g, corpus[(i+g)%len(corpus)].name, firstDifference(e, got[i]))
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func splitterCancelled(ctx context.Context, s sdk.SentenceSplitter) error {
	ts := texts(splitterCorpus())
	ends, err := splitterAnswer(ctx, s, ts)
	if err != nil {
		return err
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	got, err := s.Split(cancelled, ts)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			return fmt.Errorf("Split with a cancelled context: error %q does not match context.Canceled", err)
		}
		return nil
	}
	if !slices.EqualFunc(got, ends, slices.Equal) {
		return errors.New("Split with a cancelled context returned no error and a wrong answer")
	}
	return nil
}
