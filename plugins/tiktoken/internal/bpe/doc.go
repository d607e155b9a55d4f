// Package bpe is an exact, linear-time byte-pair encoder for OpenAI's tiktoken vocabularies:
// the backtracking encoder of GitHub's bpe crate (github.com/github/rust-gems, crates/bpe,
// backtrack_encoder.rs and byte_pair_encoding.rs), ported to Go.
//
// BPE as tiktoken runs it starts from a piece's bytes and repeatedly merges the adjacent pair
// whose concatenation has the lowest rank. The backtracking encoder gets the same tokens
// without merging: it walks the piece left to right, takes the longest token that is a prefix
// of what is left, and keeps it only if it is compatible with the token before it (the pair
// check asks whether BPE, undoing the two tokens' merges at the seam, would ever have merged
// across it: Vocab.validPair); otherwise it tries the next shorter prefix token, and when none
// fits it backs up one token and marks the position it leaves as a dead end in a bit field, so
// that no position is tried twice. The result equals BPE's for every vocabulary in which each
// token's own bytes encode to that token (Derive checks it for all four encodings), and the
// work is linear in the piece: each position is entered and abandoned at most once, and each
// visit tries at most as many tokens as the longest token has bytes.
//
// The longest-prefix matcher is a hash walk instead of the crate's Aho–Corasick automaton:
// FNV-1a hashes each prefix of the text as it extends it by a byte, a two-bit-per-slot filter
// says whether some token starts with a string of that hash and whether a token has it, and
// an open-addressed table keyed by the hash finds the token, whose bytes are compared before
// it is taken. A filter false positive only costs a probe; the comparison keeps it exact.
//
// A Vocab is built from the tokens of a .tiktoken file (base64 token, space, rank, per line:
// OpenAI's format, embedded by github.com/pkoukk/tiktoken-go-loader) and the split table that
// Derive computes from them (about a second for all four encodings). `go generate` stores both
// in data/: the tokens without base64 (TokensFile, ReadTokens: 3.1 MB for the four where the
// .tiktoken files are 7 MB) and the split tables (2.4 MB), so that loading neither decodes
// nor searches, and reads both in place from the binary.
package bpe
