package conformance

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestTokenCounterPassesForTheSDKCounters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		counter sdk.TokenCounter
	}{
		{"sdk.Words keeps every law", sdk.Words{}},
		{"sdk.Runes keeps every law", sdk.Runes{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			TokenCounter(t, tc.counter)
		})
	}
}

func TestCounterLawsCatchBrokenCounters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		counter func() sdk.TokenCounter
		wantLaw string
	}{
		{"a counter whose last boundary is short of the text length", func() sdk.TokenCounter { return lastBoundaryShort{} },
			"every text has one boundary per token, on rune boundaries, the last at its length"},
		{"a counter whose Count is one too many", func() sdk.TokenCounter { return countOffByOne{} },
			"every text has one boundary per token, on rune boundaries, the last at its length"},
		{"a counter that splits runes into bytes", func() sdk.TokenCounter { return bytesCounter{} },
			"every text has one boundary per token, on rune boundaries, the last at its length"},
		{"a counter that gives the empty string a token", func() sdk.TokenCounter { return emptyIsOne{} },
			"the empty string has zero tokens and no boundaries"},
		{"a counter that ignores letters outside ASCII", func() sdk.TokenCounter { return asciiOnly{} },
			"a text with a non-space rune has at least one token"},
		{"a counter whose answers change from call to call", func() sdk.TokenCounter { return &flaky{} },
			"a batch gets the same answers as its texts one by one"},
		{"a counter that answers in order of text length", func() sdk.TokenCounter { return sortedAnswers{} },
			"a reversed batch gets the answers reversed"},
		{"a counter that rejects an empty batch", func() sdk.TokenCounter { return rejectsEmptyBatch{} },
			"an empty batch gets an empty answer"},
		{"a counter that answers wrongly while another call runs", func() sdk.TokenCounter { return &racy{} },
			"concurrent batches get the same answers"},
		{"a counter that answers zeros to a cancelled context", func() sdk.TokenCounter { return zerosWhenCancelled{} },
			"a cancelled context gives context.Canceled or the correct answer"},
		{"a counter that reads <|endoftext|> as one control token", func() sdk.TokenCounter { return controlTokens{} },
			"special-token text is counted as ordinary text"},
		{"a counter that rejects special-token text", func() sdk.TokenCounter { return rejectsSpecial{} },
			"special-token text is counted as ordinary text"},
		{"a counter whose Count disagrees with its Boundaries on a text only one law sends", func() sdk.TokenCounter { return promptOffByOne{} },
			"special-token text is counted as ordinary text"},
		{"a Retainer that counts a range as if it started its text", func() sdk.TokenCounter { return rangesFromStart{} },
			"pieces of retained texts count as the texts they make"},
		{"a Retainer whose RetainBoundaries drop the last text", func() sdk.TokenCounter { return retainsShort{} },
			"pieces of retained texts count as the texts they make"},
	} {
		t.Run(tc.name+" breaks the law that "+tc.wantLaw, func(t *testing.T) {
			t.Parallel()
			l := findLaw(t, counterLaws(), tc.wantLaw)
			err := l.check(t.Context(), tc.counter())
			if err == nil {
				t.Fatalf("law %q passed for a broken counter", tc.wantLaw)
			}
			t.Logf("reported: %v", err)
		})
	}
}

func TestCounterLawsHoldForTheSDKCountersOneByOne(t *testing.T) {
	t.Parallel()
	for _, counter := range []sdk.TokenCounter{sdk.Words{}, sdk.Runes{}} {
		for _, l := range counterLaws() {
			if err := l.check(t.Context(), counter); err != nil {
				t.Errorf("%T: law %q: %v", counter, l.name, err)
			}
		}
	}
}

func TestCounterCorpusCoversTheHardCases(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	for _, s := range counterCorpus() {
		if !utf8.ValidString(s.text) {
			t.Errorf("%s: text is not valid UTF-8", s.name)
		}
		all.WriteString(s.text)
	}
	for _, want := range []string{"<|endoftext|>", "<|fim_prefix|>", "\u200d", "🏽", "\u0301", "。", "\r\n", strings.Repeat(" ", 50), strings.Repeat("a", 100_000), "ש", "م"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the corpus has no %s", quote(want))
		}
	}
}

func findLaw[X any](t *testing.T, laws []law[X], name string) law[X] {
	t.Helper()
	for _, l := range laws {
		if l.name == name {
			return l
		}
	}
	t.Fatalf("no law named %q", name)
	return law[X]{}
}

// lastBoundaryShort ends each text's last token one byte early.
type lastBoundaryShort struct{ sdk.Runes }

func (c lastBoundaryShort) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	out, err := c.Runes.Boundaries(ctx, texts)
	for _, b := range out {
		if n := len(b); n > 1 {
			b[n-1] = b[n-2]
		}
	}
	return out, err
}

// countOffByOne counts one token too many in any text longer than ten bytes.
type countOffByOne struct{ sdk.Runes }

func (c countOffByOne) Count(ctx context.Context, texts []string) ([]int, error) {
	out, err := c.Runes.Count(ctx, texts)
	for i, t := range texts {
		if len(t) > 10 {
			out[i]++
		}
	}
	return out, err
}

// bytesCounter makes every byte a token, cutting multi-byte runes apart.
type bytesCounter struct{}

func (bytesCounter) Count(_ context.Context, texts []string) ([]int, error) {
	out := make([]int, len(texts))
	for i, t := range texts {
		out[i] = len(t)
	}
	return out, nil
}

func (bytesCounter) Boundaries(_ context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	for i, t := range texts {
		for j := range len(t) {
			out[i] = append(out[i], j+1)
		}
	}
	return out, nil
}

// emptyIsOne counts the empty string as one token ending at 0.
type emptyIsOne struct{ sdk.Runes }

func (c emptyIsOne) Count(ctx context.Context, texts []string) ([]int, error) {
	out, err := c.Runes.Count(ctx, texts)
	for i, t := range texts {
		if t == "" {
			out[i] = 1
		}
	}
	return out, err
}

func (c emptyIsOne) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	out, err := c.Runes.Boundaries(ctx, texts)
	for i, t := range texts {
		if t == "" {
			out[i] = []int{0}
		}
	}
	return out, err
}

// asciiOnly has zero tokens for any text without an ASCII letter or digit, consistently in
// both methods.
type asciiOnly struct{ sdk.Runes }

func hasASCIIAlnum(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) >= 0
}

func (c asciiOnly) Count(ctx context.Context, texts []string) ([]int, error) {
	out, err := c.Runes.Count(ctx, texts)
	for i, t := range texts {
		if !hasASCIIAlnum(t) {
			out[i] = 0
		}
	}
	return out, err
}

func (c asciiOnly) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	out, err := c.Runes.Boundaries(ctx, texts)
	for i, t := range texts {
		if !hasASCIIAlnum(t) {
			out[i] = nil
		}
	}
	return out, err
}

// flaky adds a token to every count on every second call.
type flaky struct {
	sdk.Runes
	calls atomic.Int64
}

func (c *flaky) Count(ctx context.Context, texts []string) ([]int, error) {
	out, err := c.Runes.Count(ctx, texts)
	if c.calls.Add(1)%2 == 0 {
		for i := range out {
			out[i]++
		}
	}
	return out, err
}

// sortedAnswers returns the right counts and boundaries, sorted by count instead of in the
// order of the texts.
type sortedAnswers struct{ sdk.Runes }

func (c sortedAnswers) Count(ctx context.Context, texts []string) ([]int, error) {
	out, err := c.Runes.Count(ctx, texts)
	slices.Sort(out)
	return out, err
}

func (c sortedAnswers) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	sorted := slices.Clone(texts)
	sort.SliceStable(sorted, func(i, j int) bool { return utf8.RuneCountInString(sorted[i]) < utf8.RuneCountInString(sorted[j]) })
	return c.Runes.Boundaries(ctx, sorted)
}

// rejectsEmptyBatch fails on a batch without texts.
type rejectsEmptyBatch struct{ sdk.Runes }

func (c rejectsEmptyBatch) Count(ctx context.Context, texts []string) ([]int, error) {
	if len(texts) == 0 {
		return nil, sdk.ErrInvalidInput
	}
	return c.Runes.Count(ctx, texts)
}

// racy answers one token too many whenever another call is in flight: the bug of a counter
// that shares a scratch buffer between calls.
type racy struct {
	sdk.Runes
	inFlight atomic.Int64
}

func (c *racy) Count(ctx context.Context, texts []string) ([]int, error) {
	c.inFlight.Add(1)
	defer c.inFlight.Add(-1)
	out, err := c.Runes.Count(ctx, texts)
	time.Sleep(20 * time.Millisecond)
	if c.inFlight.Load() > 1 {
		for i := range out {
			out[i]++
		}
	}
	return out, err
}

// zerosWhenCancelled ignores cancellation and answers zero tokens.
type zerosWhenCancelled struct{}

func (zerosWhenCancelled) Count(ctx context.Context, texts []string) ([]int, error) {
	if ctx.Err() != nil {
		return make([]int, len(texts)), nil
	}
	return sdk.Runes{}.Count(ctx, texts)
}

func (zerosWhenCancelled) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if ctx.Err() != nil {
		return make([][]int, len(texts)), nil
	}
	return sdk.Runes{}.Boundaries(ctx, texts)
}

// controlTokens is sdk.Runes except that "<|...|>" counts as one token, as a tokenizer that
// allows special tokens would count it.
type controlTokens struct{}

func controlTokenEnds(t string) []int {
	var ends []int
	for i := 0; i < len(t); {
		if strings.HasPrefix(t[i:], "<|") {
			if j := strings.Index(t[i:], "|>"); j > 0 {
				i += j + 2
				ends = append(ends, i)
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(t[i:])
		i += size
		ends = append(ends, i)
	}
	return ends
}

func (controlTokens) Count(_ context.Context, texts []string) ([]int, error) {
	out := make([]int, len(texts))
	for i, t := range texts {
		out[i] = len(controlTokenEnds(t))
	}
	return out, nil
}

func (controlTokens) Boundaries(_ context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	for i, t := range texts {
		out[i] = controlTokenEnds(t)
	}
	return out, nil
}

// rejectsSpecial refuses text that looks like a special token.
type rejectsSpecial struct{ sdk.Runes }

func (c rejectsSpecial) Count(ctx context.Context, texts []string) ([]int, error) {
	for _, t := range texts {
		if strings.Contains(t, "<|endoftext|>") {
			return nil, errors.New("disallowed special token <|endoftext|>")
		}
	}
	return c.Runes.Count(ctx, texts)
}

// promptOffByOne counts one token too many in "<|endofprompt|>", a text of the special-token law
// that the corpus does not have: only the check of every answer, in every law, that Count equals
// the number of Boundaries catches it.
type promptOffByOne struct{ sdk.Runes }

func (c promptOffByOne) Count(ctx context.Context, texts []string) ([]int, error) {
	out, err := c.Runes.Count(ctx, texts)
	for i, t := range texts {
		if t == "<|endofprompt|>" {
			out[i]++
		}
	}
	return out, err
}

// rangesFromStart is a Retainer whose Retained counts a range [start, end) as [0, end-start),
// as a plugin that ignored Range.start would.
type rangesFromStart struct{ sdk.Words }

func (r rangesFromStart) RetainBoundaries(ctx context.Context, texts []string) ([][]int, sdk.Retained, error) {
	bounds, err := r.Boundaries(ctx, texts)
	return bounds, wrongRanges{texts: texts}, err
}

type wrongRanges struct{ texts []string }

func (w wrongRanges) CountPieces(ctx context.Context, items [][]sdk.Piece) ([]int, error) {
	moved := make([][]sdk.Piece, len(items))
	for i, it := range items {
		for _, p := range it {
			if p.Text >= 0 {
				p.End -= p.Start
				p.Start = 0
			}
			moved[i] = append(moved[i], p)
		}
	}
	return sdk.CountingRetained{Counter: sdk.Words{}, Texts: w.texts}.CountPieces(ctx, moved)
}

// retainsShort is a Retainer whose RetainBoundaries answers one text fewer.
type retainsShort struct{ sdk.Words }

func (r retainsShort) RetainBoundaries(ctx context.Context, texts []string) ([][]int, sdk.Retained, error) {
	bounds, err := r.Boundaries(ctx, texts)
	return bounds[:len(bounds)-1], sdk.CountingRetained{Counter: sdk.Words{}, Texts: texts}, err
}
