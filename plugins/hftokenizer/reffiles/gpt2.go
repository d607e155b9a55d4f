package reffiles

import (
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// gpt2EndOfText is GPT-2's only added token; its id follows the 50,256 ranks of r50k_base.
const (
	gpt2EndOfText   = "<|endoftext|>"
	gpt2EndOfTextID = 50256
)

// GPT2 writes a tokenizer.json equal in content to HuggingFace's "gpt2" (openai-community/gpt2):
// a byte-level BPE whose vocabulary is tiktoken's r50k_base with each token's bytes spelled in
// GPT-2's byte-to-unicode alphabet (id = rank) plus <|endoftext|> = 50256, and whose merges are
// gpt2-merges.txt of github.com/sugarme/tokenizer. It returns the error of locating or reading
// that file, of decoding r50k_base, or of writing to w.
func GPT2(w io.Writer) error {
	v, err := gpt2Vocab()
	if err != nil {
		return err
	}
	raw, err := readSugarme(gpt2MergesPath, gpt2MergesSHA256)
	if err != nil {
		return err
	}
	merges := lines(raw)
	if len(merges) == 0 || !strings.HasPrefix(merges[0], "#version") {
		return fmt.Errorf("reffiles: %s: first line is not a #version header", gpt2MergesPath)
	}
	merges = merges[1:]

	byteLevel := func(addPrefixSpace, trimOffsets bool) any {
		return struct {
			Type           string `json:"type"`
			AddPrefixSpace bool   `json:"add_prefix_space"`
			TrimOffsets    bool   `json:"trim_offsets"`
			UseRegex       bool   `json:"use_regex"`
		}{"ByteLevel", addPrefixSpace, trimOffsets, true}
	}
	return write(w, "gpt2", tokenizerJSON{
		Version: "1.0",
		AddedTokens: []addedToken{{
			ID: gpt2EndOfTextID, Content: gpt2EndOfText, Normalized: true, Special: true,
		}},
		PreTokenizer:  byteLevel(false, true),
		PostProcessor: byteLevel(true, false),
		Decoder:       byteLevel(true, true),
		Model: struct {
			Type                    string   `json:"type"`
			Dropout                 *float64 `json:"dropout"`
			UnkToken                *string  `json:"unk_token"`
			ContinuingSubwordPrefix string   `json:"continuing_subword_prefix"`
			EndOfWordSuffix         string   `json:"end_of_word_suffix"`
			FuseUnk                 bool     `json:"fuse_unk"`
			ByteFallback            bool     `json:"byte_fallback"`
			Vocab                   vocab    `json:"vocab"`
			Merges                  []string `json:"merges"`
		}{Type: "BPE", Vocab: v, Merges: merges},
	})
}

// gpt2Vocab returns r50k_base's tokens in GPT-2's byte-level spelling, indexed by rank, with
// <|endoftext|> appended at 50256.
func gpt2Vocab() (vocab, error) {
	const file = "r50k_base.tiktoken"
	raw, err := assets.Assets.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reffiles: reading embedded %s: %w", file, err)
	}
	alphabet := byteAlphabet()
	v := make(vocab, gpt2EndOfTextID+1)
	for i, line := range lines(raw) {
		b64, rankText, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("reffiles: %s line %d: want \"base64 rank\", got %q", file, i+1, line)
		}
		tok, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("reffiles: %s line %d: %w", file, i+1, err)
		}
		rank, err := strconv.Atoi(rankText)
		if err != nil || rank < 0 || rank >= gpt2EndOfTextID || v[rank] != "" {
			return nil, fmt.Errorf("reffiles: %s line %d: rank %q out of range or repeated", file, i+1, rankText)
		}
		var sb strings.Builder
		for _, c := range tok {
			sb.WriteRune(alphabet[c])
		}
		v[rank] = sb.String()
	}
	for rank, tok := range v[:gpt2EndOfTextID] {
		if tok == "" {
			return nil, fmt.Errorf("reffiles: %s has no token of rank %d", file, rank)
		}
	}
	v[gpt2EndOfTextID] = gpt2EndOfText
	return v, nil
}

// byteAlphabet is GPT-2's bytes_to_unicode: printable Latin-1 bytes ('!'..'~', '¡'..'¬',
// '®'..'ÿ') stand for themselves, and the other 68 bytes, in order, for U+0100 onwards.
func byteAlphabet() [256]rune {
	var a [256]rune
	next := rune(256)
	for b := range 256 {
		if ('!' <= b && b <= '~') || (0xA1 <= b && b <= 0xAC) || (0xAE <= b && b <= 0xFF) {
			a[b] = rune(b)
		} else {
			a[b] = next
			next++
		}
	}
	return a
}
