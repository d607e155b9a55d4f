// Package serve is what a chunkkit plugin's main function calls: TokenCounter serves a registry
// of token counters and SentenceSplitter one of sentence splitters, as a go-plugin gRPC plugin
// that the chunkkit host starts, checks and talks to. The registries and the rest of the
// contract are package sdk/plugin's.
//
// A plugin with a fixed set of models is a few lines:
//
//	func main() {
//		models := plugin.MapOf(map[string]sdk.TokenCounter{"words": sdk.Words{}})
//		if err := serve.TokenCounter(models, serve.WithName("words"), serve.WithVersion("1.0.0")); err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			os.Exit(1)
//		}
//	}
//
// A plugin that loads models on demand serves a plugin.CounterMap with a Load function, or
// implements plugin.Counters itself. The served plugin answers Info, refuses to run when not
// started by a chunkkit host (ErrNotLaunched), logs to stderr (stdout carries go-plugin's
// handshake), accepts requests up to plugin.MaxMessageBytes, passes each request's context to
// the implementation, recovers a panic in it as an error, turns its sentinel errors into the
// gRPC codes of docs/protocol.md, and exits when the host process goes away.
//
// Package servetest runs a plugin in-process, through the same gRPC stack, for tests.
package serve
