package doc2mark_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

func TestChunkContentWithoutItemsGivesAnEmptyList(t *testing.T) {
	t.Parallel()
	got, err := doc2mark.ChunkContent(context.Background(), nil, nil, nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("ChunkContent(nil) = %#v, %v; want an empty, non-nil list", got, err)
	}
	out, err := doc2mark.CompatJSON(got)
	if err != nil || string(out) != "[]\n" {
		t.Errorf("CompatJSON = %q, %v; want %q", out, err, "[]\n")
	}
}

func TestCompatJSONWritesDoc2marksFieldsWithNulls(t *testing.T) {
	t.Parallel()
	items := []doc2mark.Item{{Type: "text:normal", Content: "a < b & c"}}
	chunks, err := doc2mark.ChunkContent(context.Background(), items, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := doc2mark.CompatJSON(chunks)
	if err != nil {
		t.Fatal(err)
	}
	want := `[
  {
    "content": "a < b & c",
    "section_title": null,
    "section_hierarchy": [],
    "page_start": null,
    "page_end": null,
    "content_types": [
      "text:normal"
    ],
    "chunk_index": 0
  }
]
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("CompatJSON (-want +got):\n%s", diff)
	}
}

func TestTokenModeNeedsACounter(t *testing.T) {
	t.Parallel()
	cfg := doc2mark.DefaultConfig()
	cfg.SizeUnit = doc2mark.UnitTokens
	_, err := doc2mark.ChunkContent(context.Background(), []doc2mark.Item{{Type: "text:normal", Content: "x"}}, &cfg, nil)
	if !errors.Is(err, sdk.ErrInvalidConfig) {
		t.Errorf("error %v, want sdk.ErrInvalidConfig", err)
	}
	_, err = doc2mark.Compat(context.Background(), []byte(`[{"type": "text:normal", "content": "x"}]`), `{"size_unit": "tokens"}`, nil)
	if !errors.Is(err, sdk.ErrInvalidConfig) {
		t.Errorf("Compat error %v, want sdk.ErrInvalidConfig", err)
	}
}

// failing is a counter whose every call fails.
type failing struct{}

func (failing) Count(context.Context, []string) ([]int, error) { return nil, sdk.ErrUnavailable }
func (failing) Boundaries(context.Context, []string) ([][]int, error) {
	return nil, sdk.ErrUnavailable
}

// short is a counter that answers one count too few.
type short struct{ sdk.Words }

func (short) Count(_ context.Context, texts []string) ([]int, error) {
	return make([]int, max(0, len(texts)-1)), nil
}

func TestCounterErrorsAreWrapped(t *testing.T) {
	t.Parallel()
	cfg := doc2mark.DefaultConfig()
	cfg.SizeUnit = doc2mark.UnitTokens
	items := []doc2mark.Item{{Type: "text:normal", Content: "x"}}
	for _, tc := range []struct {
		name    string
		counter sdk.TokenCounter
		want    error
	}{
		{"a failing counter's error reaches the caller", failing{}, sdk.ErrUnavailable},
		{"a counter that breaks its contract gives ErrBadResponse", short{}, sdk.ErrBadResponse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := doc2mark.ChunkContent(context.Background(), items, &cfg, tc.counter)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

// TestTokenModeCallsTheCounterAFewTimesPerDocument holds the token mode to its documented call
// pattern on the token goldens: at most two Count calls and two Boundaries calls, also where
// tiktoken merges tokens across the "\n\n" between chunks.
func TestTokenModeCallsTheCounterAFewTimesPerDocument(t *testing.T) {
	t.Parallel()
	for _, tc := range readCases(t, filepath.Join("testdata", "tokens.json")) {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			items, err := doc2mark.ParseItems(tc.Input)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := doc2mark.ParseConfig(string(tc.Config))
			if err != nil {
				t.Fatal(err)
			}
			tk, err := tiktoken.New(cfg.EncodingName, tiktoken.Fast)
			if err != nil {
				t.Fatal(err)
			}
			rec := &sdk.Recorder{Counter: tk}
			if _, err := doc2mark.ChunkContent(context.Background(), items, cfg, rec); err != nil {
				t.Fatal(err)
			}
			s := rec.Stats()
			t.Logf("%d Count and %d Boundaries calls, %d texts, %d bytes", s.CountCalls, s.BoundariesCalls, s.Texts, s.Bytes)
			if s.CountCalls > 2 {
				t.Errorf("%d Count calls, want at most 2", s.CountCalls)
			}
			if s.BoundariesCalls > 2 {
				t.Errorf("%d Boundaries calls, want at most 2", s.BoundariesCalls)
			}
		})
	}
}

// TestTokenOverlapCorrectsWrongPredictions runs the overlap with a counter that refutes most
// predictions: the result must still be doc2mark's sequential one, and the calls must grow
// with the corrections but stay about one per chunk.
func TestTokenOverlapCorrectsWrongPredictions(t *testing.T) {
	t.Parallel()
	var items []doc2mark.Item
	for i := range 40 {
		// No spaces, so that a tail one byte off is a different tail.
		items = append(items, doc2mark.Item{Type: doc2mark.TypeNormal, Content: strings.Repeat("x", 13+i%5)})
	}
	checkTokenOverlap(t, items, 8, 5, pairs{})
	rec := &sdk.Recorder{Counter: pairs{}}
	cfg := doc2mark.DefaultConfig()
	cfg.SizeUnit, cfg.MaxChunkSize, cfg.Overlap = doc2mark.UnitTokens, 8, 5
	chunks, err := doc2mark.ChunkContent(context.Background(), items, &cfg, rec)
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Stats()
	t.Logf("%d Boundaries calls, %d texts, %d bytes for %d chunks", s.BoundariesCalls, s.Texts, s.Bytes, len(chunks))
	if s.BoundariesCalls <= 2 || s.BoundariesCalls > len(chunks)+1 {
		t.Errorf("%d Boundaries calls for %d chunks, want more than 2 (corrections) and at most one per chunk", s.BoundariesCalls, len(chunks))
	}
}

// TestTokenTailStartingInsideACharacterStartsAtTheNextOne pins the one documented difference
// from doc2mark in token mode: doc2mark decodes a tail whose first token starts inside a
// character to U+FFFD; counters report boundaries on character boundaries, so the tail starts
// at the next whole character instead.
func TestTokenTailStartingInsideACharacterStartsAtTheNextOne(t *testing.T) {
	t.Parallel()
	tk, err := tiktoken.New("cl100k_base", tiktoken.Fast)
	if err != nil {
		t.Fatal(err)
	}
	// "🙂" is 4 bytes and more than one cl100k token: its last token starts inside it.
	text := strings.Repeat("🙂", 5)
	counts, err := tk.Count(context.Background(), []string{"🙂"})
	if err != nil || counts[0] < 2 {
		t.Fatalf("want 🙂 to be several tokens, got %v, %v", counts, err)
	}
	cfg := doc2mark.DefaultConfig()
	cfg.SizeUnit, cfg.MaxChunkSize, cfg.Overlap = doc2mark.UnitTokens, 1, 1
	items := []doc2mark.Item{{Type: "text:normal", Content: text}, {Type: "text:normal", Content: "next"}}
	got, err := doc2mark.ChunkContent(context.Background(), items, &cfg, tk)
	if err != nil {
		t.Fatal(err)
	}
	// doc2mark gives "\ufffd\ufffd\n\nnext" (its tail, the last token, is the last two bytes
	// of 🙂, which Python decodes to two U+FFFD); the tail here is
	// the text after the last token's start, moved up to a character boundary: empty.
	if len(got) != 2 || got[1].Content != "\n\nnext" {
		t.Errorf("chunks %q, want the second to be %q", contents(got), "\n\nnext")
	}
}

func contents(chunks []doc2mark.Chunk) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = c.Content
	}
	return out
}

func TestParseConfig(t *testing.T) {
	t.Parallel()
	def := doc2mark.DefaultConfig()
	for _, tc := range []struct {
		name string
		src  string
		want *doc2mark.ChunkingConfig
		err  string
	}{
		{"an empty config means the defaults", "", &def, ""},
		{"null means the defaults", "null", &def, ""},
		{"an empty object means the defaults", "{}", &def, ""},
		{"every key is read", `{"max_chunk_size": 1000, "overlap": 0, "split_on_heading_level": 1, "keep_tables_whole": false,
			"include_page_markers": true, "size_unit": "tokens", "encoding_name": "o200k_base"}`,
			&doc2mark.ChunkingConfig{MaxChunkSize: 1000, SplitOnHeadingLevel: 1, IncludePageMarkers: true, SizeUnit: "tokens", EncodingName: "o200k_base"}, ""},
		{"unknown keys are all named", `{"chunk_overlap": 1, "max_tokens": 2}`, nil, "unknown keys chunk_overlap, max_tokens (known: encoding_name"},
		{"an integer key refuses a fraction", `{"max_chunk_size": 10.5}`, nil, "max_chunk_size: want an integer"},
		{"an integer key refuses null", `{"overlap": null}`, nil, "overlap: want an integer, got null"},
		{"a boolean key refuses a number", `{"keep_tables_whole": 1}`, nil, "keep_tables_whole: want true or false"},
		{"a string key refuses a number", `{"size_unit": 3}`, nil, "size_unit: want a string"},
		{"a list is not a config", `[1]`, nil, "want a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := doc2mark.ParseConfig(tc.src)
			if tc.err != "" {
				if !errors.Is(err, sdk.ErrInvalidConfig) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want sdk.ErrInvalidConfig saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseConfig (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTokenizerSpecNamesTheEncoding(t *testing.T) {
	t.Parallel()
	cfg := doc2mark.DefaultConfig()
	if got := cfg.TokenizerSpec(); got != "tiktoken:cl100k_base" {
		t.Errorf("TokenizerSpec() = %q, want tiktoken:cl100k_base", got)
	}
}
