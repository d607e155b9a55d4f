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

// infoResponse is what the generated InfoResponse of every service has in common.
type infoResponse interface {
	GetName() string
	GetVersion() string
	GetModels() []string
	GetProtocolVersion() string
	GetKinds() []string
}

// infoFrom converts a service's InfoResponse.
func infoFrom(r infoResponse) Info {
	return Info{
		Name:            r.GetName(),
		Version:         r.GetVersion(),
		Models:          r.GetModels(),
		ProtocolVersion: r.GetProtocolVersion(),
		Kinds:           r.GetKinds(),
	}
}
