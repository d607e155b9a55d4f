// Package serve is what a chunkkit plugin's main function calls: TokenCounter serves token
// counters and SentenceSplitter serves sentence splitters as a go-plugin gRPC plugin that the
// chunkkit host starts, checks and talks to.
//
// A single-model plugin is a few lines:
//
//	func main() {
//		serve.TokenCounter(serve.CounterMap{"words": sdk.Words{}},
//			serve.WithName("words"), serve.WithVersion("1.0.0"))
//	}
//
// A plugin that loads models on demand implements Counters (or Splitters) itself. The served
// plugin answers Info, refuses to run when not started by a chunkkit host, logs to stderr
// (stdout carries go-plugin's handshake), accepts requests up to 64 MiB, passes each request's
// context to the implementation, turns its sentinel errors into the gRPC codes of
// docs/protocol.md, and exits when the host process goes away.
//
// Package servetest runs a plugin in-process, through the same gRPC stack, for tests.
package serve
