package servetest

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/internal/pluginclient"
	"github.com/chunkkit/chunkkit/internal/pluginserver"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// Name is the plugin name the served implementation reports and errors carry.
const Name = "servetest"

// TokenCounter serves c in-process as a tokenizer plugin and returns a counter for model that
// reaches it over gRPC, as a host's would. The plugin stops when t's test ends.
func TokenCounter(t testing.TB, c plugin.Counters, model string) sdk.TokenCounter {
	t.Helper()
	raw := start(t, pluginserver.Server{Name: Name, Version: "test", Counters: c}, plugin.KindTokenizer)
	tc, ok := raw.(*pluginclient.TokenizerClient)
	if !ok {
		t.Fatalf("servetest: dispensed %T, want a tokenizer client", raw)
	}
	return tc.WithModel(model)
}

// SentenceSplitter serves s in-process as a sentence plugin and returns a splitter for model
// that reaches it over gRPC. The plugin stops when t's test ends.
func SentenceSplitter(t testing.TB, s plugin.Splitters, model string) sdk.SentenceSplitter {
	t.Helper()
	raw := start(t, pluginserver.Server{Name: Name, Version: "test", Splitters: s}, plugin.KindSentence)
	sc, ok := raw.(*pluginclient.SentenceClient)
	if !ok {
		t.Fatalf("servetest: dispensed %T, want a sentence client", raw)
	}
	return sc.WithModel(model)
}

// start serves p in go-plugin's test mode and dispenses kind from a client reattached to it.
func start(t testing.TB, p pluginserver.Server, kind plugin.Kind) any {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *goplugin.ReattachConfig, 1)
	closed := make(chan struct{})
	go goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  pluginserver.Handshake(),
		VersionedPlugins: pluginserver.VersionedPlugins(p),
		GRPCServer:       pluginserver.NewGRPCServer,
		Logger:           hclog.NewNullLogger(),
		Test:             &goplugin.ServeTestConfig{Context: ctx, ReattachConfigCh: reattach, CloseCh: closed},
	})
	stop := func() {
		cancel()
		<-closed
	}
	var rc *goplugin.ReattachConfig
	select {
	case rc = <-reattach:
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("servetest: the plugin did not start within 30s")
	}
	// A reattached client dispenses from Plugins: go-plugin consults VersionedPlugins only
	// when it negotiates with a process it started.
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  pluginclient.Handshake(),
		Plugins:          pluginclient.VersionedPlugins(p.Name)[rc.ProtocolVersion],
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
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
	raw, err := rpc.Dispense(string(kind))
	if err != nil {
		t.Fatalf("servetest: dispense %s: %v", kind, err)
	}
	return raw
}
