// Package sdk is the core of chunkkit: the block model documents arrive in, the chunk model
// chunkers produce, and the small, batch-shaped interfaces (TokenCounter, SentenceSplitter,
// Chunker) that may be served from another process.
//
// The package imports the standard library only, so a program that chunks in-process pulls in
// no RPC stack. Plugins, adapters and chunkers build on it; see the repository's docs/ for the
// architecture.
package sdk
