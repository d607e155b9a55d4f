package hftokenizer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// Name is the tokenizer spec of t: "hf:" and the path it was loaded from, and "@special" for
// a MatchSpecial view.
func (t *Tokenizer) Name() string {
	if t.special {
		return "hf:" + t.name + SpecialSuffix
	}
	return "hf:" + t.name
}

// Count returns one count per text: the number of tokens HF tokenizers' encode gives with
// add_special_tokens=false (no [CLS] or <s> is added), the text of added tokens being
// ordinary text unless t is a MatchSpecial view (see Tokenizer). It stops with ctx's error when ctx ends
// between two texts.
func (t *Tokenizer) Count(ctx context.Context, texts []string) ([]int, error) {
	counts := make([]int, len(texts))
	err := t.each(ctx, texts, func(i int, ids, _ []int32) { counts[i] = len(ids) })
	if err != nil {
		return nil, err
	}
	return counts, nil
}

// Boundaries returns, for each text, the end byte offset of each token: the end of the
// original characters it came from (so the tokens of one character split into bytes share
// it), never before the previous one, the last moved to len(text). There are as many as
// Count reports; none for a text without tokens.
func (t *Tokenizer) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	err := t.each(ctx, texts, func(i int, _, ends []int32) { out[i] = boundaries(texts[i], ends) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// each encodes texts in order, handing each one's ids and ends to f (reused afterwards), and
// stops with ctx's error when ctx ends between two texts.
func (t *Tokenizer) each(ctx context.Context, texts []string, f func(i int, ids, ends []int32)) error {
	var ids, ends []int32
	var sc scratch
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		ids, ends, err = t.encode(text, ids[:0], ends[:0], &sc)
		if err != nil {
			return fmt.Errorf("%s: text %d: %w", t.Name(), i, err)
		}
		f(i, ids, ends)
	}
	return nil
}

// Encode returns the ids of text's tokens as HF's encode with add_special_tokens=false does.
func (t *Tokenizer) Encode(text string) ([]int, error) {
	ids, _, err := t.encode(text, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out, nil
}

// SpecialSuffix, after a path in a model string, asks for the MatchSpecial view:
// "hf:/models/gpt2/tokenizer.json@special".
const SpecialSuffix = "@special"

// NewCounters returns what the hftokenizer plugin serves: a registry that loads tokenizer.json
// files by path on first use and keeps them. The model string is the path (of the file, or of
// a directory holding tokenizer.json), optionally followed by SpecialSuffix for the
// MatchSpecial view, which shares the loaded file; relative paths are taken from the plugin's
// working directory, so hosts send absolute ones. Models is empty: any path may be asked for.
// A failed load is not remembered: the next request tries again.
func NewCounters() *plugin.CounterMap {
	m := &plugin.CounterMap{}
	m.Key = func(model string) (string, error) {
		if model == "" {
			return "", fmt.Errorf("hf: no tokenizer.json path given (spec hf:/path/to/tokenizer.json): %w", sdk.ErrUnsupported)
		}
		path, special := strings.CutSuffix(model, SpecialSuffix)
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			path = filepath.Join(path, "tokenizer.json")
		}
		if special {
			return filepath.Clean(path) + SpecialSuffix, nil
		}
		return filepath.Clean(path), nil
	}
	m.Load = func(ctx context.Context, key string) (sdk.TokenCounter, error) {
		path, special := strings.CutSuffix(key, SpecialSuffix)
		if !special {
			return Load(path)
		}
		tc, err := m.Model(ctx, path)
		if err != nil {
			return nil, err
		}
		return tc.(*Tokenizer).MatchSpecial(), nil
	}
	return m
}
