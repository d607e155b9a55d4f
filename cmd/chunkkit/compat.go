package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
)

const compatUsage = `Usage: chunkkit compat doc2mark FILE.json [--config '{"max_chunk_size":1000,...}']

Chunks doc2mark json_content exactly as doc2mark's chunk_content does and prints the chunks
as a JSON array with doc2mark's field names (null where doc2mark has None). In token mode
("size_unit":"tokens") the tokenizer named by encoding_name runs through the tiktoken plugin.
See docs/reference/doc2mark.md.
`

// compatCmd is `chunkkit compat doc2mark`: a byte-exact twin of doc2mark's chunk_content.
func compatCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "doc2mark" {
		fmt.Fprint(stderr, compatUsage)
		return errUsage
	}
	fs := flag.NewFlagSet("chunkkit compat doc2mark", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "doc2mark ChunkingConfig as JSON; absent fields keep doc2mark's defaults")
	fs.Usage = func() { fmt.Fprint(stderr, compatUsage) }
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprint(stderr, compatUsage)
		return errUsage
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	var p plugins
	defer p.Close()
	out, err := doc2mark.Compat(ctx, data, *config, p.tokenCounter)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	_, err = stdout.Write(out)
	return err
}
