// Package hftokenizer counts tokens the way HuggingFace tokenizers does, from any
// tokenizer.json, offline and in-process; the same package is served as the chunkkit plugin
// "hftokenizer" (spec hf:/path/to/tokenizer.json) by its cmd/ binary.
//
//	tok, err := hftokenizer.Load("/models/llama3/tokenizer.json")
//	counts, err := tok.Count(ctx, texts)       // HF's encode(text, add_special_tokens=False)
//	bounds, err := tok.Boundaries(ctx, texts)  // where each token ends, in bytes
//
// Counts, ids and token end offsets equal HF tokenizers 0.22's on the reference files and
// strings of testdata/ (goldens made with HF's Rust core; tools/hf-golden regenerates them). A
// file that uses a feature this package cannot reproduce exactly is refused at load with an
// error naming the feature (ErrUnsupportedFeature), never counted wrongly.
//
// # Added tokens
//
// By default the text of added tokens ("<|endoftext|>", "</s>", "[SEP]", Qwen's "<think>") is
// ordinary text, as the chunkkit counter contract requires; Tokenizer.MatchSpecial (spec
// suffix "@special") counts each as one token, as HF's default encode does.
//
// # How it is built
//
// The file is read into github.com/sugarme/tokenizer's Config and WordPiece is sugarme's, built
// with the file's continuing_subword_prefix. The rest replaces sugarme v0.3.0's components,
// which give wrong counts (docs/reference/tokenizers.md lists them): HF's NormalizedString
// alignment model (every normalized byte knows the original bytes it came from), its
// normalizers and pre-tokenizers, its BPE merge (a heap of rank and position) with
// byte_fallback, fuse_unk and ignore_merges, its added-token matching, and SentencePiece's
// Unigram model (Viterbi over the pieces' scores) and Precompiled normalizer (the compiled
// charsmap of a .model file, applied grapheme by grapheme), which sugarme does not have. Split regexes run on
// internal/pretok's scanners when they are GPT-2's, cl100k's (Llama 3), o200k's or Qwen's, and
// on regexp2 (which has look-around, unlike Go's regexp) otherwise.
package hftokenizer
