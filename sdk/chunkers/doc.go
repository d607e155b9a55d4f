// Package chunkers holds chunkkit's built-in chunkers:
//
//   - Noop: one body chunk per non-blank block, the reference for "no chunking".
//   - HeadingAware: a heading tree with body chunks packed under their heading within an
//     exact token budget, with token overlap, sentence- and token-level splitting of oversized
//     blocks, and tables and code kept whole when they fit.
//   - Sections: doc2mark's model — one chunk per section down to a heading level, the heading
//     as its first line — within the same exact budget, with footnotes as linked chunks.
//   - FixedTokens: fixed windows of N tokens with overlap, ignoring structure; the baseline.
//
// Every chunker here measures with an sdk.TokenCounter and makes O(1) calls to it per document
// (one Boundaries call over all blocks, one Count call over the final chunks, and a further
// Count only for the rare chunk whose verified count exceeds its estimate), so a counter that
// runs in another process costs little. Offsets in chunks refer to the document's canonical
// text; see docs/reference/chunkers.md for the exact semantics.
package chunkers
