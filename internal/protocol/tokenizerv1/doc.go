// Package tokenizerv1 is version 1 of chunkkit's tokenizer wire protocol: tokenizer.proto (the
// specification), the Go code generated from it (tokenizer.pb.go, tokenizer_grpc.pb.go; run
// tools/generate.sh after editing the .proto), the protocol version constants, and converters
// between its messages and sdk-shaped values.
package tokenizerv1
