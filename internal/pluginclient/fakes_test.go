package pluginclient

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/chunkkit/chunkkit/internal/pluginserver"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// counterMap serves counters by model name; "" is "words".
func counterMap(m map[string]sdk.TokenCounter) plugin.Counters {
	r := plugin.MapOf(m)
	r.Default = "words"
	return r
}

// failing returns err from every call.
type failing struct{ err error }

func (f failing) Count(context.Context, []string) ([]int, error)        { return nil, f.err }
func (f failing) Boundaries(context.Context, []string) ([][]int, error) { return nil, f.err }

// lying answers with one count too few and boundaries that stop short of the text's end.
type lying struct{}

func (lying) Count(_ context.Context, texts []string) ([]int, error) {
	return make([]int, max(len(texts)-1, 0)), nil
}

func (lying) Boundaries(_ context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	for i, t := range texts {
		out[i] = []int{max(len(t)-1, 0)}
	}
	return out, nil
}

// panicking panics on every call.
type panicking struct{}

func (panicking) Count(context.Context, []string) ([]int, error)        { panic("index out of range") }
func (panicking) Boundaries(context.Context, []string) ([][]int, error) { panic("index out of range") }

// blocking tells started when a call arrives, waits for the call's context to end, and sends
// the context's error to done.
type blocking struct {
	started chan struct{}
	done    chan error
}

func (b blocking) Count(ctx context.Context, _ []string) ([]int, error) {
	close(b.started)
	<-ctx.Done()
	b.done <- ctx.Err()
	return nil, ctx.Err()
}

func (b blocking) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	_, err := b.Count(ctx, texts)
	return nil, err
}

// recording is sdk.Words that counts its calls and remembers the largest batch in bytes.
type recording struct {
	sdk.Words
	calls    *atomic.Int64
	maxBatch *atomic.Int64
}

func newRecording() recording {
	return recording{calls: new(atomic.Int64), maxBatch: new(atomic.Int64)}
}

func (r recording) note(texts []string) {
	r.calls.Add(1)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	for {
		m := r.maxBatch.Load()
		if int64(n) <= m || r.maxBatch.CompareAndSwap(m, int64(n)) {
			return
		}
	}
}

func (r recording) Count(ctx context.Context, texts []string) ([]int, error) {
	r.note(texts)
	return r.Words.Count(ctx, texts)
}

func (r recording) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	r.note(texts)
	return r.Words.Boundaries(ctx, texts)
}

// periods is a sentence splitter: a sentence ends after a '.' and the spaces that follow it.
type periods struct{}

func (periods) Split(ctx context.Context, texts []string) ([][]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]int, len(texts))
	for i, t := range texts {
		var ends []int
		for j := 0; j < len(t); j++ {
			if t[j] != '.' {
				continue
			}
			k := j + 1
			for k < len(t) && t[k] == ' ' {
				k++
			}
			ends = append(ends, k)
			j = k - 1
		}
		if len(t) > 0 && (len(ends) == 0 || ends[len(ends)-1] != len(t)) {
			ends = append(ends, len(t))
		}
		out[i] = ends
	}
	return out, nil
}

// splitterMap serves splitters by model name; "" is "periods".
func splitterMap(m map[string]sdk.SentenceSplitter) plugin.Splitters {
	r := plugin.MapOf(m)
	r.Default = "periods"
	return r
}

// goPluginConn wires p's plugin set through go-plugin's own test harness (which serves with
// go-plugin's DefaultGRPCServer, so gRPC's 4 MiB receive limit) and dispenses kind.
func goPluginConn(t *testing.T, s pluginserver.Server, kind plugin.Kind) any {
	t.Helper()
	client, _ := goplugin.TestPluginGRPCConn(t, false, bothSides(s))
	// Close asks the server to shut down through go-plugin's controller; stopping the server
	// here as well would race inside go-plugin.
	t.Cleanup(func() { _ = client.Close() })
	raw, err := client.Dispense(string(kind))
	if err != nil {
		t.Fatalf("Dispense(%q): %v", kind, err)
	}
	return raw
}

// bufConn serves p with NewGRPCServer over an in-memory connection and returns a client
// connection dialled as go-plugin dials plugins (MaxInt32 call limits).
func bufConn(t *testing.T, p pluginserver.Server) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	s := pluginserver.NewGRPCServer(nil)
	for _, gp := range pluginserver.VersionedPlugins(p)[plugin.ProtocolVersion] {
		if err := gp.(goplugin.GRPCPlugin).GRPCServer(nil, s); err != nil {
			t.Fatal(err)
		}
	}
	go func() { _ = s.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<31-1), grpc.MaxCallSendMsgSize(1<<31-1)),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		s.Stop()
	})
	return conn
}

// bothSides is the plugin set of go-plugin's test harness, which serves and dispenses from
// one set: the server of internal/pluginserver's and the client of this package's.
func bothSides(s pluginserver.Server) goplugin.PluginSet {
	servers := pluginserver.VersionedPlugins(s)[plugin.ProtocolVersion]
	clients := VersionedPlugins(s.Name)[plugin.ProtocolVersion]
	set := goplugin.PluginSet{}
	for k, c := range clients {
		set[k] = &sides{server: servers[k].(goplugin.GRPCPlugin), client: c.(goplugin.GRPCPlugin)}
	}
	return set
}

type sides struct {
	goplugin.NetRPCUnsupportedPlugin
	server, client goplugin.GRPCPlugin
}

func (p *sides) GRPCServer(b *goplugin.GRPCBroker, s *grpc.Server) error {
	return p.server.GRPCServer(b, s)
}

func (p *sides) GRPCClient(ctx context.Context, b *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return p.client.GRPCClient(ctx, b, c)
}

// matched lists the sentinels and context errors err matches.
func matched(err error) []string {
	var out []string
	for _, s := range []error{sdk.ErrInvalidInput, sdk.ErrInvalidConfig, sdk.ErrUnsupported, sdk.ErrUnavailable, sdk.ErrBadResponse, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, s) {
			out = append(out, s.Error())
		}
	}
	return out
}
