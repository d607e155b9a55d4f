// Command faulty is a chunkkit plugin that misbehaves on request, for the host's tests. It
// serves a tokenizer (whitespace words, as sdk.Words) and a sentence splitter (one sentence
// per text) under any name given by -name.
//
// Its flags choose a start-up fault: -garbage prints to stdout before the handshake,
// -cookie serves with a different magic cookie, -sleep waits before serving, -wrong-counts
// answers Count with one count too few, -grpc-default-limits serves with go-plugin's
// DefaultGRPCServer (gRPC's 4 MiB receive limit). Texts choose a call fault: a text
// containing "CRASH" makes the process exit with status 3 inside the call, one containing
// "HANG" blocks the call forever.
//
// It serves with go-plugin directly rather than sdk/serve on purpose: without sdk/serve's
// watch of its parent, the tests see what the host alone guarantees (Pdeathsig, reaping).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/internal/pluginserver"
	"github.com/chunkkit/chunkkit/sdk"
)

func main() {
	name := flag.String("name", "faulty", "plugin name reported by Info")
	models := flag.String("models", "alpha,beta", "comma-separated models; the first is the default")
	garbage := flag.Bool("garbage", false, "print to stdout before the handshake")
	cookie := flag.Bool("cookie", false, "serve with a different magic cookie")
	sleep := flag.Duration("sleep", 0, "wait this long before serving")
	wrongCounts := flag.Bool("wrong-counts", false, "answer Count with len(texts)-1 counts")
	defaultLimits := flag.Bool("grpc-default-limits", false, "serve with go-plugin's DefaultGRPCServer")
	flag.Parse()

	// go-plugin points os.Stderr at its stdio stream once it serves; keep the real one.
	stderr := os.Stderr
	logger := hclog.New(&hclog.LoggerOptions{Name: *name, Output: stderr, Level: hclog.Info, JSONFormat: true})

	if *garbage {
		fmt.Println("hello from faulty, this is not a handshake")
	}
	if *sleep > 0 {
		time.Sleep(*sleep)
	}
	handshake := pluginserver.Handshake()
	if *cookie {
		handshake.MagicCookieValue = "not-the-chunkkit-cookie"
	}
	f := &faults{stderr: stderr, wrongCounts: *wrongCounts, models: strings.Split(*models, ",")}
	grpcServer := pluginserver.NewGRPCServer
	if *defaultLimits {
		grpcServer = plugin.DefaultGRPCServer
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: handshake,
		VersionedPlugins: pluginserver.VersionedPlugins(pluginserver.Server{
			Name: *name, Version: "0.0.1-test", Counters: counters{f}, Splitters: splitters{f}, Logger: logger,
		}),
		GRPCServer: grpcServer,
		Logger:     logger,
	})
}

// faults serves every model with the same misbehaving counter and splitter.
type faults struct {
	stderr      *os.File
	wrongCounts bool
	models      []string
}

func (f *faults) Models() []string { return f.models }

func (f *faults) check(model string) error {
	if model != "" && !slices.Contains(f.models, model) {
		return fmt.Errorf("faulty: unknown model %q: %w", model, sdk.ErrUnsupported)
	}
	return nil
}

// counters and splitters serve f as the registries of both kinds.
type (
	counters  struct{ *faults }
	splitters struct{ *faults }
)

func (c counters) Model(_ context.Context, model string) (sdk.TokenCounter, error) {
	return c.faults, c.check(model)
}

func (s splitters) Model(_ context.Context, model string) (sdk.SentenceSplitter, error) {
	return s.faults, s.check(model)
}

// trip acts on the fault a text asks for.
func (f *faults) trip(texts []string) {
	for _, t := range texts {
		switch {
		case strings.Contains(t, "CRASH"):
			fmt.Fprintln(f.stderr, "faulty: crashing on purpose")
			os.Exit(3)
		case strings.Contains(t, "HANG"):
			select {}
		}
	}
}

func (f *faults) Count(ctx context.Context, texts []string) ([]int, error) {
	f.trip(texts)
	counts, err := sdk.Words{}.Count(ctx, texts)
	if f.wrongCounts && len(counts) > 0 {
		counts = counts[:len(counts)-1]
	}
	return counts, err
}

func (f *faults) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	f.trip(texts)
	return sdk.Words{}.Boundaries(ctx, texts)
}

func (f *faults) Split(_ context.Context, texts []string) ([][]int, error) {
	f.trip(texts)
	out := make([][]int, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) != "" {
			out[i] = []int{len(t)}
		}
	}
	return out, nil
}
