package pipeline

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// Defaults for the zero fields of ChunkerConfig that name a plugin or an in-process service.
const (
	// DefaultTokenizer is the tokenizer spec of the command line and of a zero ChunkerConfig.
	DefaultTokenizer = "tiktoken:cl100k_base"
	// DefaultSentences is the sentence splitter spec of the command line and of a zero
	// ChunkerConfig: the in-process rules.
	DefaultSentences = "rules"
)

// ChunkerConfig names a chunker as the command line's flags do (chunkkit chunk --strategy,
// --tokenizer, --sentences, --max-tokens, --overlap-tokens, --context, --split-level,
// --pack-sections, --heading-chunks), in a form that can be stored and sent to other
// processes (plain fields, JSON tags): what an engine that runs chunkkit elsewhere, such as
// the Beam transform, ships to its workers so they build the same chunker the command line
// would. The zero value means the command line's defaults.
type ChunkerConfig struct {
	// Strategy is a name chunkers.New accepts; "" means chunkers.DefaultStrategy.
	Strategy string `json:"strategy,omitempty"`
	// Tokenizer is a tokenizer spec (host.ParseSpec); "" means DefaultTokenizer.
	Tokenizer string `json:"tokenizer,omitempty"`
	// Sentences is a sentence splitter spec; "" means DefaultSentences.
	Sentences string `json:"sentences,omitempty"`
	// MaxTokens is chunkers.Config.MaxTokens: 0 means chunkers.DefaultMaxTokens.
	MaxTokens int `json:"max_tokens,omitempty"`
	// OverlapTokens is chunkers.Config.OverlapTokens: 0 means the default and
	// chunkers.NoOverlap means none (chunkers.ExactOverlap turns a count where 0 means none,
	// as --overlap-tokens has it, into this value).
	OverlapTokens int `json:"overlap_tokens,omitempty"`
	// Context is chunkers.Config.Context ("" means the strategy's default).
	Context string `json:"context,omitempty"`
	// SplitLevel, PackSections and HeadingChunks are chunkers.Options's.
	SplitLevel    int  `json:"split_level,omitempty"`
	PackSections  bool `json:"pack_sections,omitempty"`
	HeadingChunks bool `json:"heading_chunks,omitempty"`
}

// NewChunker returns the chunker c names, counting with counter and splitting oversized
// blocks with sentences (nil: the in-process splitter); c.Tokenizer and c.Sentences are not
// read. Errors are chunkers.New's (they wrap sdk.ErrInvalidConfig).
func (c ChunkerConfig) NewChunker(counter sdk.TokenCounter, sentences sdk.SentenceSplitter) (sdk.Chunker, error) {
	return chunkers.New(c.Strategy, chunkers.Options{
		Config: chunkers.Config{
			Counter:       counter,
			Sentences:     sentences,
			MaxTokens:     c.MaxTokens,
			OverlapTokens: c.OverlapTokens,
			Context:       chunkers.ContextMode(c.Context),
		},
		SplitLevel:    c.SplitLevel,
		PackSections:  c.PackSections,
		HeadingChunks: c.HeadingChunks,
	})
}

// Resolver turns tokenizer and sentence splitter specs into services; *host.Host is one (the
// pipeline package takes it as this interface so that it never depends on the host).
type Resolver interface {
	TokenCounter(ctx context.Context, spec string) (sdk.TokenCounter, error)
	SentenceSplitter(ctx context.Context, spec string) (sdk.SentenceSplitter, error)
}

// Open resolves c.Tokenizer and c.Sentences through h (a *host.Host starts the plugins they
// name, or none for in-process specs) and returns the chunker c names. The chunker holds
// clients of h's plugins: it works until h is closed. An error names the spec that failed.
func (c ChunkerConfig) Open(ctx context.Context, h Resolver) (sdk.Chunker, error) {
	tok, sen := c.Tokenizer, c.Sentences
	if tok == "" {
		tok = DefaultTokenizer
	}
	if sen == "" {
		sen = DefaultSentences
	}
	counter, err := h.TokenCounter(ctx, tok)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %q: %w", tok, err)
	}
	splitter, err := h.SentenceSplitter(ctx, sen)
	if err != nil {
		return nil, fmt.Errorf("sentence splitter %q: %w", sen, err)
	}
	return c.NewChunker(counter, splitter)
}
