package sentence_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/plugins/sentence"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
	rules "github.com/chunkkit/chunkkit/sdk/sentence"
)

// engines returns the splitters under test by the name the hard-case table uses.
func engines(t testing.TB) map[string]sdk.SentenceSplitter {
	t.Helper()
	out := map[string]sdk.SentenceSplitter{"rules": rules.Default()}
	for _, m := range sentence.Models() {
		s, err := sentence.New(m)
		if err != nil {
			t.Fatalf("New(%q): %v", m, err)
		}
		out[m] = s
	}
	return out
}

// sentences cuts text at ends.
func sentences(text string, ends []int) []string {
	var out []string
	prev := 0
	for _, e := range ends {
		out = append(out, text[prev:e])
		prev = e
	}
	return out
}

// checkContract fails t unless ends meet the sdk.SentenceSplitter contract for text and its
// sentences tile the text exactly.
func checkContract(t *testing.T, engine, text string, ends []int) {
	t.Helper()
	if err := sdk.CheckBoundaries([]string{text}, [][]int{ends}); err != nil {
		t.Fatalf("%s: %q: %v", engine, text, err)
	}
	prev := 0
	for _, e := range ends {
		if e <= prev {
			t.Fatalf("%s: %q: ends %v are not strictly increasing", engine, text, ends)
		}
		if sdk.IsBlank(text[prev:e]) {
			t.Fatalf("%s: %q: sentence [%d:%d] has no non-space rune", engine, text, prev, e)
		}
		prev = e
	}
	if blank := sdk.IsBlank(text); blank != (len(ends) == 0) {
		t.Fatalf("%s: %q: %d sentences for a text that is blank=%v", engine, text, len(ends), blank)
	}
	if got := strings.Join(sentences(text, ends), ""); len(ends) > 0 && got != text {
		t.Fatalf("%s: sentences of %q do not tile it: joined %q", engine, text, got)
	}
	// White space after a sentence belongs to it: no sentence but the first starts with one.
	for i, s := range sentences(text, ends) {
		if r, _ := utf8.DecodeRuneInString(s); i > 0 && strings.TrimLeft(s, " \t\r\n\u00a0") != s {
			t.Fatalf("%s: %q: sentence %d %q starts with white space %q", engine, text, i, s, r)
		}
	}
}

func TestEnginesAnswerTheHardCasesAsRecorded(t *testing.T) {
	t.Parallel()
	if len(hardCases) < 40 {
		t.Fatalf("the table holds %d hard cases, want at least 40", len(hardCases))
	}
	ctx := context.Background()
	for name, s := range engines(t) {
		for _, tc := range hardCases {
			t.Run(name+" splits "+tc.name+" as recorded", func(t *testing.T) {
				ends, err := s.Split(ctx, []string{tc.text})
				if err != nil {
					t.Fatal(err)
				}
				checkContract(t, name, tc.text, ends[0])
				if diff := cmp.Diff(tc.want(name), sentences(tc.text, ends[0])); diff != "" {
					t.Errorf("%s: %q (-want +got):\n%s", name, tc.text, diff)
				}
			})
		}
	}
}

func TestHardCasesDocumentEveryDisagreement(t *testing.T) {
	t.Parallel()
	for _, tc := range hardCases {
		t.Run(tc.name+" explains any disagreement", func(t *testing.T) {
			disagree := tc.rules != nil || tc.punkt != nil || tc.uax29 != nil
			if disagree != (tc.why != "") {
				t.Errorf("engines disagree = %v but why = %q; a why note goes with, and only with, per-engine answers", disagree, tc.why)
			}
			if disagree && tc.all == nil && (tc.rules == nil || tc.punkt == nil || tc.uax29 == nil) {
				t.Errorf("no common answer, so every engine needs its own")
			}
		})
	}
}

func TestEnginesPassTheConformanceLaws(t *testing.T) {
	t.Parallel()
	for _, m := range sentence.Models() {
		t.Run(m+" passes in-process", func(t *testing.T) {
			s, err := sentence.New(m)
			if err != nil {
				t.Fatal(err)
			}
			conformance.SentenceSplitter(t, s)
		})
	}
}

func TestNewRefusesUnknownModelsListingTheKnownOnes(t *testing.T) {
	t.Parallel()
	for _, model := range []string{"", "punkt", "punkt:fr", "UAX29", "rules"} {
		t.Run("New refuses "+strings.TrimSpace(model+" (quoted "+`"`+model+`")`), func(t *testing.T) {
			_, err := sentence.New(model)
			if !errors.Is(err, sdk.ErrUnsupported) {
				t.Fatalf("New(%q) error = %v, want one matching sdk.ErrUnsupported", model, err)
			}
			for _, want := range []string{"punkt:en", "uax29"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("New(%q) error %q does not list %s", model, err, want)
				}
			}
		})
	}
}

func TestSplittersServesBothModelsAndDefaultsToPunkt(t *testing.T) {
	t.Parallel()
	ss := sentence.NewSplitters()
	ctx := context.Background()
	if diff := cmp.Diff([]string{"punkt:en", "uax29"}, ss.Models()); diff != "" {
		t.Errorf("Models (-want +got):\n%s", diff)
	}
	for model, name := range map[string]string{"": "punkt:en", "punkt:en": "punkt:en", "uax29": "uax29"} {
		s, err := ss.Model(ctx, model)
		if err != nil {
			t.Fatalf("Model(%q): %v", model, err)
		}
		if got := s.(sdk.Namer).Name(); got != name {
			t.Errorf("Model(%q).Name() = %q, want %q", model, got, name)
		}
		again, _ := ss.Model(ctx, model)
		if again != s {
			t.Errorf("Model(%q) loaded the model twice", model)
		}
	}
	if _, err := ss.Model(ctx, "punkt:de"); !errors.Is(err, sdk.ErrUnsupported) {
		t.Errorf("Model(punkt:de) error = %v, want one matching sdk.ErrUnsupported", err)
	}
}

func TestAZeroSplitterIsAnErrorNotAPanic(t *testing.T) {
	t.Parallel()
	var s sentence.Splitter
	if _, err := s.Split(context.Background(), []string{"One. Two."}); !errors.Is(err, sdk.ErrInvalidConfig) {
		t.Errorf("zero Splitter: Split error = %v, want one matching sdk.ErrInvalidConfig", err)
	}
}

func TestSplitStopsAtACancelledContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, s := range engines(t) {
		if _, err := s.Split(ctx, []string{"One. Two."}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Split with a cancelled context: error = %v, want context.Canceled", name, err)
		}
	}
}

func TestInvalidUTF8IsSplitAsText(t *testing.T) {
	t.Parallel()
	texts := []string{"a\xffb. C d.", "\x80\x80. Next.", "Ok.\xc3 Broken rune. End", "\xff", "\xe4\xb8. 中\xe6\x96. X"}
	for name, s := range engines(t) {
		for _, text := range texts {
			t.Run(name+" splits "+strings.ToValidUTF8(text, "?")+" within the contract", func(t *testing.T) {
				ends, err := s.Split(context.Background(), []string{text})
				if err != nil {
					t.Fatal(err)
				}
				checkContract(t, name, text, ends[0])
			})
		}
	}
}

// TestHeadingAwareUsesThePluginSplitter checks that a chunker given a plugin splitter cuts an
// oversized paragraph where that engine ends sentences, not where the default rules do.
func TestHeadingAwareUsesThePluginSplitter(t *testing.T) {
	t.Parallel()
	req := sdk.Request{TenantID: "t", CorpusID: "c", Principal: sdk.Principal{ID: "u"}}
	cases := []struct {
		model string
		text  string
		max   int
		want  []string
	}{
		{
			// uax29 ends a sentence after "Mr.", the rules do not.
			model: "uax29",
			max:   4,
			text:  "Mr. Smith went to Washington. He left.",
			want:  []string{"Mr.", "Smith went to Washington.", "He left."},
		},
		{
			// punkt does not end a sentence after "3.14.", the rules do.
			model: "punkt:en",
			text:  "Yes. Pi is 3.14. That is well known.",
			max:   7,
			want:  []string{"Yes.", "Pi is 3.14. That is well known."},
		},
	}
	for _, tc := range cases {
		t.Run("HeadingAware splits at "+tc.model+" sentence ends", func(t *testing.T) {
			s, err := sentence.New(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: tc.text}}}
			contents := func(sp sdk.SentenceSplitter) []string {
				h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, Sentences: sp, MaxTokens: tc.max, OverlapTokens: chunkers.NoOverlap}}
				chunks, err := h.Chunk(context.Background(), req, doc)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, c := range chunks {
					out = append(out, c.Content)
				}
				return out
			}
			got := contents(s)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("chunks with %s (-want +got):\n%s", tc.model, diff)
			}
			if cmp.Equal(got, contents(nil)) {
				t.Errorf("chunks with %s equal those with the default rules %q; the case shows nothing", tc.model, got)
			}
		})
	}
}
