package tiktoken

import (
	"fmt"

	"github.com/chunkkit/chunkkit/internal/pretok"
)

// fastEncoder is the Fast backend: OpenAI's vocabularies (readTokens), text split into pieces by internal/pretok's hand-written scanners, and each
// piece merged in O(n log n) (merge.go).
//
// It used to take its vocabularies from github.com/tiktoken-go/tokenizer, whose Go map
// literals cost ~35 ms (cl100k_base) and ~95 ms (o200k_base) to build at load and ~15 MB of
// binary, which every plugin start hashes; the .tiktoken files are in the binary anyway, for
// the Reference backend. (tokenizer's own Count and Encode were never used: v0.10.0's generated
// matcher drops U+007F and splits white-space runs holding several newlines differently from
// tiktoken.)
type fastEncoder struct {
	split pretok.Func
	ranks *rankTable
}

func newFast(encoding string) (*fastEncoder, error) {
	split := pretok.ForPattern(pattern(encoding))
	if split == nil {
		return nil, fmt.Errorf("loading %s: no scanner for its pattern", encoding)
	}
	tokens, starts, err := readTokens(encoding)
	if err != nil {
		return nil, err
	}
	ranks := newRankTable(len(starts) - 1)
	for id := range len(starts) - 1 {
		if token := tokens[starts[id]:starts[id+1]]; token != "" {
			ranks.set(token, uint32(id))
		}
	}
	return &fastEncoder{split: split, ranks: ranks}, nil
}

// batch returns e: it keeps nothing from one text to the next.
func (e *fastEncoder) batch() (encoder, func()) { return e, func() {} }

func (e *fastEncoder) count(text string) (int, error) {
	n := 0
	var scratch []int
	err := e.pieces(text, func(piece string) {
		if _, ok := e.ranks.get(piece); ok {
			n++
			return
		}
		scratch = e.appendMerged(scratch[:0], piece)
		n += len(scratch)
	})
	return n, err
}

func (e *fastEncoder) appendTokenLens(dst []int, text string) ([]int, error) {
	err := e.pieces(text, func(piece string) {
		if _, ok := e.ranks.get(piece); ok {
			dst = append(dst, len(piece))
			return
		}
		start := len(dst)
		dst = e.appendMerged(dst, piece)
		// appendMerged gives end offsets within the piece; turn them into lengths.
		prev := 0
		for i := start; i < len(dst); i++ {
			dst[i], prev = dst[i]-prev, dst[i]
		}
	})
	return dst, err
}

// pieces calls yield with each piece the pattern splits valid UTF-8 text into, in order.
func (e *fastEncoder) pieces(text string, yield func(piece string)) error {
	for at := 0; at < len(text); {
		end := e.split(text, at)
		if end <= at || end > len(text) {
			return fmt.Errorf("splitting: no piece at byte %d", at)
		}
		yield(text[at:end])
		at = end
	}
	return nil
}
