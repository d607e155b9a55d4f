// Package pluginserver is the plugin side of chunkkit's go-plugin glue: the versioned plugin
// sets a plugin serves, and the gRPC server shims that answer the tokenizer and sentence
// services from a plugin's plugin.Counters and plugin.Splitters. Package sdk/serve, what a
// plugin's main calls, is built on it; the host side is internal/pluginclient.
//
// Every call passes the request's context to the implementation, recovers a panic in it as
// INTERNAL (sdk.ErrBadResponse on the host), and turns its errors into gRPC status codes
// through internal/protocol/rpcstatus.
package pluginserver
