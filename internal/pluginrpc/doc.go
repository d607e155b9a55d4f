// Package pluginrpc is the go-plugin glue shared by the plugin side (sdk/serve) and the host
// side (host/): the handshake, the versioned plugin sets, the gRPC server shims that call a
// plugin's implementation, and the gRPC client shims that a host uses as an sdk.TokenCounter or
// sdk.SentenceSplitter.
//
// Both sides build their plugin set with VersionedPlugins. On the plugin side the Plugins value
// carries the implementations; on the host side it carries only the plugin's name, and
// dispensing "tokenizer" or "sentence" from a go-plugin client yields a *TokenizerClient or a
// *SentenceClient:
//
//	client := plugin.NewClient(&plugin.ClientConfig{
//		HandshakeConfig:  pluginrpc.Handshake(),
//		VersionedPlugins: pluginrpc.VersionedPlugins(pluginrpc.Plugins{Name: "tiktoken"}),
//		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
//		...
//	})
//	rpc, err := client.Client()
//	raw, err := rpc.Dispense(pluginrpc.KindTokenizer)
//	counter := raw.(*pluginrpc.TokenizerClient).WithModel("cl100k_base")
//
// Errors cross the boundary through internal/protocol/rpcstatus, so errors.Is(err,
// sdk.ErrUnsupported) and friends work on the host as on the plugin. Requests larger than
// BatchBytes are split into several RPCs transparently.
package pluginrpc
