// Package plugin is the contract between chunkkit and its plugins, declared once for both
// sides: what a plugin author implements (Counters, Splitters), the lazily loading model
// registry most plugins serve (Map, CounterMap, SplitterMap), the kinds of service a plugin
// offers (Kind), what a plugin says about itself (Info), and the handshake and size constants of
// the wire protocol.
//
// It imports only the standard library and package sdk, so a package that implements a model
// registry for its counters (plugins/tiktoken, say) pulls in no RPC stack when it is used
// in-process. Serving a registry is package sdk/serve's job (serve.TokenCounter,
// serve.SentenceSplitter); talking to a served plugin is package host's. The wire protocol that
// other languages implement is in docs/protocol.md and the .proto files it names.
package plugin
