package tiktoken_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

func TestCountAndBoundaries(t *testing.T) {
	t.Parallel()
	// Expected values are OpenAI tiktoken's (cl100k_base, encode_ordinary); golden_test.go
	// checks hundreds more.
	tests := []struct {
		name       string
		text       string
		wantCount  int
		wantBounds []int
	}{
		{name: "the empty string has no tokens", text: "", wantCount: 0, wantBounds: nil},
		{name: "a greeting splits at punctuation and spaces", text: "Hello, world!", wantCount: 4, wantBounds: []int{5, 6, 12, 13}},
		{name: "special-token text is ordinary text", text: "<|endoftext|>", wantCount: 7, wantBounds: []int{1, 2, 6, 8, 11, 12, 13}},
		{name: "a character split over byte tokens repeats its end offset", text: "🦀", wantCount: 3, wantBounds: []int{4, 4, 4}},
		{name: "a trailing invalid byte ends at the text's end", text: "ok\xff", wantCount: 2, wantBounds: []int{2, 3}},
	}
	for _, backend := range backends {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s backend: %s", backend, tt.name), func(t *testing.T) {
				t.Parallel()
				c := counter(t, "cl100k_base", backend)
				counts, err := c.Count(context.Background(), []string{tt.text})
				if err != nil {
					t.Fatal(err)
				}
				if counts[0] != tt.wantCount {
					t.Errorf("Count(%q) = %d, want %d", tt.text, counts[0], tt.wantCount)
				}
				bounds, err := c.Boundaries(context.Background(), []string{tt.text})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.wantBounds, bounds[0]); diff != "" {
					t.Errorf("Boundaries(%q) (-want +got):\n%s", tt.text, diff)
				}
			})
		}
	}
}

func TestInvalidUTF8NeverPanicsAndKeepsTheContract(t *testing.T) {
	t.Parallel()
	texts := []string{
		"\x80", "\x80\x80\x80", "\xff\xfe", "a\xc3", "\xc3(", "\xe2\x82", "\xe2\x82(", "\xf0\x9f\x98",
		"\xf0\x9f\x98\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\x80", "\xf8\x88\x80\x80\x80", "\xf4\x90\x80\x80",
		"🦀\x80", "\x80🦀", "中\xe4\xb8文", strings.Repeat("\xff", 300), strings.Repeat("a\x80", 200),
		"<|endoftext|>\xff<|endoftext|>", " \x85 \n\x85\n",
	}
	for _, backend := range backends {
		for _, enc := range tiktoken.Encodings() {
			t.Run(fmt.Sprintf("%s backend on %s", backend, enc), func(t *testing.T) {
				t.Parallel()
				c := counter(t, enc, backend)
				counts, err := c.Count(context.Background(), texts)
				if err != nil {
					t.Fatal(err)
				}
				bounds, err := c.Boundaries(context.Background(), texts)
				if err != nil {
					t.Fatal(err)
				}
				if err := sdk.CheckBoundaries(texts, bounds); err != nil {
					t.Error(err)
				}
				for i, text := range texts {
					if len(bounds[i]) != counts[i] {
						t.Errorf("%q: Count %d but %d boundaries", text, counts[i], len(bounds[i]))
					}
					// Each invalid subsequence becomes a U+FFFD, which is at least one token.
					if counts[i] == 0 {
						t.Errorf("%q: Count = 0", text)
					}
				}
			})
		}
	}
}

func TestBatchAnswersEqualSingleAnswers(t *testing.T) {
	t.Parallel()
	texts := []string{"", "one", "two words", "", "emoji 👩‍💻 and CJK 中文", "<|endoftext|>", "\xff", "three\n\nparagraphs\n\nhere"}
	for _, backend := range backends {
		t.Run(fmt.Sprintf("%s backend answers a batch in order", backend), func(t *testing.T) {
			t.Parallel()
			c := counter(t, "o200k_base", backend)
			ctx := context.Background()
			counts, err := c.Count(ctx, texts)
			if err != nil {
				t.Fatal(err)
			}
			bounds, err := c.Boundaries(ctx, texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(counts) != len(texts) || len(bounds) != len(texts) {
				t.Fatalf("%d texts got %d counts and %d boundary lists", len(texts), len(counts), len(bounds))
			}
			for i, text := range texts {
				one, err := c.Count(ctx, []string{text})
				if err != nil {
					t.Fatal(err)
				}
				oneBounds, err := c.Boundaries(ctx, []string{text})
				if err != nil {
					t.Fatal(err)
				}
				if one[0] != counts[i] {
					t.Errorf("text %d %q: Count alone %d, in the batch %d", i, text, one[0], counts[i])
				}
				if diff := cmp.Diff(oneBounds[0], bounds[i]); diff != "" {
					t.Errorf("text %d %q: Boundaries alone vs in the batch (-alone +batch):\n%s", i, text, diff)
				}
			}
		})
	}
}

func TestCancelledContextStopsTheCall(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, backend := range backends {
		t.Run(fmt.Sprintf("%s backend returns context.Canceled", backend), func(t *testing.T) {
			t.Parallel()
			c := counter(t, "cl100k_base", backend)
			if got, err := c.Count(ctx, []string{"text"}); !errors.Is(err, context.Canceled) {
				t.Errorf("Count = %v, %v; want context.Canceled", got, err)
			}
			if got, err := c.Boundaries(ctx, []string{"text"}); !errors.Is(err, context.Canceled) {
				t.Errorf("Boundaries = %v, %v; want context.Canceled", got, err)
			}
		})
	}
}

func TestConcurrentCallsGetTheSameAnswers(t *testing.T) {
	t.Parallel()
	texts := make([]string, 40)
	for i := range texts {
		texts[i] = strings.Repeat(fmt.Sprintf("Sentence %d with ünïcödé, 表, and 🎉. ", i), i+1)
	}
	for _, backend := range backends {
		t.Run(fmt.Sprintf("%s backend is safe for concurrent use", backend), func(t *testing.T) {
			t.Parallel()
			c := counter(t, "cl100k_base", backend)
			want, err := c.Boundaries(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make([]error, 8)
			for g := range errs {
				wg.Go(func() {
					for i := range texts {
						j := (i + g) % len(texts)
						got, err := c.Boundaries(context.Background(), texts[j:j+1])
						if err != nil {
							errs[g] = err
							return
						}
						if !cmp.Equal(want[j], got[0]) {
							errs[g] = fmt.Errorf("goroutine %d, text %d: boundaries differ", g, j)
							return
						}
					}
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCountersShareOneCounterPerModel(t *testing.T) {
	t.Parallel()
	s := tiktoken.NewCounters()
	ctx := context.Background()
	get := func(model string) sdk.TokenCounter {
		t.Helper()
		c, err := s.Model(ctx, model)
		if err != nil {
			t.Fatalf("Counter(%q): %v", model, err)
		}
		return c
	}
	if a, b := get("cl100k_base"), get("cl100k_base@backtrack"); a != b {
		t.Error(`"cl100k_base" and "cl100k_base@backtrack" gave different counters`)
	}
	if a, b := get("cl100k_base"), get("cl100k_base@fast"); a == b {
		t.Error(`"cl100k_base" and "cl100k_base@fast" gave the same counter`)
	}
	if a, b := get(""), get(tiktoken.DefaultModel); a != b {
		t.Error(`"" did not give the default model's counter`)
	}
	if got := get("").(sdk.Namer).Name(); got != "tiktoken:cl100k_base" {
		t.Errorf(`Counter("").Name() = %q, want "tiktoken:cl100k_base"`, got)
	}
	if _, err := s.Model(ctx, "gpt2"); !errors.Is(err, sdk.ErrUnsupported) {
		t.Errorf(`Counter("gpt2") error = %v, want sdk.ErrUnsupported`, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Model(cancelled, "r50k_base"); !errors.Is(err, context.Canceled) {
		t.Errorf("Counter with a cancelled context: error = %v, want context.Canceled", err)
	}
	if diff := cmp.Diff(tiktoken.Models(), s.Models()); diff != "" {
		t.Errorf("Counters.Models() (-want +got):\n%s", diff)
	}

	// Callers racing for a model that is still being built all get the one counter.
	var wg sync.WaitGroup
	got := make([]sdk.TokenCounter, 6)
	for i := range got {
		wg.Go(func() { got[i], _ = s.Model(ctx, "p50k_base") })
	}
	wg.Wait()
	for i, c := range got {
		if c == nil || c != got[0] {
			t.Errorf("racing caller %d got %v, want the shared counter %v", i, c, got[0])
		}
	}
}

func TestBoundariesAreOnRuneBoundariesOfValidText(t *testing.T) {
	t.Parallel()
	text := "naïve café 👨‍👩‍👧‍👦 東京 e\u0301 עברית"
	for _, backend := range backends {
		for _, enc := range tiktoken.Encodings() {
			t.Run(fmt.Sprintf("%s backend on %s", backend, enc), func(t *testing.T) {
				t.Parallel()
				bounds, err := counter(t, enc, backend).Boundaries(context.Background(), []string{text})
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range bounds[0] {
					if b < len(text) && !utf8.RuneStart(text[b]) {
						t.Errorf("boundary %d is inside a rune", b)
					}
				}
				if err := sdk.CheckBoundaries([]string{text}, bounds); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
