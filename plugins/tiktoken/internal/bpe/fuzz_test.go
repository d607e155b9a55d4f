package bpe

import (
	"slices"
	"sync"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe/data"
)

var (
	loadOnce sync.Once
	vocabs   []*Vocab
)

// loaded returns every encoding's Vocab, loaded once per test binary.
func loaded(t testing.TB) []*Vocab {
	t.Helper()
	loadOnce.Do(func() {
		for _, enc := range Encodings {
			tokens, starts := parseEncoding(t, enc)
			split, ok := data.Split(enc)
			if !ok {
				t.Fatalf("no split table for %s", enc)
			}
			v, err := Load(tokens, starts, split)
			if err != nil {
				t.Fatal(err)
			}
			v.waitBacktrack() // the tests read the backtracking encoder's tables directly
			vocabs = append(vocabs, v)
		}
	})
	if len(vocabs) != len(Encodings) {
		t.Fatal("loading the vocabularies failed")
	}
	return vocabs
}

// FuzzBacktrackEqualsMerge checks, for any bytes taken as one piece (no pre-tokenization, so
// also pieces the patterns never make), that the backtracking encoder gives the tokens of
// tiktoken's own merge in every encoding.
func FuzzBacktrackEqualsMerge(f *testing.F) {
	for _, s := range []string{"a", "aaaaaaaaaaaaaaaaaaaaaaaa", " tokenizer", "語語語語語", "\xff\xfe\x00", "!!!!!!!!", "unbelievably", "   \n\n\t", "🦀🦀"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, piece []byte) {
		if len(piece) == 0 || len(piece) > 512 {
			return
		}
		var s Scratch
		for i, v := range loaded(t) {
			want := v.merge(nil, string(piece))
			got, ok := v.backtrack(string(piece), &s)
			if !ok || !slices.Equal(want, got) {
				t.Errorf("%s: %q: backtrack %v (ok %v), merge %v", Encodings[i], piece, got, ok, want)
			}
		}
	})
}

// FuzzReadTokens checks that ReadTokens never panics, and that a file it accepts is what
// TokensFile writes for the tokens it read.
func FuzzReadTokens(f *testing.F) {
	good, err := TokensFile("abcd", []uint32{0, 1, 1, 4})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{string(good), "", "\x00\x00\x00\x00", "\x01\x00\x00\x00\x01a", "\xff\xff\xff\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		data, starts, err := ReadTokens(string(file))
		if err != nil {
			return
		}
		again, err := TokensFile(data, starts)
		if err != nil || !slices.Equal(again, file) {
			t.Errorf("ReadTokens accepted %q, but TokensFile of what it read gives %q (%v)", file, again, err)
		}
	})
}
