package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// resolver records the specs it is asked for and answers with in-process services.
type resolver struct {
	asked []string
	fail  error
}

func (r *resolver) TokenCounter(ctx context.Context, spec string) (sdk.TokenCounter, error) {
	r.asked = append(r.asked, "tokenizer "+spec)
	return sdk.Words{}, r.fail
}

func (r *resolver) SentenceSplitter(ctx context.Context, spec string) (sdk.SentenceSplitter, error) {
	r.asked = append(r.asked, "sentences "+spec)
	return nil, nil
}

func TestChunkerConfig(t *testing.T) {
	t.Parallel()
	t.Run("the zero value opens the command line's defaults", func(t *testing.T) {
		var r resolver
		c, err := pipeline.ChunkerConfig{}.Open(context.Background(), &r)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"tokenizer " + pipeline.DefaultTokenizer, "sentences " + pipeline.DefaultSentences}, r.asked); diff != "" {
			t.Errorf("specs resolved (-want +got):\n%s", diff)
		}
		if _, ok := c.(*chunkers.HeadingAware); !ok {
			t.Errorf("chunker %T, want the default strategy's *chunkers.HeadingAware", c)
		}
		maxTokens, overlap := c.(sdk.Budgeted).Budget()
		if maxTokens != chunkers.DefaultMaxTokens || overlap != chunkers.DefaultOverlapTokens {
			t.Errorf("budget %d/%d, want the defaults %d/%d", maxTokens, overlap, chunkers.DefaultMaxTokens, chunkers.DefaultOverlapTokens)
		}
	})
	t.Run("fields reach the chunker", func(t *testing.T) {
		c, err := pipeline.ChunkerConfig{Strategy: "sections", MaxTokens: 100, OverlapTokens: chunkers.NoOverlap, SplitLevel: 3, PackSections: true}.NewChunker(sdk.Words{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := c.(*chunkers.Sections)
		if !ok {
			t.Fatalf("chunker %T, want *chunkers.Sections", c)
		}
		if maxTokens, overlap := s.Budget(); maxTokens != 100 || overlap != 0 || s.SplitLevel != 3 || !s.PackSections {
			t.Errorf("sections %d/%d split %d pack %v, want 100/0 split 3 pack true", maxTokens, overlap, s.SplitLevel, s.PackSections)
		}
	})
	t.Run("a bad strategy is an invalid config", func(t *testing.T) {
		_, err := pipeline.ChunkerConfig{Strategy: "paragraphs"}.NewChunker(sdk.Words{}, nil)
		if !errors.Is(err, sdk.ErrInvalidConfig) {
			t.Errorf("error %v, want one matching sdk.ErrInvalidConfig", err)
		}
	})
	t.Run("a spec that does not resolve is named", func(t *testing.T) {
		_, err := pipeline.ChunkerConfig{Tokenizer: "plugin:nope"}.Open(context.Background(), &resolver{fail: sdk.ErrUnsupported})
		if !errors.Is(err, sdk.ErrUnsupported) || err.Error() != `tokenizer "plugin:nope": `+sdk.ErrUnsupported.Error() {
			t.Errorf("error %v, want one naming the tokenizer spec and wrapping the cause", err)
		}
	})
	t.Run("it survives a JSON round trip, as engines ship it", func(t *testing.T) {
		want := pipeline.ChunkerConfig{Strategy: "fixed", Tokenizer: "words", MaxTokens: 64, OverlapTokens: 8, Context: "path", HeadingChunks: true}
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var got pipeline.ChunkerConfig
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	})
}
