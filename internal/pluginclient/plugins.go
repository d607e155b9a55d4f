package pluginclient

import (
	"context"
	"errors"
	"fmt"

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
			string(plugin.KindTokenizer): &servicePlugin{kind: plugin.KindTokenizer, dial: func(c *grpc.ClientConn) any { return NewTokenizerClient(c, name) }},
			string(plugin.KindSentence):  &servicePlugin{kind: plugin.KindSentence, dial: func(c *grpc.ClientConn) any { return NewSentenceClient(c, name) }},
		},
	}
}

// servicePlugin is the host side of one kind: it dispenses the kind's client for the default
// model.
type servicePlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	kind plugin.Kind
	dial func(*grpc.ClientConn) any
}

func (p *servicePlugin) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error {
	return errors.New("pluginclient: this plugin set dials plugins; a plugin serves internal/pluginserver's")
}

func (p *servicePlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	if conn == nil {
		return nil, fmt.Errorf("pluginclient: %s client: nil connection", p.kind)
	}
	return p.dial(conn), nil
}
