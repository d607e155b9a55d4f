// Package tiktoken counts tokens the way OpenAI's tiktoken does, offline and in-process, for
// the encodings cl100k_base, o200k_base, p50k_base and r50k_base. A Counter is an
// sdk.TokenCounter; the same package is served as the chunkkit plugin "tiktoken" by its cmd/
// binary, so a chunker can use it in-process or out of process and get the same answers.
//
//	c, err := tiktoken.New("cl100k_base", tiktoken.Fast)
//	counts, err := c.Count(ctx, []string{"Hello, world!"}) // [4]
//
// # Models and backends
//
// A model string names an encoding and, after "@", a backend: "cl100k_base" (the Fast
// backend), "cl100k_base@fast", "cl100k_base@reference". ParseModel reads them, Models lists
// them, and NewCounters hands out one shared Counter per model. Counter.Name gives the tokenizer
// spec: "tiktoken:cl100k_base" or "tiktoken:cl100k_base@reference".
//
// The Fast backend (the default) uses the vocabularies github.com/tiktoken-go/tokenizer
// compiles into the binary, splits text into pieces with hand-written scanners that find
// exactly what tiktoken's patterns find, and merges each piece with a heap, so time grows
// linearly with input, long runs without a break ("a"×100000) included. Counting cl100k_base
// on 4 MB of English documentation on 2 cores, it did 41 MB/s, the Reference backend 4.7
// MB/s and OpenAI's tiktoken (npm, WASM) 4.2 MB/s (BenchmarkCount and
// tools/tiktoken-golden/bench.mjs), all three finding the same 1,030,873 tokens. It does not
// call tokenizer's own Count or Encode: their generated matcher drops U+007F and splits
// white-space runs holding several newlines differently from tiktoken (see backend_fast.go).
//
// The Reference backend is github.com/pkoukk/tiktoken-go, a line-by-line port of tiktoken,
// with the vocabularies of github.com/pkoukk/tiktoken-go-loader compiled in. It is here to
// cross-check the Fast backend. Its merge is quadratic in the length of a piece: measured on
// 2 cores, "a" repeated 10,000, 20,000, 40,000 and 80,000 times took 47 ms, 189 ms, 756 ms and
// 3.3 s (BenchmarkPathological), where Fast took 1.9, 3.8, 7.9 and 16 ms. OpenAI's tiktoken
// is quadratic there too (about 14 s for 100,000 × "a").
//
// # Offline
//
// Neither backend touches the network or the file system at run time. tiktoken-go's default
// loader downloads vocabularies and caches them under $TIKTOKEN_CACHE_DIR,
// $DATA_GYM_CACHE_DIR or $TMPDIR/data-gym-cache; this package installs the offline loader
// (tiktoken-go's SetBpeLoader, once, before tiktoken-go's first use through this package), which
// reads only the embedded files, so those variables are never consulted. A program that also
// uses tiktoken-go directly and installs another loader changes what this package loads for
// encodings not loaded yet.
//
// # What is counted
//
// Counts and boundaries equal those of OpenAI's tiktoken (npm tiktoken 1.0.22, its Rust core
// compiled to WASM) on every case of testdata/strings.json, for both backends and all four
// encodings; testdata/golden.json holds tiktoken's answers.
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
