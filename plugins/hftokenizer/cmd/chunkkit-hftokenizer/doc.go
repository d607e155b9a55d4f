// Command chunkkit-hftokenizer is the chunkkit tokenizer plugin "hftokenizer": it serves the
// counters of package github.com/chunkkit/chunkkit/plugins/hftokenizer (any HuggingFace
// tokenizer.json, counted as HF tokenizers counts it, offline) over go-plugin gRPC. The host
// starts it from a manifest; the spec "hf:/path/to/tokenizer.json" selects a file (one process
// serves every file it is asked for), and "hf:/path/to/tokenizer.json@special" counts special
// tokens in the text as one token each. Run by hand, it says so and exits with status 1.
package main
