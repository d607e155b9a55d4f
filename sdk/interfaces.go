package sdk

import (
	"context"
	"iter"
)

// TokenCounter measures text in tokens. Both methods are batch-shaped because the counter may
// run in another process: callers send every text they need in one call.
//
// Count returns one count per text; the count of "" is 0. Boundaries returns, for each text,
// the end byte offset of each of its tokens: non-decreasing, each on a UTF-8 rune boundary, as
// many as Count reports, the last equal to len(text) (none for a text of zero tokens).
// Special-token text such as "<|endoftext|>" is ordinary text. Implementations are safe for
// concurrent use and do not retain the slices they are given.
type TokenCounter interface {
	Count(ctx context.Context, texts []string) ([]int, error)
	Boundaries(ctx context.Context, texts []string) ([][]int, error)
}

// SentenceSplitter finds sentences. Split returns, for each text, the end byte offset of each
// sentence: strictly increasing, on rune boundaries, the last equal to len(text) (none for
// a text with no non-space rune). White space after a sentence belongs to it. Implementations are safe for
// concurrent use.
type SentenceSplitter interface {
	Split(ctx context.Context, texts []string) ([][]int, error)
}

// Chunker turns a document into chunks. It never modifies doc, returns chunks with
// consecutive 0-based positions, and is safe for concurrent use.
type Chunker interface {
	Chunk(ctx context.Context, req Request, doc *Document) ([]Chunk, error)
}

// StreamChunker is an optional ability of a Chunker: ChunkSeq yields the chunks Chunk would
// return, the same chunks in the same order, as they are made, so that a caller that writes
// each chunk as it comes never holds a document's chunks at once, and the chunker holds only
// the part of the document it is working on (what that part is, the chunker documents). An
// error is yielded once, as the last element, with a zero Chunk; chunks yielded before it are
// valid but the document's output is incomplete. Stopping the loop early is allowed. Find it
// by type assertion.
type StreamChunker interface {
	Chunk(ctx context.Context, req Request, doc *Document) ([]Chunk, error)
	ChunkSeq(ctx context.Context, req Request, doc *Document) iter.Seq2[Chunk, error]
}

// PartChunker is an optional ability of a Chunker: ChunkParts yields the chunks Chunk would
// return for the document whose identity is doc (its Blocks and Source are not read) and whose
// blocks come from parts, in order, as an adapter parses its input a piece at a time (see
// DocumentPart), so that neither the adapter nor the chunker holds the whole document. An
// error from parts, or the chunker's own, is yielded once, as the last element, with a zero
// Chunk. Find it by type assertion.
type PartChunker interface {
	ChunkParts(ctx context.Context, req Request, doc *Document, parts iter.Seq2[DocumentPart, error]) iter.Seq2[Chunk, error]
}

// Budgeted is implemented by chunkers that promise a token budget: no body chunk's
// TokenCount exceeds MaxTokens unless its Metadata[MetaOverBudget] is true, and overlap is at
// most OverlapTokens.
type Budgeted interface {
	Budget() (maxTokens, overlapTokens int)
}

// Namer is implemented by counters and splitters that can say what they are, such as
// "tiktoken:cl100k_base".
type Namer interface {
	Name() string
}
