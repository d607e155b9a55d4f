// Package servetest runs a chunkkit plugin's implementation in-process, served and called
// through the same go-plugin gRPC stack and protocol a real plugin uses, so a plugin's tests
// (conformance.TokenCounter among them) cover the wire without building a binary.
package servetest
