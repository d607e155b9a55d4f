package tiktoken

// The pre-tokenizer patterns of OpenAI's encodings, as tiktoken defines them
// (tiktoken_ext/openai_public.py). Every encoding splits text into pieces with its pattern and
// then merges each piece's bytes by rank. The Reference backend runs them on a regex engine;
// the Fast backend's scanners (split.go) implement them by hand, and split_internal_test.go
// holds the scanners to them.
const (
	patternR50k = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

	patternCl100k = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

	patternO200k = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}` +
		`| ?[^\s\p{L}\p{N}]+[\r\n/]*` +
		`|\s*[\r\n]+` +
		`|\s+(?!\S)` +
		`|\s+`
)

// pattern returns encoding's pattern; p50k_base shares r50k_base's.
func pattern(encoding string) string {
	switch encoding {
	case "cl100k_base":
		return patternCl100k
	case "o200k_base":
		return patternO200k
	}
	return patternR50k
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
