package pluginserver

import (
	"context"
	"errors"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/internal/protocol/sentencev1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// Server is what one plugin process serves.
type Server struct {
	// Name is the plugin's name, such as "tiktoken", reported by Info.
	Name string
	// Version is the plugin's own version, reported by Info.
	Version string
	// Counters serves the tokenizer service; nil when the plugin does not serve it.
	Counters plugin.Counters
	// Splitters serves the sentence service; nil when the plugin does not serve it.
	Splitters plugin.Splitters
	// Logger receives the shims' logs, such as a recovered panic; nil discards them.
	Logger hclog.Logger
}

// kinds lists the services s serves, in a fixed order.
func (s Server) kinds() []plugin.Kind {
	var k []plugin.Kind
	if s.Counters != nil {
		k = append(k, plugin.KindTokenizer)
	}
	if s.Splitters != nil {
		k = append(k, plugin.KindSentence)
	}
	return k
}

func (s Server) logger() hclog.Logger {
	if s.Logger == nil {
		return hclog.NewNullLogger()
	}
	return s.Logger
}

// Handshake returns the handshake a plugin serves with (the host's is the same).
func Handshake() goplugin.HandshakeConfig {
	return goplugin.HandshakeConfig{ProtocolVersion: plugin.ProtocolVersion, MagicCookieKey: plugin.MagicCookieKey, MagicCookieValue: plugin.MagicCookieValue}
}

// VersionedPlugins returns the plugin sets for go-plugin's ServeConfig.VersionedPlugins, keyed by
// protocol version. Each set has both kinds; the service s has no implementation for is not
// registered, so calling it answers UNIMPLEMENTED (sdk.ErrUnsupported on the host).
func VersionedPlugins(s Server) map[int]goplugin.PluginSet {
	tokenizer, sentence := &servicePlugin{}, &servicePlugin{}
	if s.Counters != nil {
		tokenizer.register = func(g *grpc.Server) {
			tokenizerv1.RegisterTokenizerServer(g, &tokenizerServer{s: s, kept: newRetained(retainedRequests, retainedBytes), calls: &calls{}})
		}
	}
	if s.Splitters != nil {
		sentence.register = func(g *grpc.Server) { sentencev1.RegisterSentenceSplitterServer(g, &sentenceServer{s: s}) }
	}
	return map[int]goplugin.PluginSet{
		plugin.ProtocolVersion: {
			string(plugin.KindTokenizer): tokenizer,
			string(plugin.KindSentence):  sentence,
		},
	}
}

// servicePlugin is the plugin side of one kind: it registers the service, if it has one.
type servicePlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	register func(*grpc.Server) // nil: the plugin does not serve this kind
}

func (p *servicePlugin) GRPCServer(_ *goplugin.GRPCBroker, g *grpc.Server) error {
	if p.register != nil {
		p.register(g)
	}
	return nil
}

func (p *servicePlugin) GRPCClient(context.Context, *goplugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, errors.New("pluginserver: this plugin set serves; a host dispenses clients from internal/pluginclient's")
}
