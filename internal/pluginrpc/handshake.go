package pluginrpc

import "github.com/hashicorp/go-plugin"

// ProtocolVersion is the go-plugin application protocol version of chunkkit plugins: the
// major version of both tokenizer.proto and sentence.proto. A host and a plugin negotiate the
// highest version both have in their VersionedPlugins.
const ProtocolVersion = 1

// Handshake cookie. go-plugin passes MagicCookieKey=MagicCookieValue in the environment of
// every plugin it starts; a plugin refuses to run without it. It is a guard against running a
// plugin by hand, not a secret.
const (
	// MagicCookieKey is the environment variable that carries the cookie.
	MagicCookieKey = "CHUNKKIT_PLUGIN"
	// MagicCookieValue is the cookie; docs/protocol.md publishes it for other languages.
	MagicCookieValue = "225fe4dcd312a61d9955f80c190fb6cd"
)

// Plugin set keys, which are also the kinds InfoResponse.kinds lists and a manifest names.
const (
	// KindTokenizer is the tokenizer service (chunkkit.tokenizer.v1.Tokenizer).
	KindTokenizer = "tokenizer"
	// KindSentence is the sentence splitter service (chunkkit.sentence.v1.SentenceSplitter).
	KindSentence = "sentence"
)

// Handshake returns the handshake both sides must agree on. ProtocolVersion in it is the
// version a host without PLUGIN_PROTOCOL_VERSIONS support would assume; VersionedPlugins is
// what negotiation uses.
func Handshake() plugin.HandshakeConfig {
	return plugin.HandshakeConfig{
		ProtocolVersion:  ProtocolVersion,
		MagicCookieKey:   MagicCookieKey,
		MagicCookieValue: MagicCookieValue,
	}
}
