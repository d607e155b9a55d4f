package hftokenizer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// corpusGolden is testdata/corpus.json: HF's token counts of whole documents (see
// golden_internal_test.go for how to regenerate it).
type corpusGolden struct {
	Files       []corpusDoc `json:"files"`
	BuildCorpus []corpusDoc `json:"build_corpus"`
}

type corpusDoc struct {
	Path          string         `json:"path"`
	SHA256        string         `json:"sha256"`
	Bytes         int            `json:"bytes"`
	Counts        map[string]int `json:"counts"`
	SpecialCounts map[string]int `json:"special_counts"`
}

func readCorpusGolden(t *testing.T) corpusGolden {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g corpusGolden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// checkCorpus counts every document under root with every reference file, in both views,
// and compares with HF's counts. A document whose bytes differ from the one HF counted fails.
func checkCorpus(t *testing.T, root string, docs []corpusDoc) {
	ctx := context.Background()
	type loaded struct {
		ordinary, special *Tokenizer
	}
	toks := map[string]loaded{}
	for _, f := range referenceFiles(t) {
		tok, _ := loadReference(t, f)
		toks[f.Name] = loaded{tok, tok.MatchSpecial()}
	}
	totals := map[string][2]int{}
	for _, d := range docs {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Path)))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != d.SHA256 {
			t.Errorf("%s: not the document HF counted (sha256 differs); regenerate testdata/corpus.json", d.Path)
			continue
		}
		for name, want := range d.Counts {
			tk, ok := toks[name]
			if !ok {
				t.Fatalf("corpus.json names an unknown tokenizer %q", name)
			}
			got, err := tk.ordinary.Count(ctx, []string{string(data)})
			if err != nil {
				t.Fatal(err)
			}
			if got[0] != want {
				t.Errorf("%s with %s: %d tokens, HF counts %d", d.Path, name, got[0], want)
			}
			wantSpecial := want
			if n, ok := d.SpecialCounts[name]; ok {
				wantSpecial = n
			}
			gotSpecial, err := tk.special.Count(ctx, []string{string(data)})
			if err != nil {
				t.Fatal(err)
			}
			if gotSpecial[0] != wantSpecial {
				t.Errorf("%s with %s@special: %d tokens, HF counts %d", d.Path, name, gotSpecial[0], wantSpecial)
			}
			tot := totals[name]
			totals[name] = [2]int{tot[0] + got[0], tot[1] + want}
		}
	}
	for name, tot := range totals {
		t.Logf("%s: %d tokens, HF %d", name, tot[0], tot[1])
	}
}

// TestCorpusCountsEqualHFs counts Chroma's evaluation corpora (../shared/eval/chroma, 208 KB)
// with all eight reference files.
func TestCorpusCountsEqualHFs(t *testing.T) {
	t.Parallel()
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "eval", "chroma", "corpora")); err != nil {
		t.Skipf("../shared (beside the repository) is not here, so Chroma's corpora are not: %v", err)
	}
	g := readCorpusGolden(t)
	if len(g.Files) == 0 {
		t.Fatal("corpus.json lists no files")
	}
	checkCorpus(t, shared, g.Files)
}

// TestBuildCorpusCountsEqualHFs counts the 265 English documents (7 MB) of a corpus made by
// ../shared/tools/build-corpus.sh DIR, when CHUNKKIT_CORPUS=DIR. It takes about a minute
// without the race detector.
func TestBuildCorpusCountsEqualHFs(t *testing.T) {
	dir := os.Getenv("CHUNKKIT_CORPUS")
	if dir == "" {
		t.Skip("set CHUNKKIT_CORPUS to a corpus built by ../shared/tools/build-corpus.sh to count its 7 MB of English with HF's counts")
	}
	g := readCorpusGolden(t)
	if len(g.BuildCorpus) == 0 {
		t.Fatal("corpus.json has no build_corpus section")
	}
	checkCorpus(t, dir, g.BuildCorpus)
}
