package sdk

import "context"

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
