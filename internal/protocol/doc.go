// Package protocol holds chunkkit's plugin wire protocol: the .proto files that specify it for
// plugins written in any language, their generated Go code, and small converters between wire
// and sdk types. It has no code of its own; see its subpackages:
//
//   - commonv1: the messages both services share (InfoRequest, InfoResponse, Ends), in
//     common.proto, which tokenizer.proto and sentence.proto import
//   - tokenizerv1: the Tokenizer service (Info, Count, Boundaries)
//   - sentencev1: the SentenceSplitter service (Info, Split)
//   - convert: integer and text conversions shared by both
//   - rpcstatus: sdk sentinel errors to gRPC status codes and back
//   - codec: the gRPC codec and buffer pool both ends of a plugin connection use
//
// Generated types never leave internal/: sdk/serve and host speak sdk types. docs/protocol.md
// is the human-readable specification. wire_test.go keeps every later .proto wire compatible
// with protocol 1.0 as first released (testdata/v1.0-f7e905f.binpb).
package protocol
