// Package doc2mark reads the json_content of doc2mark, a Python document converter, and
// chunks it exactly as doc2mark does.
//
// ParseContent and ParseItems read json_content — a JSON list of items such as
// {"type": "text:section", "content": "Methods", "page": 2}, or the {"pages": N, "content":
// [...]} wrapper — with errors that name the item, the field and the line. Parse and
// ToDocument map it to an sdk.Document, one block per item, so that every chunkkit chunker,
// Sections in particular, reads it.
//
// ChunkContent is a twin of doc2mark's own chunk_content: for the same items and
// ChunkingConfig it returns the same chunks, byte for byte, in character or token mode, with
// doc2mark's defects intact (overlap that cascades and ignores section ends, chunks over the
// size limit, a section hierarchy that treats an untitled section as the parent of the next).
// CompatJSON writes its chunks with doc2mark's field names. Use it to reproduce what a
// doc2mark pipeline produced; use chunkers.Sections on Parse's document for chunks that keep a
// token budget. docs/reference/doc2mark.md has the mapping, the compatibility contract and the
// list of defects side by side with what Sections does instead.
package doc2mark
