package plugin

import "fmt"

// Kind is a kind of service a plugin offers. The kinds are the keys of go-plugin's plugin set,
// the strings InfoResponse.kinds lists, and the values of a manifest's "kinds".
type Kind string

// The kinds of service.
const (
	// KindTokenizer is a token counter: the service chunkkit.tokenizer.v1.Tokenizer, an
	// sdk.TokenCounter on the host.
	KindTokenizer Kind = "tokenizer"
	// KindSentence is a sentence splitter: the service chunkkit.sentence.v1.SentenceSplitter,
	// an sdk.SentenceSplitter on the host.
	KindSentence Kind = "sentence"
)

// Kinds returns every kind, in a fixed order. The caller owns the slice.
func Kinds() []Kind { return []Kind{KindTokenizer, KindSentence} }

// ParseKind returns the kind s names, or an error that names s and the kinds there are.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case KindTokenizer, KindSentence:
		return k, nil
	}
	return "", fmt.Errorf("plugin: unknown kind %q; want %q or %q", s, KindTokenizer, KindSentence)
}
