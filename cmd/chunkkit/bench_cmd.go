package main

import (
	"context"
	"io"

	"github.com/chunkkit/chunkkit/bench"
)

// benchCmd is `chunkkit bench`; plugin tokenizer specs resolve through the plugin host.
func benchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var p plugins
	defer p.Close()
	return bench.Command(ctx, args, stdout, stderr, p.tokenCounter)
}
