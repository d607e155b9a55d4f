// Command chunkkit-tiktoken is the chunkkit tokenizer plugin "tiktoken": it serves the
// counters of package github.com/chunkkit/chunkkit/plugins/tiktoken (OpenAI's cl100k_base,
// o200k_base, p50k_base and r50k_base encodings, offline) over go-plugin gRPC. The host starts
// it from a manifest; the spec "tiktoken:cl100k_base" or "tiktoken:cl100k_base@reference"
// selects a model, and "" selects cl100k_base. Run by hand, it says so and exits with status 1.
package main
