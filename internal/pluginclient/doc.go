// Package pluginclient is the host side of chunkkit's go-plugin glue: the versioned plugin sets a
// host dispenses from, and the gRPC client shims that a host uses as an sdk.TokenCounter or
// sdk.SentenceSplitter. The plugin side is internal/pluginserver.
//
//	client := goplugin.NewClient(&goplugin.ClientConfig{
//		HandshakeConfig:  pluginclient.Handshake(),
//		VersionedPlugins: pluginclient.VersionedPlugins("tiktoken"),
//		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
//		...
//	})
//	rpc, err := client.Client()
//	raw, err := rpc.Dispense(string(plugin.KindTokenizer))
//	counter := raw.(*pluginclient.TokenizerClient).WithModel("cl100k_base")
//
// Errors cross the boundary through internal/protocol/rpcstatus, so errors.Is(err,
// sdk.ErrUnsupported) and friends work on the host as on the plugin. Every answer is checked
// (sdk.CheckCounts, sdk.CheckBoundaries) before it is returned, so a plugin that answers wrong
// counts or offsets gives an error matching sdk.ErrBadResponse that names it. A call larger
// than 512 KiB is split into several RPCs transparently (never one above plugin.BatchBytes,
// unless a single text is), two of them in flight at once so that the transfer of one overlaps
// the plugin's work on the other.
package pluginclient
