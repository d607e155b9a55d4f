// Command gen writes what package bpe loads for the four tiktoken encodings, in data/:
// `go generate ./plugins/tiktoken/internal/bpe`. From the .tiktoken files that
// github.com/pkoukk/tiktoken-go-loader embeds (OpenAI's), it writes ENCODING.tokens, the
// vocabulary without base64 (bpe.TokensFile), and ENCODING.split, per token id the ids of the
// two tokens BPE merges into it, three bytes each (bpe.Vocab.SplitTable), which bpe.Derive
// computes, checking that every token encodes to itself.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	loader "github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe"
)

func main() {
	if err := run("data"); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	for _, enc := range bpe.Encodings {
		file, err := loader.Assets.Open(enc + ".tiktoken")
		if err != nil {
			return err
		}
		data, starts, err := bpe.ParseTiktoken(file)
		if err != nil {
			return fmt.Errorf("%s: %w", enc, err)
		}
		v, err := bpe.Derive(data, starts)
		if err != nil {
			return fmt.Errorf("%s: %w", enc, err)
		}
		if err := os.WriteFile(filepath.Join(dir, enc+".split"), v.SplitTable(), 0o644); err != nil {
			return err
		}
		tokens, err := bpe.TokensFile(data, starts)
		if err != nil {
			return fmt.Errorf("%s: %w", enc, err)
		}
		if err := os.WriteFile(filepath.Join(dir, enc+".tokens"), tokens, 0o644); err != nil {
			return err
		}
	}
	return nil
}
