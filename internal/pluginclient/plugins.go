package pluginclient

import (
	"context"
	"errors"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// VersionedPlugins returns the plugin sets for go-plugin's ClientConfig.VersionedPlugins, keyed
// by protocol version, for the plugin called name (which labels errors). Dispensing
// plugin.KindTokenizer yields a *TokenizerClient, plugin.KindSentence a *SentenceClient.
func VersionedPlugins(name string) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		plugin.ProtocolVersion: {
			string(plugin.KindTokenizer): &tokenizerPlugin{name: name},
			string(plugin.KindSentence):  &sentencePlugin{name: name},
		},
	}
}

// errClientSide is what the host-side sets answer when asked to serve.
var errClientSide = errors.New("pluginclient: this plugin set dials plugins; a plugin serves internal/pluginserver's")

// tokenizerPlugin dispenses a *TokenizerClient for the default model.
type tokenizerPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	name string
}

func (p *tokenizerPlugin) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error { return errClientSide }

func (p *tokenizerPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	if conn == nil {
		return nil, errors.New("pluginclient: tokenizer client: nil connection")
	}
	return NewTokenizerClient(conn, p.name), nil
}

// sentencePlugin dispenses a *SentenceClient for the default model.
type sentencePlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	name string
}

func (p *sentencePlugin) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error { return errClientSide }

func (p *sentencePlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	if conn == nil {
		return nil, errors.New("pluginclient: sentence client: nil connection")
	}
	return NewSentenceClient(conn, p.name), nil
}
