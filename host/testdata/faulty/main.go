// Command faulty is a chunkkit plugin that misbehaves on request, for the host's tests. It
// serves a tokenizer (whitespace words, as sdk.Words) and a sentence splitter (one sentence
// per text) under any name given by -name.
//
// Its flags choose a start-up fault: -garbage prints to stdout before the handshake,
// -cookie serves with a different magic cookie, -sleep waits before serving, -wrong-counts
// answers Count with one count too few, -grpc-default-limits serves with go-plugin's
// DefaultGRPCServer (gRPC's 4 MiB receive limit), -spawn-child starts a child process (this
// binary again, with -sleeper, which only sleeps) before serving, as an interpreter or a
// plugin with helpers would. Texts choose a call fault: a text containing "CRASH" makes the
// process exit with status 3 inside the call, one containing "PANIC" panics inside the call
// (which the server recovers), one containing "GOPANIC" panics in a goroutine of its own
// (which kills the process with a goroutine dump), one containing "HANG" blocks the call forever.
//
// It serves with go-plugin directly rather than sdk/serve on purpose: without sdk/serve's
// watch of its parent, the tests see what the host alone guarantees (Pdeathsig, reaping).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/internal/pluginrpc"
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
	spawnChild := flag.Bool("spawn-child", false, "start a child process (-sleeper) before serving")
	sleeper := flag.Bool("sleeper", false, "only sleep: the child of -spawn-child")
	flag.Parse()

	if *sleeper {
		select {}
	}
	if *spawnChild {
		self, err := os.Executable()
		if err == nil {
			child := exec.Command(self, "-sleeper")
			child.Stderr = os.Stderr
			err = child.Start()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "faulty: starting a child:", err)
			os.Exit(1)
		}
	}

	// go-plugin points os.Stderr at its stdio stream once it serves; keep the real one.
	stderr := os.Stderr
	logger := hclog.New(&hclog.LoggerOptions{Name: *name, Output: stderr, Level: hclog.Info, JSONFormat: true})

	if *garbage {
		fmt.Println("hello from faulty, this is not a handshake")
	}
	if *sleep > 0 {
		time.Sleep(*sleep)
	}
	handshake := pluginrpc.Handshake()
	if *cookie {
		handshake.MagicCookieValue = "not-the-chunkkit-cookie"
	}
	f := &faults{stderr: stderr, wrongCounts: *wrongCounts, models: strings.Split(*models, ",")}
	grpcServer := pluginrpc.NewGRPCServer
	if *defaultLimits {
		grpcServer = plugin.DefaultGRPCServer
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: handshake,
		VersionedPlugins: pluginrpc.VersionedPlugins(pluginrpc.Plugins{
			Name: *name, Version: "0.0.1-test", Counters: f, Splitters: f, Logger: logger,
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

func (f *faults) Counter(_ context.Context, model string) (sdk.TokenCounter, error) {
	if model != "" && !slices.Contains(f.models, model) {
		return nil, fmt.Errorf("faulty: unknown model %q: %w", model, sdk.ErrUnsupported)
	}
	return f, nil
}

func (f *faults) Splitter(ctx context.Context, model string) (sdk.SentenceSplitter, error) {
	if _, err := f.Counter(ctx, model); err != nil {
		return nil, err
	}
	return f, nil
}

// trip acts on the fault a text asks for.
func (f *faults) trip(texts []string) {
	for _, t := range texts {
		switch {
		case strings.Contains(t, "CRASH"):
			fmt.Fprintln(f.stderr, "faulty: crashing on purpose")
			os.Exit(3)
		case strings.Contains(t, "GOPANIC"):
			go func() { panic("faulty: panicking in a goroutine") }()
			select {}
		case strings.Contains(t, "PANIC"):
			panic("faulty: panicking on purpose")
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
