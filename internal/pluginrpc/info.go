package pluginrpc

// Info is what a plugin says about itself in answer to Info.
type Info struct {
	// Name is the plugin's name, such as "tiktoken".
	Name string
	// Version is the plugin's own version.
	Version string
	// Models lists the models the plugin serves for the service asked; it may be empty for a
	// plugin that loads models on demand.
	Models []string
	// ProtocolVersion is the protocol version the plugin implements, "MAJOR.MINOR".
	ProtocolVersion string
	// Kinds lists the services the plugin serves: KindTokenizer, KindSentence.
	Kinds []string
}
