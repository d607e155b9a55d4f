package servetest

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/internal/pluginrpc"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/serve"
)

// Name is the plugin name the served implementation reports and errors carry.
const Name = "servetest"

// TokenCounter serves c in-process as a tokenizer plugin and returns a counter for model that
// reaches it over gRPC, as a host's would. The plugin stops when t's test ends.
func TokenCounter(t testing.TB, c serve.Counters, model string) sdk.TokenCounter {
	t.Helper()
	raw := start(t, pluginrpc.Plugins{Name: Name, Version: "test", Counters: c}, pluginrpc.KindTokenizer)
	tc, ok := raw.(*pluginrpc.TokenizerClient)
	if !ok {
		t.Fatalf("servetest: dispensed %T, want a tokenizer client", raw)
	}
	return tc.WithModel(model)
}

// SentenceSplitter serves s in-process as a sentence plugin and returns a splitter for model
// that reaches it over gRPC. The plugin stops when t's test ends.
func SentenceSplitter(t testing.TB, s serve.Splitters, model string) sdk.SentenceSplitter {
	t.Helper()
	raw := start(t, pluginrpc.Plugins{Name: Name, Version: "test", Splitters: s}, pluginrpc.KindSentence)
	sc, ok := raw.(*pluginrpc.SentenceClient)
	if !ok {
		t.Fatalf("servetest: dispensed %T, want a sentence client", raw)
	}
	return sc.WithModel(model)
}

// start serves p in go-plugin's test mode and dispenses kind from a client reattached to it.
func start(t testing.TB, p pluginrpc.Plugins, kind string) any {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	go plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  pluginrpc.Handshake(),
		VersionedPlugins: pluginrpc.VersionedPlugins(p),
		GRPCServer:       pluginrpc.NewGRPCServer,
		Logger:           hclog.NewNullLogger(),
		Test:             &plugin.ServeTestConfig{Context: ctx, ReattachConfigCh: reattach, CloseCh: closed},
	})
	stop := func() {
		cancel()
		<-closed
	}
	var rc *plugin.ReattachConfig
	select {
	case rc = <-reattach:
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("servetest: the plugin did not start within 30s")
	}
	// A reattached client dispenses from Plugins: go-plugin consults VersionedPlugins only
	// when it negotiates with a process it started.
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  pluginrpc.Handshake(),
		Plugins:          pluginrpc.VersionedPlugins(pluginrpc.Plugins{Name: p.Name})[rc.ProtocolVersion],
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Reattach:         rc,
		Logger:           hclog.NewNullLogger(),
	})
	t.Cleanup(func() {
		client.Kill()
		stop()
	})
	rpc, err := client.Client()
	if err != nil {
		t.Fatalf("servetest: connect: %v", err)
	}
	raw, err := rpc.Dispense(kind)
	if err != nil {
		t.Fatalf("servetest: dispense %s: %v", kind, err)
	}
	return raw
}
