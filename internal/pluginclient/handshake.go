package pluginclient

import (
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// Handshake returns the handshake a host starts plugins with (a plugin serves with the same).
// ProtocolVersion in it is the version a plugin without PLUGIN_PROTOCOL_VERSIONS support
// would assume; VersionedPlugins is what negotiation uses.
func Handshake() goplugin.HandshakeConfig {
	return goplugin.HandshakeConfig{ProtocolVersion: plugin.ProtocolVersion, MagicCookieKey: plugin.MagicCookieKey, MagicCookieValue: plugin.MagicCookieValue}
}
