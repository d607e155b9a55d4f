// Command gen writes the split tables of package bpe, data/ENCODING.split, for the four
// tiktoken encodings: `go generate ./plugins/tiktoken/internal/bpe`.
// Each holds, per token id, the ids of the two tokens BPE merges into it, three bytes each
// (see bpe.Vocab.SplitTable); bpe.Derive computes them from the .tiktoken files that
// github.com/pkoukk/tiktoken-go-loader embeds, and checks that every token encodes to itself.
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
	}
	return nil
}
