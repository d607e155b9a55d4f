// Package data holds the split tables that package bpe's gen command writes, ENCODING.split
// (two three-byte token ids per token id; see bpe.Vocab.SplitTable), embedded so that loading an encoding
// does no search. Regenerate them with `go generate ./plugins/tiktoken/internal/bpe`.
package data

import "embed"

// Tables holds cl100k_base.split, o200k_base.split, p50k_base.split and r50k_base.split.
//
//go:embed *.split
var Tables embed.FS
