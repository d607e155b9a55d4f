// Command faulty is a chunkkit plugin that misbehaves on request, for the host's tests. It
// serves a tokenizer (whitespace words, as sdk.Words) and a sentence splitter (one sentence
// per text) under any name given by -name.
//
// Its flags choose a start-up fault: -garbage prints to stdout before the handshake,
// -cookie serves with a different magic cookie, -sleep waits before serving, -wrong-counts
// answers Count with one count too few, -lie=KIND breaks the counter contract in another way
// (see lies) on every text or, with -lie-on=WORD, only on texts containing WORD,
// -grpc-default-limits serves with go-plugin's DefaultGRPCServer (gRPC's 4 MiB receive
// limit), -spawn-child starts a child process (this binary again, with -sleeper, which only
// sleeps) before serving, as an interpreter or a plugin with helpers would. Texts choose a
// call fault: a text containing "CRASH" makes the process exit with status 3 inside the call,
// one containing "PANIC" panics inside the call (which the server recovers), one containing
// "GOPANIC" panics in a goroutine of its own (which kills the process with a goroutine dump),
// one containing "HANG" blocks the call forever.
//
// It serves with go-plugin directly rather than sdk/serve on purpose: without sdk/serve's
// watch of its parent, the tests see what the host alone guarantees (Pdeathsig, reaping).
package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
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
	lie := flag.String("lie", "", "break the counter contract: "+strings.Join(slices.Sorted(maps.Keys(lies)), ", "))
	lieOn := flag.String("lie-on", "", "lie only on texts containing this; empty means every text")
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
	handshake := pluginserver.Handshake()
	if *cookie {
		handshake.MagicCookieValue = "not-the-chunkkit-cookie"
	}
	if _, ok := lies[*lie]; !ok && *lie != "" {
		fmt.Fprintf(stderr, "faulty: unknown -lie %q\n", *lie)
		os.Exit(2)
	}
	f := &faults{stderr: stderr, wrongCounts: *wrongCounts, lie: *lie, lieOn: *lieOn, models: strings.Split(*models, ",")}
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
	lie, lieOn  string
	models      []string
}

// lies are the ways -lie breaks the contract of one text's answer: its count, its boundaries.
var lies = map[string]struct {
	count  func(text string, n int) int
	bounds func(text string, b []int) []int
}{
	// Count one more than Boundaries for a text that is not empty: only the two answers
	// together show it.
	"mismatch": {count: func(text string, n int) int {
		if text == "" {
			return 0
		}
		return n + 1
	}},
	"negative": {count: func(string, int) int { return -1 }},
	// The last boundary short of the text's end.
	"short-ends": {bounds: func(text string, b []int) []int {
		if len(b) > 0 && len(text) > 0 {
			b[len(b)-1] = len(text) - 1
		}
		return b
	}},
	// A token in the empty text.
	"empty-token": {
		count: func(text string, n int) int {
			if text == "" {
				return 1
			}
			return n
		},
		bounds: func(text string, b []int) []int {
			if text == "" {
				return []int{0}
			}
			return b
		},
	},
}

// lying reports whether f lies about text.
func (f *faults) lying(text string) bool {
	return f.lie != "" && strings.Contains(text, f.lieOn)
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
	for i, t := range texts {
		if l := lies[f.lie]; l.count != nil && f.lying(t) && i < len(counts) {
			counts[i] = l.count(t, counts[i])
		}
	}
	return counts, err
}

func (f *faults) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	f.trip(texts)
	bounds, err := sdk.Words{}.Boundaries(ctx, texts)
	for i, t := range texts {
		if l := lies[f.lie]; l.bounds != nil && f.lying(t) {
			bounds[i] = l.bounds(t, bounds[i])
		}
	}
	return bounds, err
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
