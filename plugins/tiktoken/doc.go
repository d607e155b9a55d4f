// Package tiktoken counts tokens the way OpenAI's tiktoken does, offline and in-process, for
// the encodings cl100k_base, o200k_base, p50k_base and r50k_base. A Counter is an
// sdk.TokenCounter; the same package is served as the chunkkit plugin "tiktoken" by its cmd/
// binary, so a chunker can use it in-process or out of process and get the same answers.
//
//	c, err := tiktoken.New("cl100k_base", tiktoken.Backtrack)
//	counts, err := c.Count(ctx, []string{"Hello, world!"}) // [4]
//
// # Models and backends
//
// A model string names an encoding and, after "@", a backend: "cl100k_base" and
// "cl100k_base@backtrack" (the Backtrack backend, the default), "cl100k_base@fast",
// "cl100k_base@reference". ParseModel reads them, Models lists them, and NewCounters hands out one
// shared Counter per model. Counter.Name gives the tokenizer spec: "tiktoken:cl100k_base" or
// "tiktoken:cl100k_base@reference".
//
// All three backends split text into pieces with tiktoken's pattern and encode each piece on
// its own; they differ in how.
//
// Backtrack (the default) splits with internal/pretok's hand-written scanners and encodes a
// piece that is not itself a token with the backtracking encoder of GitHub's bpe crate
// (github.com/github/rust-gems, crates/bpe), ported to Go in internal/bpe: it takes the
// longest token that starts the rest of the piece and keeps it if BPE could leave it beside
// the token before (a check that undoes both tokens' merges at the seam), else a shorter one,
// backing up when none fits; the result is BPE's exactly, because every token of these
// vocabularies encodes to itself, which the generator checks, and the time is linear in the
// worst case. Pieces that are not tokens recur, so an encoding remembers up to 65,536 of them,
// shared by every call counting at once.
// Loading reads, in place from the binary, the vocabulary without base64 and a split table
// (the two tokens each token is merged from), both generated ahead of time and embedded
// (internal/bpe/data, 5.5 MB for the four encodings), so it decodes and searches nothing. See
// docs/reference/tokenizers.md for speed and cold start figures.
//
// Fast splits with the same scanners and merges each piece with a heap, O(n log n) in its
// length. It was the default before Backtrack and stays as a cross-check.
//
// Reference is github.com/pkoukk/tiktoken-go, a line-by-line port of tiktoken. Its merge is
// quadratic in the length of a piece: measured on 2 cores, "a" repeated 10,000, 20,000,
// 40,000 and 80,000 times took 47 ms, 189 ms, 756 ms and 3.3 s (BenchmarkPathological).
// OpenAI's tiktoken is quadratic there too (about 14 s for 100,000 × "a").
//
// All three read the same vocabularies: the .tiktoken files that
// github.com/pkoukk/tiktoken-go-loader embeds (OpenAI's files byte for byte), which
// internal/bpe's generator stores without base64 (a test holds them equal); the loader's
// own files are not linked into the binary.
//
// # Offline
//
// No backend touches the network or the file system at run time. tiktoken-go's default
// loader downloads vocabularies and caches them under $TIKTOKEN_CACHE_DIR,
// $DATA_GYM_CACHE_DIR or $TMPDIR/data-gym-cache; this package installs a loader of its own
// (tiktoken-go's SetBpeLoader, once, before tiktoken-go's first use through this package), which
// reads only the embedded vocabularies, so those variables are never consulted. A program that also
// uses tiktoken-go directly and installs another loader changes what this package loads for
// encodings not loaded yet.
//
// # What is counted
//
// Counts and boundaries equal those of OpenAI's tiktoken (npm tiktoken 1.0.22, its Rust core
// compiled to WASM) on every case of testdata/strings.json, for every backend and all four
// encodings; testdata/golden.json holds tiktoken's answers. Counts also equal tiktoken's on
// every file of the corpus ../shared/tools/build-corpus.sh builds (testdata/corpus.json).
//
// Special-token text such as "<|endoftext|>", "<|fim_prefix|>" or "<|endofprompt|>" is always
// ordinary text, as tiktoken's encode_ordinary treats it: it is never rejected and never
// counted as one control token.
//
// Boundaries are token end byte offsets: the cumulative byte length of the tokens, moved up to
// the next rune boundary when a token ends inside a multi-byte character (byte-level BPE often
// splits an emoji or a CJK character over several tokens, which then share one end offset).
//
// Text that is not valid UTF-8 is counted as tiktoken counts the string that a UTF-8 decoder
// with replacement makes of it (Python's bytes.decode(errors="replace"), the WHATWG
// TextDecoder): each maximal invalid subsequence becomes one U+FFFD, counted like any other
// character. Boundaries still refer to the bytes given: a token ending
// inside such a U+FFFD ends after the invalid bytes it stands for, and every boundary is on a
// cut point, a byte that is not a UTF-8 continuation byte, as sdk.CheckBoundaries requires;
// so an invalid byte counts as a rune of its own, except that stray continuation bytes stay
// with the rune before them. Nothing panics on any input.
package tiktoken
