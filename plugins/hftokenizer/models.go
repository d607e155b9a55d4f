package hftokenizer

import (
	"fmt"
	"unicode/utf8"

	sugar "github.com/sugarme/tokenizer"
	sugarmodel "github.com/sugarme/tokenizer/model"
	"github.com/sugarme/tokenizer/model/wordpiece"
)

// buildModel reads the "model" component, and returns its vocabulary as the file spells it
// and its size, which added tokens are numbered by (HF's token_to_id and get_vocab_size: a
// Unigram piece listed twice counts twice). byteLevel says the pre-tokenizer ends in ByteLevel.
func buildModel(cfg obj, byteLevel bool) (model, map[string]int32, int, error) {
	const path = "model"
	if cfg == nil {
		return nil, nil, 0, invalid(path, "missing")
	}
	typ, err := cfg.optStr(path, "type", "")
	if err != nil {
		return nil, nil, 0, err
	}
	if typ == "" {
		// Old files leave the type out; HF then tells the models apart by their fields.
		switch {
		case cfg["merges"] != nil:
			typ = "BPE"
		case cfg["max_input_chars_per_word"] != nil:
			typ = "WordPiece"
		default:
			if _, ok := cfg["vocab"].([]any); ok {
				typ = "Unigram"
			}
		}
	}
	var m model
	switch typ {
	case "BPE", "WordPiece", "WordLevel":
	case "Unigram":
		if byteLevel {
			return nil, nil, 0, unsupported(path, "Unigram after a ByteLevel pre-tokenizer")
		}
		u, ids, size, err := buildUnigram(cfg, path)
		if err != nil {
			return nil, nil, 0, err
		}
		return u, ids, size, nil
	default:
		return nil, nil, 0, unsupported(path, "model type %q", typ)
	}
	vocab, err := readVocab(cfg, path)
	if err != nil {
		return nil, nil, 0, err
	}
	switch {
	case typ == "BPE":
		m, err = buildBPE(cfg, path, vocab, byteLevel)
	case byteLevel:
		return nil, nil, 0, unsupported(path, "%s after a ByteLevel pre-tokenizer", typ)
	case typ == "WordPiece":
		m, err = buildWordPiece(cfg, path, vocab)
	default:
		m, err = buildWordLevel(cfg, path, vocab)
	}
	if err != nil {
		return nil, nil, 0, err
	}
	return m, vocab, len(vocab), nil
}

// wordPiece is sugarme/tokenizer's WordPiece model, built with the file's
// continuing_subword_prefix (sugarme's own tokenizer.json loader ignores it and always uses
// "##"), with its character offsets turned into byte offsets.
type wordPiece struct {
	wp    sugar.Model
	cache wordCache
}

func buildWordPiece(cfg obj, path string, vocab map[string]int32) (*wordPiece, error) {
	if _, err := unkToken(cfg, path, vocab, "[UNK]"); err != nil {
		return nil, err
	}
	unk, _ := cfg.optStr(path, "unk_token", "[UNK]")
	prefix, err := cfg.optStr(path, "continuing_subword_prefix", "##")
	if err != nil {
		return nil, err
	}
	maxChars, err := cfg.number(path, "max_input_chars_per_word", 100)
	if err != nil {
		return nil, err
	}
	v := make(sugarmodel.Vocab, len(vocab))
	for k, id := range vocab {
		v[k] = int(id)
	}
	wp := wordpiece.NewWordPieceBuilder().Vocab(&v).UnkToken(unk).
		ContinuingSubwordPrefix(prefix).MaxInputCharsPerWord(int(maxChars)).Build()
	return &wordPiece{wp: wp}, nil
}

func (w *wordPiece) tokenize(text string, out []tok) ([]tok, error) {
	if toks, ok := w.cache.get(text); ok {
		return append(out, toks...), nil
	}
	from := len(out)
	out, err := w.tokenizeWord(text, out)
	if err == nil && len(text) <= maxCachedWord {
		w.cache.put(text, out[from:])
	}
	return out, err
}

func (w *wordPiece) tokenizeWord(text string, out []tok) ([]tok, error) {
	toks, err := w.wp.Tokenize(text)
	if err != nil {
		return nil, fmt.Errorf("WordPiece: %w", err)
	}
	// sugarme's offsets count characters; walk the text once to turn them into bytes.
	byteAt := func(chars int) int32 {
		if chars <= 0 {
			return 0
		}
		i := 0
		for n := 0; n < chars && i < len(text); n++ {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
		}
		return int32(i)
	}
	for _, t := range toks {
		if len(t.Offsets) != 2 {
			return nil, fmt.Errorf("WordPiece: token %q without offsets", t.Value)
		}
		out = append(out, tok{int32(t.Id), byteAt(t.Offsets[0]), byteAt(t.Offsets[1])})
	}
	return out, nil
}

// wordLevel maps a whole pre-token to its id, or to unk_token.
type wordLevel struct {
	vocab map[string]int32
	unk   int32
}

func buildWordLevel(cfg obj, path string, vocab map[string]int32) (*wordLevel, error) {
	unk, err := unkToken(cfg, path, vocab, "")
	if err != nil {
		return nil, err
	}
	return &wordLevel{vocab: vocab, unk: unk}, nil
}

func (m *wordLevel) tokenize(text string, out []tok) ([]tok, error) {
	if id, ok := m.vocab[text]; ok {
		return append(out, tok{id, 0, int32(len(text))}), nil
	}
	if m.unk < 0 {
		return nil, fmt.Errorf("WordLevel: %q is not in the vocabulary and there is no unk_token", text)
	}
	return append(out, tok{m.unk, 0, int32(len(text))}), nil
}
