package commonv1

import "github.com/chunkkit/chunkkit/sdk/plugin"

// NewInfoResponse returns the wire form of info.
func NewInfoResponse(info plugin.Info) *InfoResponse {
	kinds := make([]string, len(info.Kinds))
	for i, k := range info.Kinds {
		kinds[i] = string(k)
	}
	return &InfoResponse{
		Name:            info.Name,
		Version:         info.Version,
		Models:          info.Models,
		ProtocolVersion: info.ProtocolVersion,
		Kinds:           kinds,
	}
}

// InfoFrom returns the Info r carries. Kinds are passed through as they came, even one this
// side does not know (a newer plugin's): the caller decides what an unknown kind means.
func InfoFrom(r *InfoResponse) plugin.Info {
	var kinds []plugin.Kind
	for _, k := range r.GetKinds() {
		kinds = append(kinds, plugin.Kind(k))
	}
	return plugin.Info{
		Name:            r.GetName(),
		Version:         r.GetVersion(),
		Models:          r.GetModels(),
		ProtocolVersion: r.GetProtocolVersion(),
		Kinds:           kinds,
	}
}
