package hftokenizer

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
)

// TestConformance runs the counter laws in-process (under the race detector in `make test`)
// on GPT-2 (a pretok scanner), BERT (WordPiece), a file whose Split regex only regexp2 runs and
// the XLM-R-style Unigram file (its lattice pool and word cache), so that the shared caches and
// compiled regexes are exercised from eight goroutines.
func TestConformance(t *testing.T) {
	t.Parallel()
	files, err := reffiles.WriteAssembled(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		tok, err := Load(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f.Name, func(t *testing.T) { conformance.TokenCounter(t, tok) })
	}
	regex := `{"added_tokens":[],"normalizer":{"type":"NFKC"},` +
		`"pre_tokenizer":{"type":"Split","pattern":{"Regex":"\\p{L}+(?=\\s|$)|\\s+|."},"behavior":"Isolated","invert":false},` +
		`"model":{"type":"WordLevel","vocab":{"[UNK]":0,"a":1," ":2},"unk_token":"[UNK]"}}`
	tok, err := Parse(strings.NewReader(regex))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("regexp2", func(t *testing.T) { conformance.TokenCounter(t, tok) })
	uni, err := Load(reffiles.CommittedPath(filepath.Join("..", ".."), "unigram-xlmr"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("unigram-xlmr", func(t *testing.T) { conformance.TokenCounter(t, uni) })
}
