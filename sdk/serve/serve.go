package serve

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/internal/pluginserver"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// NotLaunchedMessage is the message of ErrNotLaunched, with a final newline: what a plugin's
// main prints to stderr when it is run by hand rather than by a chunkkit host.
const NotLaunchedMessage = "This binary is a chunkkit plugin; run it through chunkkit (see docs/plugins.md).\n" +
	"chunkkit starts it from a manifest (chunkkit.plugins.json) with the handshake in its environment.\n"

// ErrNotLaunched is what TokenCounter and SentenceSplitter return, before serving anything,
// when the handshake cookie is not in the environment: someone ran the plugin by hand.
var ErrNotLaunched = errors.New(strings.TrimSuffix(NotLaunchedMessage, "\n"))

// parentPollInterval is how often a plugin checks that the host is still its parent.
const parentPollInterval = 500 * time.Millisecond

// TokenCounter serves c as a chunkkit tokenizer plugin until the host stops it or goes away,
// then returns nil; main should then return. Run by hand, without the handshake in its
// environment, it returns ErrNotLaunched at once. A plugin's main is
//
//	if err := serve.TokenCounter(counters, serve.WithName("mine")); err != nil {
//		fmt.Fprintln(os.Stderr, err)
//		os.Exit(1)
//	}
//
// go-plugin ends the process itself only on a fault its own log on stderr explains (pipes that
// cannot be made); a socket it cannot listen on is an error returned here.
func TokenCounter(c plugin.Counters, opts ...Option) error {
	if c == nil {
		return errors.New("serve: TokenCounter with nil counters")
	}
	cfg := newConfig(opts)
	return run(pluginserver.Server{Name: cfg.name, Version: cfg.version, Counters: c, Logger: cfg.logger}, cfg)
}

// SentenceSplitter serves s as a chunkkit sentence plugin, as TokenCounter does for counters.
func SentenceSplitter(s plugin.Splitters, opts ...Option) error {
	if s == nil {
		return errors.New("serve: SentenceSplitter with nil splitters")
	}
	cfg := newConfig(opts)
	return run(pluginserver.Server{Name: cfg.name, Version: cfg.version, Splitters: s, Logger: cfg.logger}, cfg)
}

func run(p pluginserver.Server, cfg config) error {
	if !launchedByHost(os.Getenv) {
		return ErrNotLaunched
	}
	defer startCPUProfile(os.Getenv, cfg.logger)()
	preload(os.Getenv(plugin.PreloadEnv), p.Counters, p.Splitters, cfg.logger)
	var srv server
	stop := watchParent(os.Getppid, parentPollInterval, func() {
		cfg.logger.Info("the host process is gone; stopping")
		if !srv.stop() {
			os.Exit(0) // not serving yet: nothing to clean up
		}
	})
	defer stop()
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  pluginserver.Handshake(),
		VersionedPlugins: pluginserver.VersionedPlugins(p),
		GRPCServer:       srv.start,
		Logger:           cfg.logger,
	})
	if !srv.started() {
		return fmt.Errorf("serve: plugin %q: go-plugin stopped before it served (its log on stderr says why)", p.Name)
	}
	return nil
}

// launchedByHost reports whether the handshake cookie is in the environment. go-plugin checks
// it too, but with a message that does not say what to do.
func launchedByHost(getenv func(string) string) bool {
	return getenv(plugin.MagicCookieKey) == plugin.MagicCookieValue
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
	v.s = pluginserver.NewGRPCServer(opts)
	return v.s
}

// started reports whether go-plugin asked for the server.
func (v *server) started() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.s != nil
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
