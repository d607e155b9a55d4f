package pluginrpc

import (
	"context"
	"errors"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/internal/protocol/sentencev1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
)

// Counters is what a tokenizer plugin serves: token counters by model name.
//
// Models lists the models for Info; it may be empty for a plugin that loads models on demand.
// Counter returns the counter for a model, the ARG of a spec "plugin:NAME:ARG"; the empty
// model asks for the plugin's default. It is called for every request, so an implementation
// that loads models caches them. An unknown model is an error matching sdk.ErrUnsupported.
type Counters interface {
	Models() []string
	Counter(ctx context.Context, model string) (sdk.TokenCounter, error)
}

// Splitters is what a sentence plugin serves: sentence splitters by model name, with the
// same contract as Counters.
type Splitters interface {
	Models() []string
	Splitter(ctx context.Context, model string) (sdk.SentenceSplitter, error)
}

// Plugins is one side's view of a chunkkit plugin. On the plugin side it carries the
// implementations and what Info reports; on the host side only Name is set, to label errors.
type Plugins struct {
	// Name is the plugin's name, such as "tiktoken".
	Name string
	// Version is the plugin's own version, reported by Info (plugin side).
	Version string
	// Counters serves the tokenizer service; nil when the plugin does not serve it.
	Counters Counters
	// Splitters serves the sentence service; nil when the plugin does not serve it.
	Splitters Splitters
	// Logger receives the server shims' logs, such as a recovered panic; nil discards them.
	Logger hclog.Logger
}

// kinds lists the services p serves, in a fixed order.
func (p Plugins) kinds() []string {
	var k []string
	if p.Counters != nil {
		k = append(k, KindTokenizer)
	}
	if p.Splitters != nil {
		k = append(k, KindSentence)
	}
	return k
}

func (p Plugins) logger() hclog.Logger {
	if p.Logger == nil {
		return hclog.NewNullLogger()
	}
	return p.Logger
}

// VersionedPlugins returns the plugin sets for go-plugin's ServeConfig.VersionedPlugins (plugin
// side) and ClientConfig.VersionedPlugins (host side), keyed by protocol version. Each set has
// both keys, KindTokenizer and KindSentence; a plugin registers only the services it has an
// implementation for, so calling the other answers Unimplemented (sdk.ErrUnsupported).
func VersionedPlugins(p Plugins) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		ProtocolVersion: {
			KindTokenizer: &TokenizerPlugin{Plugins: p},
			KindSentence:  &SentencePlugin{Plugins: p},
		},
	}
}

// TokenizerPlugin is the go-plugin GRPCPlugin for the tokenizer service, protocol version 1.
// GRPCServer registers the service when Plugins.Counters is set; GRPCClient returns a
// *TokenizerClient.
type TokenizerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	// Plugins is the side's view: implementations on the plugin side, the name on the host's.
	Plugins Plugins
}

// GRPCServer registers the tokenizer service on s if p serves it.
func (p *TokenizerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Plugins.Counters == nil {
		return nil
	}
	tokenizerv1.RegisterTokenizerServer(s, &tokenizerServer{p: p.Plugins})
	return nil
}

// GRPCClient returns a *TokenizerClient on conn for the default model.
func (p *TokenizerPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	if conn == nil {
		return nil, errors.New("pluginrpc: tokenizer client: nil connection")
	}
	return NewTokenizerClient(conn, p.Plugins.Name), nil
}

// SentencePlugin is the go-plugin GRPCPlugin for the sentence service, protocol version 1.
// GRPCServer registers the service when Plugins.Splitters is set; GRPCClient returns a
// *SentenceClient.
type SentencePlugin struct {
	plugin.NetRPCUnsupportedPlugin
	// Plugins is the side's view: implementations on the plugin side, the name on the host's.
	Plugins Plugins
}

// GRPCServer registers the sentence service on s if p serves it.
func (p *SentencePlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Plugins.Splitters == nil {
		return nil
	}
	sentencev1.RegisterSentenceSplitterServer(s, &sentenceServer{p: p.Plugins})
	return nil
}

// GRPCClient returns a *SentenceClient on conn for the default model.
func (p *SentencePlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	if conn == nil {
		return nil, errors.New("pluginrpc: sentence client: nil connection")
	}
	return NewSentenceClient(conn, p.Plugins.Name), nil
}
