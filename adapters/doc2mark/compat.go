package doc2mark

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// CounterFunc returns the token counter for a tokenizer spec such as "tiktoken:cl100k_base".
type CounterFunc func(ctx context.Context, spec string) (sdk.TokenCounter, error)

// Compat is `chunkkit compat doc2mark` in one call: it parses data as json_content
// (ParseContent) and configJSON as a ChunkingConfig (ParseConfig; "" means the defaults),
// runs ChunkContent, and returns CompatJSON of the chunks. In token mode it asks counter for
// the counter of cfg.TokenizerSpec(); counter is not called otherwise and may then be nil.
// Errors say which step failed and wrap the step's error, so errors.Is finds
// sdk.ErrInvalidInput for bad json_content and sdk.ErrInvalidConfig for a bad config.
func Compat(ctx context.Context, data []byte, configJSON string, counter CounterFunc) ([]byte, error) {
	cfg, err := ParseConfig(configJSON)
	if err != nil {
		return nil, err
	}
	items, err := ParseItems(data)
	if err != nil {
		return nil, err
	}
	var tc sdk.TokenCounter
	if cfg.Tokens() {
		if counter == nil {
			return nil, fmt.Errorf("%w: doc2mark: size_unit %q needs a token counter for %q", sdk.ErrInvalidConfig, UnitTokens, cfg.EncodingName)
		}
		if tc, err = counter(ctx, cfg.TokenizerSpec()); err != nil {
			return nil, fmt.Errorf("doc2mark: tokenizer %s: %w", cfg.TokenizerSpec(), err)
		}
	}
	chunks, err := ChunkContent(ctx, items, cfg, tc)
	if err != nil {
		return nil, err
	}
	return CompatJSON(chunks)
}
