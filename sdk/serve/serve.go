package serve

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/internal/pluginrpc"
)

// NotLaunchedMessage is what a plugin prints to stderr, before exiting with status 1, when it
// is run by hand rather than by a chunkkit host.
const NotLaunchedMessage = "This binary is a chunkkit plugin; run it through chunkkit (see docs/plugins.md).\n" +
	"chunkkit starts it from a manifest (chunkkit.plugins.json) with the handshake in its environment.\n"

// parentPollInterval is how often a plugin checks that the host is still its parent.
const parentPollInterval = 500 * time.Millisecond

// TokenCounter serves c as a chunkkit tokenizer plugin and returns when the host stops it
// (or goes away); main should then return. Run by hand, without the handshake in its
// environment, it prints NotLaunchedMessage and exits with status 1.
func TokenCounter(c Counters, opts ...Option) {
	cfg := newConfig(opts)
	run(pluginrpc.Plugins{Name: cfg.name, Version: cfg.version, Counters: c, Logger: cfg.logger}, cfg)
}

// SentenceSplitter serves s as a chunkkit sentence plugin, as TokenCounter does for counters.
func SentenceSplitter(s Splitters, opts ...Option) {
	cfg := newConfig(opts)
	run(pluginrpc.Plugins{Name: cfg.name, Version: cfg.version, Splitters: s, Logger: cfg.logger}, cfg)
}

func run(p pluginrpc.Plugins, cfg config) {
	if !launchedByHost(os.Getenv) {
		fmt.Fprint(os.Stderr, NotLaunchedMessage)
		os.Exit(1)
	}
	var srv server
	stop := watchParent(os.Getppid, parentPollInterval, func() {
		cfg.logger.Info("the host process is gone; stopping")
		if !srv.stop() {
			os.Exit(0) // not serving yet: nothing to clean up
		}
	})
	defer stop()
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  pluginrpc.Handshake(),
		VersionedPlugins: pluginrpc.VersionedPlugins(p),
		GRPCServer:       srv.start,
		Logger:           cfg.logger,
	})
}

// launchedByHost reports whether the handshake cookie is in the environment. go-plugin checks
// it too, but with a message that does not say what to do.
func launchedByHost(getenv func(string) string) bool {
	return getenv(pluginrpc.MagicCookieKey) == pluginrpc.MagicCookieValue
}

// server keeps the gRPC server go-plugin asks for, so that the parent watch can stop it:
// stopping it ends plugin.Serve, which then removes its socket.
type server struct {
	mu sync.Mutex
	s  *grpc.Server
}

// start is a ServeConfig.GRPCServer function.
func (v *server) start(opts []grpc.ServerOption) *grpc.Server {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.s = pluginrpc.NewGRPCServer(opts)
	return v.s
}

// stop stops the server and reports whether there was one.
func (v *server) stop() bool {
	v.mu.Lock()
	s := v.s
	v.mu.Unlock()
	if s == nil {
		return false
	}
	s.Stop()
	return true
}

// watchParent calls gone once when getppid's answer changes from its first answer: the
// process that started the plugin has exited and the plugin was re-parented. The host also
// asks Linux to kill its plugins when it dies; this is the portable backstop. The returned
// function ends the watch.
func watchParent(getppid func() int, every time.Duration, gone func()) (stop func()) {
	parent := getppid()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if getppid() != parent {
					gone()
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}
