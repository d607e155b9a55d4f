// Package hftokenizer counts tokens the way HuggingFace tokenizers does, from any
// tokenizer.json, offline and in-process; the same package is served as the chunkkit plugin
// "hftokenizer" (spec hf:/path/to/tokenizer.json) by its cmd/ binary.
package hftokenizer
