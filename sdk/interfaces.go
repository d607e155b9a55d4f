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

// RangeCounter is an optional ability of a TokenCounter: it counts texts made partly of ranges
// of texts it measured before, by what it learnt measuring them, instead of counting every
// byte anew. A chunker measures a document's blocks once and then counts chunks cut from them;
// sdk/serve's Go server answers protocol 1.1's CountRanges with it, so that the final count of
// a chunk costs the plugin a few pieces at the edges of each range rather than its whole text.
// Find it by type assertion. Implementations are safe for concurrent use.
type RangeCounter interface {
	Count(ctx context.Context, texts []string) ([]int, error)
	Boundaries(ctx context.Context, texts []string) ([][]int, error)
	// MeasureMarked returns what Boundaries returns for texts and a mark: what CountMarked
	// reads to count ranges of them, or nil when it keeps nothing. A mark does not retain the
	// texts, and never changes once returned. A mark that has a method Size() int says how many
	// bytes it holds, so that a caller that keeps many can bound them.
	MeasureMarked(ctx context.Context, texts []string) (ends [][]int, mark any, err error)
	// CountMarked returns, for each text, exactly what Count returns for texts[i].Text.
	CountMarked(ctx context.Context, texts []MarkedText) ([]int, error)
}

// MarkedText is a text to count, with the ranges of it that are ranges of texts measured
// before (see RangeCounter).
type MarkedText struct {
	Text string
	// Ranges are in order and do not overlap. Text[At:At+Len] is the bytes [Start, Start+Len)
	// of text number Of of the texts measured with mark Mark. A range with a nil Mark is
	// counted as any byte is.
	Ranges []MarkedRange
}

// MarkedRange is a range of a MarkedText that repeats a range of a measured text.
type MarkedRange struct {
	At, Len   int
	Mark      any
	Of, Start int
}
