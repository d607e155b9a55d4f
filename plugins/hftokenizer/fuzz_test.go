package hftokenizer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
	"github.com/chunkkit/chunkkit/sdk"
)

var (
	fuzzOnce sync.Once
	fuzzToks []*Tokenizer
	fuzzErr  error
)

// fuzzTokenizers are GPT-2 and BERT (assembled from Go modules, so the fuzz target needs no
// npm files), a Metaspace tokenizer with byte fallback, and the two committed SentencePiece
// Unigram files (Precompiled charsmaps, one with byte fallback), each in both views.
func fuzzTokenizers(tb testing.TB) []*Tokenizer {
	fuzzOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hftokenizer-fuzz-")
		if err != nil {
			fuzzErr = err
			return
		}
		defer os.RemoveAll(dir)
		files, err := reffiles.WriteAssembled(dir)
		if err != nil {
			fuzzErr = err
			return
		}
		for _, f := range files {
			tok, err := Load(f.Path)
			if err != nil {
				fuzzErr = err
				return
			}
			fuzzToks = append(fuzzToks, tok, tok.MatchSpecial())
		}
		meta := `{"added_tokens":[{"id":3,"content":"<s>","single_word":false,"lstrip":true,"rstrip":false,"normalized":false,"special":true}],` +
			`"normalizer":{"type":"Sequence","normalizers":[{"type":"NFKC"},{"type":"Lowercase"},{"type":"Strip","strip_left":false,"strip_right":true}]},` +
			`"pre_tokenizer":{"type":"Sequence","pretokenizers":[{"type":"Digits","individual_digits":true},{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true}]},` +
			`"model":{"type":"BPE","unk_token":"<unk>","fuse_unk":true,"byte_fallback":true,"vocab":{"<unk>":0,"▁":1,"a":2,"<s>":3,"▁a":4,"<0x41>":5,"<0xC3>":6,"<0xA9>":7},"merges":["▁ a"]}}`
		tok, err := Parse(strings.NewReader(meta))
		if err != nil {
			fuzzErr = err
			return
		}
		fuzzToks = append(fuzzToks, tok, tok.MatchSpecial())
		for _, name := range reffiles.Committed {
			tok, err := Load(reffiles.CommittedPath(filepath.Join("..", ".."), name))
			if err != nil {
				fuzzErr = err
				return
			}
			fuzzToks = append(fuzzToks, tok, tok.MatchSpecial())
		}
	})
	if fuzzErr != nil {
		tb.Fatal(fuzzErr)
	}
	return fuzzToks
}

// FuzzEncode feeds any bytes to every fuzz tokenizer: no panic, no error, as many boundaries
// as tokens, and boundaries that keep sdk.TokenCounter's contract.
func FuzzEncode(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "strings.json"))
	if err != nil {
		f.Fatal(err)
	}
	var seeds []string
	if err := json.Unmarshal(raw, &seeds); err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	for _, s := range []string{"a\xffb", "\xe4\xb8", "\x80\x80 [SEP]", "<s>  <s>", strings.Repeat(" ", 70) + "a", "Ａ１２ é\u0301", "İ", "\r\n\u0600a\u0301", "<unk><unk>", "ﬁ\x1e™"} {
		f.Add(s)
	}
	toks := fuzzTokenizers(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range toks {
			counts, err := tok.Count(ctx, []string{text})
			if err != nil {
				t.Fatalf("%s: Count(%q): %v", tok.Name(), text, err)
			}
			bounds, err := tok.Boundaries(ctx, []string{text})
			if err != nil {
				t.Fatalf("%s: Boundaries(%q): %v", tok.Name(), text, err)
			}
			if len(bounds[0]) != counts[0] {
				t.Fatalf("%s: %q: %d tokens, %d boundaries", tok.Name(), text, counts[0], len(bounds[0]))
			}
			if err := sdk.CheckBoundaries([]string{text}, bounds); err != nil {
				t.Fatalf("%s: %q: %v", tok.Name(), text, err)
			}
		}
	})
}
