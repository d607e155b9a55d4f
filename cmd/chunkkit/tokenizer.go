package main

import (
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// openTokenizer resolves a tokenizer spec to a counter and a function that releases it.
func openTokenizer(spec string) (sdk.TokenCounter, func() error, error) {
	switch spec {
	case "words":
		return sdk.Words{}, func() error { return nil }, nil
	case "runes":
		return sdk.Runes{}, func() error { return nil }, nil
	}
	return nil, nil, fmt.Errorf("unknown tokenizer %q (known: words, runes)", spec)
}

const (
	defaultTokenizer = "words"
	tokenizerHelp    = "words or runes"
)
