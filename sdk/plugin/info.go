package plugin

// Info is what a plugin says about itself in answer to the Info RPC of one of its services.
type Info struct {
	// Name is the plugin's name, such as "tiktoken"; usually its manifest name.
	Name string
	// Version is the plugin's own version, such as "1.2.0".
	Version string
	// Models lists the models the service asked serves; it may be empty for a plugin that
	// loads models on demand (from a path, say).
	Models []string
	// ProtocolVersion is the protocol version the service implements, "MAJOR.MINOR".
	ProtocolVersion string
	// Kinds lists the services the plugin serves.
	Kinds []Kind
}
