package reffiles

import (
	"fmt"
	"io"
)

// BERTBaseUncased writes the tokenizer.json of HuggingFace's "bert-base-uncased": a WordPiece
// model over bert-base-uncased-vocab.txt of github.com/sugarme/tokenizer (line i is id i), the
// BERT normalizer (lower-casing, accents stripped as lower-casing implies) and pre-tokenizer,
// and the [CLS] … [SEP] template. It returns the error of locating or reading the vocabulary
// or of writing to w.
func BERTBaseUncased(w io.Writer) error {
	raw, err := readSugarme(bertVocabPath, bertVocabSHA256)
	if err != nil {
		return err
	}
	v := vocab(lines(raw))
	ids := make(map[string]int, len(v))
	for id, tok := range v {
		if prev, dup := ids[tok]; dup {
			return fmt.Errorf("reffiles: %s: token %q on lines %d and %d", bertVocabPath, tok, prev+1, id+1)
		}
		ids[tok] = id
	}
	var added []addedToken
	for _, tok := range []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"} {
		id, ok := ids[tok]
		if !ok {
			return fmt.Errorf("reffiles: %s has no %s", bertVocabPath, tok)
		}
		added = append(added, addedToken{ID: id, Content: tok, Special: true})
	}

	type piece struct {
		ID     string `json:"id"`
		TypeID int    `json:"type_id"`
	}
	special := func(tok string, typeID int) any {
		return struct {
			SpecialToken piece `json:"SpecialToken"`
		}{piece{tok, typeID}}
	}
	sequence := func(seq string, typeID int) any {
		return struct {
			Sequence piece `json:"Sequence"`
		}{piece{seq, typeID}}
	}
	type specialToken struct {
		ID     string   `json:"id"`
		IDs    []int    `json:"ids"`
		Tokens []string `json:"tokens"`
	}
	return write(w, "bert-base-uncased", tokenizerJSON{
		Version:     "1.0",
		AddedTokens: added,
		Normalizer: struct {
			Type               string `json:"type"`
			CleanText          bool   `json:"clean_text"`
			HandleChineseChars bool   `json:"handle_chinese_chars"`
			StripAccents       *bool  `json:"strip_accents"`
			Lowercase          bool   `json:"lowercase"`
		}{"BertNormalizer", true, true, nil, true},
		PreTokenizer: struct {
			Type string `json:"type"`
		}{"BertPreTokenizer"},
		PostProcessor: struct {
			Type          string                  `json:"type"`
			Single        []any                   `json:"single"`
			Pair          []any                   `json:"pair"`
			SpecialTokens map[string]specialToken `json:"special_tokens"`
		}{
			Type:   "TemplateProcessing",
			Single: []any{special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0)},
			Pair: []any{special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0),
				sequence("B", 1), special("[SEP]", 1)},
			// encoding/json sorts map keys, so this map's order is stable.
			SpecialTokens: map[string]specialToken{
				"[CLS]": {"[CLS]", []int{ids["[CLS]"]}, []string{"[CLS]"}},
				"[SEP]": {"[SEP]", []int{ids["[SEP]"]}, []string{"[SEP]"}},
			},
		},
		Decoder: struct {
			Type    string `json:"type"`
			Prefix  string `json:"prefix"`
			Cleanup bool   `json:"cleanup"`
		}{"WordPiece", "##", true},
		Model: struct {
			Type                    string `json:"type"`
			UnkToken                string `json:"unk_token"`
			ContinuingSubwordPrefix string `json:"continuing_subword_prefix"`
			MaxInputCharsPerWord    int    `json:"max_input_chars_per_word"`
			Vocab                   vocab  `json:"vocab"`
		}{"WordPiece", "[UNK]", "##", 100, v},
	})
}
