package hftokenizer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer"
	"github.com/chunkkit/chunkkit/sdk"
)

// tiny builds a tokenizer.json around a small model for tests that need no reference file.
func tiny(normalizer, preTokenizer, model, added string) string {
	if added == "" {
		added = "[]"
	}
	return `{"version":"1.0","truncation":null,"padding":null,"added_tokens":` + added +
		`,"normalizer":` + normalizer + `,"pre_tokenizer":` + preTokenizer +
		`,"post_processor":null,"decoder":null,"model":` + model + `}`
}

const (
	byteLevel = `{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true}`
	// aBPE knows "a", "aa", "b", " " (as Ġ) and "Ġa", and merges "a a" before "Ġ a".
	aBPE = `{"type":"BPE","dropout":null,"unk_token":null,"continuing_subword_prefix":null,` +
		`"end_of_word_suffix":null,"fuse_unk":false,"byte_fallback":false,` +
		`"vocab":{"a":0,"aa":1,"b":2,"Ġ":3,"Ġa":4},"merges":["a a","Ġ a"]}`
)

func parse(t *testing.T, js string) *hftokenizer.Tokenizer {
	t.Helper()
	tok, err := hftokenizer.Parse(strings.NewReader(js))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return tok
}

func TestRepeatedCharactersMergeFromTheLeft(t *testing.T) {
	t.Parallel()
	tok := parse(t, tiny("null", byteLevel, aBPE, ""))
	// HF merges a run of "a" pairwise from the left: aa aa a. sugarme/tokenizer v0.3.0's
	// merge gives other splits on such runs (NOTES.md: "IEEE", "00000000").
	for text, want := range map[string][]int{
		"aaaaa":   {1, 1, 0},
		"aaaa":    {1, 1},
		" aaa":    {3, 1, 0}, // "a a" ranks before "Ġ a"
		" ab":     {4, 2},
		"ab aab":  {0, 2, 3, 1, 2},
		"b":       {2},
		"":        {},
		"bbbbbbb": {2, 2, 2, 2, 2, 2, 2},
	} {
		got, err := tok.Encode(text)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Encode(%q) (-want +got):\n%s", text, diff)
		}
	}
}

func TestCharactersWithoutATokenAreDroppedAsHFDropsThem(t *testing.T) {
	t.Parallel()
	// With no unk_token HF silently drops a byte it has no token for, and the characters on
	// either side then merge; so do we, to count as HF counts. "c" is not in the vocabulary.
	tok := parse(t, tiny("null", byteLevel, aBPE, ""))
	got, err := tok.Encode("aca")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1}, got); diff != "" {
		t.Errorf("Encode(aca) (-want +got):\n%s", diff)
	}
}

func TestAddedTokens(t *testing.T) {
	t.Parallel()
	added := `[{"id":9,"content":"<|endoftext|>","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true},` +
		`{"id":10,"content":"<|end|>","single_word":false,"lstrip":false,"rstrip":true,"normalized":false,"special":true},` +
		`{"id":11,"content":"<x>","single_word":false,"lstrip":false,"rstrip":false,"normalized":true,"special":false}]`
	ordinary := parse(t, tiny("null", byteLevel, aBPE, added))
	special := ordinary.MatchSpecial()
	ctx := context.Background()
	texts := []string{"a<|endoftext|>aa", "<|endoftext|><|endoftext|>", "<|end|>   b", "<|endoftext|", "a<x>aa"}
	for _, tt := range []struct {
		name   string
		tok    *hftokenizer.Tokenizer
		counts []int
		bounds [][]int
	}{
		// By default an added token's text is text, special or not: its characters are not
		// in this vocabulary, so only the "a"s count (HF drops characters it has no token for).
		{"ordinary", ordinary, []int{2, 0, 4, 0, 2}, [][]int{{1, 16}, nil, {8, 9, 10, 11}, nil, {1, 6}}},
		// HF's default encode: each added token is one token; "<|end|>" takes the spaces
		// after it (rstrip).
		{"special", special, []int{3, 2, 2, 0, 3}, [][]int{{1, 14, 16}, {13, 26}, {10, 11}, nil, {1, 4, 6}}},
	} {
		counts, err := tt.tok.Count(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.counts, counts); diff != "" {
			t.Errorf("%s: Count (-want +got):\n%s", tt.name, diff)
		}
		bounds, err := tt.tok.Boundaries(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.bounds, bounds, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: Boundaries (-want +got):\n%s", tt.name, diff)
		}
	}
	if ordinary.Name() != "hf:" || special.Name() != "hf:@special" {
		t.Errorf("names %q, %q", ordinary.Name(), special.Name())
	}
}

func TestInvalidUTF8CountsAsReplacementCharacters(t *testing.T) {
	t.Parallel()
	// A WordLevel over BERT-style words: each maximal invalid subsequence is one U+FFFD, which
	// is its own word here.
	model := `{"type":"WordLevel","vocab":{"a":0,"b":1,"\ufffd":2,"[UNK]":3},"unk_token":"[UNK]"}`
	tok := parse(t, tiny("null", `{"type":"WhitespaceSplit"}`, model, ""))
	ctx := context.Background()
	texts := []string{"a \xff\xfe b", "a \xe4\xb8 b", "\x80"}
	counts, err := tok.Count(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	// "\xff\xfe" is two invalid bytes, two U+FFFD in one word: [UNK]; "\xe4\xb8" is one cut
	// sequence, one U+FFFD: its own token.
	if diff := cmp.Diff([]int{3, 3, 1}, counts); diff != "" {
		t.Errorf("Count (-want +got):\n%s", diff)
	}
	bounds, err := tok.Boundaries(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if err := sdk.CheckBoundaries(texts, bounds); err != nil {
		t.Error(err)
	}
	if diff := cmp.Diff([][]int{{1, 4, 6}, {1, 4, 6}, {1}}, bounds); diff != "" {
		t.Errorf("Boundaries (-want +got):\n%s", diff)
	}
}

func TestUnsupportedFeaturesAreRefusedByName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, json, want string
	}{
		{"Unigram sampling", tiny("null", "null", `{"type":"Unigram","unk_id":0,"alpha":0.1,"vocab":[["<unk>",0.0]]}`, ""), "model.alpha: Unigram sampling, alpha 0.1"},
		{"Unigram after ByteLevel", tiny("null", byteLevel, `{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0.0],["a",-1.0]]}`, ""), `model: Unigram after a ByteLevel pre-tokenizer`},
		{"BPE dropout", tiny("null", byteLevel, strings.Replace(aBPE, `"dropout":null`, `"dropout":0.1`, 1), ""), "model.dropout: BPE dropout 0.1"},
		{"a pre-tokenizer after ByteLevel", tiny("null", `{"type":"Sequence","pretokenizers":[`+byteLevel+`,{"type":"Digits","individual_digits":true}]}`, aBPE, ""), "pre_tokenizer.pretokenizers[1]: a pre-tokenizer after ByteLevel"},
		{"UnicodeScripts", tiny("null", `{"type":"UnicodeScripts"}`, aBPE, ""), `pre_tokenizer: pre-tokenizer type "UnicodeScripts"`},
		{"a BPE continuing_subword_prefix", tiny("null", `{"type":"WhitespaceSplit"}`, strings.Replace(aBPE, `"continuing_subword_prefix":null`, `"continuing_subword_prefix":"##"`, 1), ""), `model.continuing_subword_prefix: a BPE continuing_subword_prefix ("##")`},
		{"an unknown split behavior", tiny("null", `{"type":"Split","pattern":{"String":" "},"behavior":"Sideways","invert":false}`, aBPE, ""), `split behavior "Sideways"`},
		{"a regex Oniguruma has and regexp2 has not", tiny("null", `{"type":"Split","pattern":{"Regex":"\\p{Greek"},"behavior":"Isolated","invert":false}`, aBPE, ""), "pre_tokenizer.pattern.Regex: regular expression"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := hftokenizer.Parse(strings.NewReader(tt.json))
			if !errors.Is(err, hftokenizer.ErrUnsupportedFeature) || !errors.Is(err, sdk.ErrUnsupported) {
				t.Fatalf("error = %v, want one matching ErrUnsupportedFeature and sdk.ErrUnsupported", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestMalformedFilesSayWhere(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, json, want string
	}{
		{"not JSON", `{"model": [}`, "not JSON at byte"},
		{"a merge of unknown tokens", tiny("null", byteLevel, strings.Replace(aBPE, `"Ġ a"`, `"x y"`, 1), ""), `model.merges[1]: merge "x" "y": token not in the vocabulary`},
		{"a vocabulary id that is no number", tiny("null", byteLevel, strings.Replace(aBPE, `"b":2`, `"b":"two"`, 1), ""), `model.vocab: token "b" has id two`},
		{"no model", `{"added_tokens":[],"normalizer":null,"pre_tokenizer":null,"model":null}`, "model: missing"},
		{"an unk_token outside the vocabulary", tiny("null", "null", `{"type":"WordLevel","vocab":{"a":0},"unk_token":"[UNK]"}`, ""), `model.unk_token: "[UNK]" is not in the vocabulary`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := hftokenizer.Parse(strings.NewReader(tt.json))
			if !errors.Is(err, sdk.ErrInvalidConfig) {
				t.Fatalf("error = %v, want one matching sdk.ErrInvalidConfig", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestWordLevelWithoutUnkFailsTheCall(t *testing.T) {
	t.Parallel()
	tok := parse(t, tiny("null", `{"type":"WhitespaceSplit"}`, `{"type":"WordLevel","vocab":{"a":0}}`, ""))
	_, err := tok.Count(context.Background(), []string{"a", "a b"})
	if err == nil || !strings.Contains(err.Error(), `text 1: WordLevel: "b" is not in the vocabulary`) {
		t.Errorf("error = %v, want one naming text 1 and the word", err)
	}
}

func TestCounters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "tokenizer.json")
	c := hftokenizer.NewCounters()
	if len(c.Models()) != 0 {
		t.Errorf("Models() = %v, want none (any path may be asked for)", c.Models())
	}
	if _, err := c.Model(ctx, ""); !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), "hf:/path/to/tokenizer.json") {
		t.Errorf(`Counter(""): %v, want ErrUnsupported showing the spec`, err)
	}
	if _, err := c.Model(ctx, path); !errors.Is(err, sdk.ErrUnsupported) || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("missing file: %v, want ErrUnsupported and ErrNotExist naming the path", err)
	}
	// A failed load is not remembered: write the file and ask again.
	if err := os.WriteFile(path, []byte(tiny("null", byteLevel, aBPE, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := c.Model(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Model(ctx, filepath.Join(dir, ".", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	// A directory stands for the tokenizer.json in it, as a model downloaded from the Hub.
	fromDir, err := c.Model(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if fromDir != first {
		t.Error("the directory and the file in it were loaded twice")
	}
	if err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Error("the same file under two spellings was loaded twice")
	}
	if n, ok := first.(sdk.Namer); !ok || n.Name() != "hf:"+path {
		t.Errorf("Name = %v, want hf:%s", first, path)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Model(cancelled, path); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
