// Package sentencev1 is version 1 of chunkkit's sentence splitter wire protocol: sentence.proto (the
// specification), the Go code generated from it (sentence.pb.go, sentence_grpc.pb.go; run
// tools/generate.sh after editing the .proto), the protocol version constants, and converters
// between its messages and sdk-shaped values.
package sentencev1
