// Package commonv1 holds the messages every chunkkit plugin service shares: common.proto (the
// specification of InfoRequest, InfoResponse and Ends, imported by tokenizer.proto and
// sentence.proto), the Go code generated from it (common.pb.go; run tools/generate.sh after
// editing the .proto), and converters between its messages and sdk-shaped values.
package commonv1
