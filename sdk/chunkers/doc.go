// Package chunkers holds chunkkit's built-in chunkers and the engine they share:
//
//   - Noop: one body chunk per non-blank block, the reference for "no chunking".
//   - HeadingAware: chunks along the heading tree within an exact token budget, each heading
//     folded into its section's first chunk (or a heading chunk of its own, HeadingChunks),
//     with overlap, cuts that keep words whole, and tables and code kept whole when they fit.
//   - Sections: doc2mark's model — one chunk per section down to a heading level, the heading
//     as its first line — within the same exact budget, with footnotes as linked chunks.
//   - FixedTokens: fixed windows of N tokens with overlap, ignoring structure; the baseline.
//
// New builds any of them by name (Strategies lists the names) from Options; the three
// budgeted ones embed one Config. Every chunk carries a Context (the document's title and its
// heading path, as Config.Context selects) and an EmbedText, sdk.JoinContext(Context, Content),
// which the budget applies to.
//
// Every chunker here measures with an sdk.TokenCounter and makes O(1) calls to it per document
// (one Boundaries call over all blocks, one Count call over the final chunks, and a further
// Count only for the rare chunk whose verified count exceeds its estimate), so a counter that
// runs in another process costs little. Offsets in chunks refer to the document's canonical
// text; see docs/reference/chunkers.md for the exact semantics.
package chunkers
