package tiktoken

import (
	"fmt"
	"sync"

	"github.com/chunkkit/chunkkit/internal/pretok"
	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe"
	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe/data"
)

// backtrackEncoder is the Backtrack backend: text split into pieces by internal/pretok's
// scanners, as the Fast backend splits it, and each piece that is not itself a token encoded
// by internal/bpe's backtracking encoder, linear in the piece's length. Its vocabularies are
// the three backends' (readTokens), with the split tables internal/bpe's generator derived
// from them.
type backtrackEncoder struct {
	split pretok.Func
	vocab *bpe.Vocab
	// scratch pools the encoder's working memory: a long piece grows it to megabytes.
	scratch sync.Pool
}

func newBacktrack(encoding string) (*backtrackEncoder, error) {
	split := pretok.ForPattern(pattern(encoding))
	if split == nil {
		return nil, fmt.Errorf("loading %s: no scanner for its pattern", encoding)
	}
	table, ok := data.Split(encoding)
	if !ok {
		return nil, fmt.Errorf("loading %s: no split table", encoding)
	}
	tokens, starts, err := readTokens(encoding)
	if err != nil {
		return nil, err
	}
	vocab, err := bpe.Load(tokens, starts, table)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", encoding, err)
	}
	e := &backtrackEncoder{split: split, vocab: vocab}
	e.scratch.New = func() any { return new(bpe.Scratch) }
	return e, nil
}

func (e *backtrackEncoder) count(text string) (int, error) {
	n := 0
	s := e.scratch.Get().(*bpe.Scratch)
	defer e.scratch.Put(s)
	for at := 0; at < len(text); {
		end := e.split(text, at)
		if end <= at || end > len(text) {
			return 0, fmt.Errorf("splitting: no piece at byte %d", at)
		}
		n += e.vocab.CountAt(text, at, end, s)
		at = end
	}
	return n, nil
}

func (e *backtrackEncoder) appendTokenLens(dst []int, text string) ([]int, error) {
	s := e.scratch.Get().(*bpe.Scratch)
	defer e.scratch.Put(s)
	for at := 0; at < len(text); {
		end := e.split(text, at)
		if end <= at || end > len(text) {
			return nil, fmt.Errorf("splitting: no piece at byte %d", at)
		}
		dst = e.vocab.AppendLensAt(dst, text, at, end, s)
		at = end
	}
	return dst, nil
}
