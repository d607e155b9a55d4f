package plugin

// ProtocolVersion is the go-plugin application protocol version of chunkkit plugins: the
// major version of tokenizer.proto and sentence.proto (internal/pluginclient's tests check that
// they agree). A host and a plugin negotiate the highest version both speak.
const ProtocolVersion = 1

// The handshake cookie. A host passes MagicCookieKey=MagicCookieValue in the environment of
// every plugin it starts, and a plugin refuses to run without it. It is a guard against running
// a plugin by hand, not a secret; docs/protocol.md publishes it for other languages.
const (
	// MagicCookieKey is the environment variable that carries the cookie.
	MagicCookieKey = "CHUNKKIT_PLUGIN"
	// MagicCookieValue is the cookie.
	MagicCookieValue = "225fe4dcd312a61d9955f80c190fb6cd"
)

// MaxMessageBytes is the largest request a chunkkit plugin must accept: 64 MiB. A host never
// sends a larger one; a single text too large to fit is refused on the host with an error
// matching sdk.ErrInvalidInput. Plugins in other languages must raise their gRPC receive
// limit to at least this (most default to 4 MiB).
const MaxMessageBytes = 64 << 20

// BatchBytes is the size a host keeps each request under when it splits a large batch: 3 MiB,
// below gRPC's common 4 MiB default, so that a plugin that forgot to raise its limit still
// serves everything but single texts above it. A single text larger than BatchBytes travels
// alone in its own request.
const BatchBytes = 3 << 20

// PreloadEnv is the environment variable in which a host names, when it starts a plugin, the
// models it is about to ask for: a JSON object from kind to model names, such as
// {"tokenizer":["cl100k_base"]} ("" is the plugin's default model). A plugin may start loading
// them while it completes the handshake, so that the first call finds them ready (sdk/serve
// does, by calling its registries' Model). It is a hint: a plugin must answer the same whether
// or not it preloads, must not fail over a model it cannot load (the request for it reports
// that), and ignores a value it cannot read.
const PreloadEnv = "CHUNKKIT_PLUGIN_PRELOAD"

// CallMetadata is the gRPC metadata key that marks the requests of one host call: the host
// sends a call larger than its request size as several requests, up to two in flight, each
// with the same value under this key. A plugin may count them in turn rather than at once, so
// a call keeps to one thread of the plugin while the next request travels (the Go SDK does);
// answers are reassembled by the host whatever the order. docs/protocol.md §4.
const CallMetadata = "chunkkit-call"
