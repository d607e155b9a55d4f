// Package data holds what package bpe's gen command writes for each tiktoken encoding,
// embedded so that loading an encoding neither parses nor searches:
//
//   - ENCODING.tokens: the vocabulary, every token's bytes by id, as bpe.ReadTokens reads it
//     (OpenAI's .tiktoken file without its base64 and ranks: 0.74 MB where the file is 1.7 MB
//     for cl100k_base);
//   - ENCODING.split: two three-byte token ids per token id, the tokens BPE merges into it
//     (see bpe.Vocab.SplitTable).
//
// Regenerate them with `go generate ./plugins/tiktoken/internal/bpe`; a test fails when they are
// stale. The strings are the embedded bytes themselves: reading them copies nothing.
package data

import (
	_ "embed" // the files below
)

var (
	//go:embed cl100k_base.tokens
	cl100kTokens string
	//go:embed o200k_base.tokens
	o200kTokens string
	//go:embed p50k_base.tokens
	p50kTokens string
	//go:embed r50k_base.tokens
	r50kTokens string

	//go:embed cl100k_base.split
	cl100kSplit string
	//go:embed o200k_base.split
	o200kSplit string
	//go:embed p50k_base.split
	p50kSplit string
	//go:embed r50k_base.split
	r50kSplit string
)

// Tokens returns the content of encoding's .tokens file, or false for an encoding gen does
// not write.
func Tokens(encoding string) (string, bool) {
	switch encoding {
	case "cl100k_base":
		return cl100kTokens, true
	case "o200k_base":
		return o200kTokens, true
	case "p50k_base":
		return p50kTokens, true
	case "r50k_base":
		return r50kTokens, true
	}
	return "", false
}

// Split returns the content of encoding's .split file, or false for an encoding gen does not
// write.
func Split(encoding string) (string, bool) {
	switch encoding {
	case "cl100k_base":
		return cl100kSplit, true
	case "o200k_base":
		return o200kSplit, true
	case "p50k_base":
		return p50kSplit, true
	case "r50k_base":
		return r50kSplit, true
	}
	return "", false
}
