package hftokenizer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// corpusGolden is testdata/corpus.json: HF's token counts of whole documents (see
// golden_internal_test.go for how to regenerate it).
type corpusGolden struct {
	Files            []corpusDoc `json:"files"`
	BuildCorpus      []corpusDoc `json:"build_corpus"`
	BuildCorpusMulti []corpusDoc `json:"build_corpus_multi"`
}

type corpusDoc struct {
	Path          string         `json:"path"`
	SHA256        string         `json:"sha256"`
	Bytes         int            `json:"bytes"`
	Counts        map[string]int `json:"counts"`
	SpecialCounts map[string]int `json:"special_counts"`
	// TokensSHA256 is, for the Unigram files, the SHA-256 of "ID END\n" per token of HF's
	// ordinary view, END in code points.
	TokensSHA256 map[string]string `json:"tokens_sha256"`
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
	hashed := map[string]int{}
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
		for name, want := range d.TokensSHA256 {
			if got := tokensSHA256(t, toks[name].ordinary, string(data)); got != want {
				t.Errorf("%s with %s: the ids and token ends differ from HF's (sha256 %s, HF %s)", d.Path, name, got, want)
			}
			hashed[name]++
		}
	}
	for name, n := range hashed {
		t.Logf("%s: every id and token end equal to HF's in %d documents", name, n)
	}
	for name, tot := range totals {
		t.Logf("%s: %d tokens, HF %d", name, tot[0], tot[1])
	}
}

// tokensSHA256 hashes tok's ids and token ends for text as tools/hf-golden/generate.mjs hashes
// HF's: "ID END\n" per token, END in code points.
func tokensSHA256(t *testing.T, tok *Tokenizer, text string) string {
	t.Helper()
	ids, ends, err := tok.encode(text, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cp := make([]int32, len(text)+1) // byte offset → code points before it
	n := int32(0)
	for i := range text {
		cp[i] = n
		n++
	}
	cp[len(text)] = n
	h := sha256.New()
	var line []byte
	for i, id := range ids {
		line = strconv.AppendInt(line[:0], int64(id), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(cp[ends[i]]), 10)
		h.Write(append(line, '\n'))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestCorpusCountsEqualHFs counts Chroma's evaluation corpora (../shared/eval/chroma, 208 KB)
// with all ten reference files. Under -short (make test's run with the race detector, which
// slows it ~7×) it counts the first document only; make test then runs it whole without the
// race detector.
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
	if testing.Short() {
		g.Files = g.Files[:1]
	}
	checkCorpus(t, shared, g.Files)
}

// TestBuildCorpusCountsEqualHFs counts the 265 English documents (7 MB) and the German,
// Japanese and Chinese Debian Reference (2.8 MB) of a corpus made by
// ../shared/tools/build-corpus.sh DIR, when CHUNKKIT_CORPUS=DIR, with every reference file,
// document by document. It takes a minute or two without the race detector.
func TestBuildCorpusCountsEqualHFs(t *testing.T) {
	dir := os.Getenv("CHUNKKIT_CORPUS")
	if dir == "" {
		t.Skip("set CHUNKKIT_CORPUS to a corpus built by ../shared/tools/build-corpus.sh to count its 9.8 MB with HF's counts")
	}
	g := readCorpusGolden(t)
	if len(g.BuildCorpus) == 0 || len(g.BuildCorpusMulti) == 0 {
		t.Fatal("corpus.json has no build_corpus or build_corpus_multi section")
	}
	checkCorpus(t, dir, append(g.BuildCorpus, g.BuildCorpusMulti...))
}
