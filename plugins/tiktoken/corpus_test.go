package tiktoken_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
)

// corpusGolden is testdata/corpus.json: OpenAI's tiktoken's count of every file of a corpus
// built by ../shared/tools/build-corpus.sh, per encoding (tools/tiktoken-golden/corpus.mjs).
type corpusGolden struct {
	Tiktoken string         `json:"tiktoken"`
	Totals   map[string]int `json:"totals"`
	Files    []struct {
		Path   string         `json:"path"`
		Bytes  int            `json:"bytes"`
		SHA256 string         `json:"sha256"`
		Counts map[string]int `json:"counts"`
	} `json:"files"`
}

// TestBuildCorpusCountsEqualTiktoken counts every file (268, 9.8 MB, English, German,
// Japanese and Chinese) of the corpus CHUNKKIT_CORPUS names with the Backtrack and Fast
// backends, in all four encodings, and compares each count with OpenAI's tiktoken's. It
// skips without CHUNKKIT_CORPUS; regenerate testdata/corpus.json with
// `node tools/tiktoken-golden/corpus.mjs DIR` if the corpus script changes.
func TestBuildCorpusCountsEqualTiktoken(t *testing.T) {
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		t.Skipf("set %s to a corpus built by ../shared/tools/build-corpus.sh to count it against tiktoken's testdata/corpus.json", corpusEnv)
	}
	var g corpusGolden
	readJSON(t, "testdata/corpus.json", &g)
	if g.Tiktoken != "1.0.22" || len(g.Files) == 0 {
		t.Fatalf("testdata/corpus.json: tiktoken %q, %d files", g.Tiktoken, len(g.Files))
	}
	texts := make([]string, len(g.Files))
	for i, f := range g.Files {
		b, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Fatalf("%s: not the file corpus.json was made from (%d bytes, want %d): rebuild the corpus or regenerate corpus.json", f.Path, len(b), f.Bytes)
		}
		texts[i] = string(b)
	}
	for _, backend := range []tiktoken.Backend{tiktoken.Backtrack, tiktoken.Fast} {
		for _, enc := range tiktoken.Encodings() {
			t.Run(string(backend)+"/"+enc, func(t *testing.T) {
				t.Parallel()
				counts, err := counter(t, enc, backend).Count(context.Background(), texts)
				if err != nil {
					t.Fatal(err)
				}
				total := 0
				for i, f := range g.Files {
					total += counts[i]
					if counts[i] != f.Counts[enc] {
						t.Errorf("%s: %d tokens, tiktoken counts %d", f.Path, counts[i], f.Counts[enc])
					}
				}
				if total != g.Totals[enc] {
					t.Errorf("total %d tokens, tiktoken counts %d", total, g.Totals[enc])
				}
			})
		}
	}
	for _, enc := range tiktoken.Encodings() {
		t.Run("backtrack boundaries equal fast's on "+enc, func(t *testing.T) {
			t.Parallel()
			want, err := counter(t, enc, tiktoken.Fast).Boundaries(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := counter(t, enc, tiktoken.Backtrack).Boundaries(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range texts {
				if !slices.Equal(want[i], got[i]) {
					t.Errorf("%s: boundaries differ from the fast backend's", g.Files[i].Path)
				}
			}
		})
	}
}
