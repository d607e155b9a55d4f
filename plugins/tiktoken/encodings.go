package tiktoken

import (
	"fmt"

	"github.com/chunkkit/chunkkit/internal/pretok"
	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe"
	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe/data"
)

// readTokens returns the tokens of encoding, by id, as bpe.ReadTokens gives them: OpenAI's
// .tiktoken file (as github.com/pkoukk/tiktoken-go-loader embeds it) that internal/bpe's
// generator stored without its base64 and ranks, read in place from the binary. The tests
// check that it equals the .tiktoken file.
func readTokens(encoding string) (tokens string, starts []uint32, err error) {
	file, ok := data.Tokens(encoding)
	if !ok {
		return "", nil, fmt.Errorf("loading %s: no vocabulary", encoding)
	}
	tokens, starts, err = bpe.ReadTokens(file)
	if err != nil {
		return "", nil, fmt.Errorf("loading %s.tokens: %w", encoding, err)
	}
	return tokens, starts, nil
}

// pattern returns encoding's pre-tokenizer pattern, as tiktoken defines it
// (tiktoken_ext/openai_public.py); p50k_base shares r50k_base's. Every encoding splits text
// into pieces with its pattern and then merges each piece's bytes by rank. The Reference
// backend's tiktoken-go runs its own copy of the pattern on regexp2; the Fast backend splits
// with the pattern's scanner from internal/pretok.
func pattern(encoding string) string {
	switch encoding {
	case "cl100k_base":
		return pretok.Cl100kPattern
	case "o200k_base":
		return pretok.O200kPattern
	}
	return pretok.R50kPattern
}

// vocabSize returns tiktoken's n_vocab for encoding: one more than its highest token id,
// special tokens included. Ordinary ids below it may have gaps (p50k_base's 50256 is
// <|endoftext|>, followed by ordinary white-space tokens).
func vocabSize(encoding string) int {
	switch encoding {
	case "cl100k_base":
		return 100277
	case "o200k_base":
		return 200019
	case "p50k_base":
		return 50281
	}
	return 50257
}
