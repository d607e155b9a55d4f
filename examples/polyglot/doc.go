// Package polyglot holds the tests of the example plugins written in other languages than Go:
// examples/node-gpt (Node.js, gpt-tokenizer) and examples/py-sentencepiece (Python,
// SentencePiece). Its tests install both with examples/install.sh into a temporary directory
// and drive them as chunkkit does: through the host, with AutoMTLS and checksums, and through
// the chunkkit command line. It has no code of its own.
package polyglot
