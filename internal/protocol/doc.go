// Package protocol holds chunkkit's plugin wire protocol: the .proto files that specify it for
// plugins written in any language, their generated Go code, and small converters between wire
// and sdk types. It has no code of its own; see its subpackages:
//
//   - tokenizerv1: the Tokenizer service (Info, Count, Boundaries)
//   - sentencev1: the SentenceSplitter service (Info, Split)
//   - convert: integer and text conversions shared by both
//   - rpcstatus: sdk sentinel errors to gRPC status codes and back
//
// Generated types never leave internal/: sdk/serve and host speak sdk types. docs/protocol.md
// is the human-readable specification.
package protocol
