package pluginclient

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/convert"
	"github.com/chunkkit/chunkkit/internal/protocol/rpcstatus"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// limits bounds the requests a client sends: batch is the size it splits at (pipelineBytes,
// within plugin.BatchBytes), max the size no request may exceed (plugin.MaxMessageBytes), and
// inFlight how many requests of one call travel at once. Tests lower them.
type limits struct {
	batch, max int
	inFlight   int
}

// A call larger than pipelineBytes travels as several requests, two at a time, so that the
// transfer of one (encoding, the socket, decoding: a few milliseconds a MiB on each side)
// overlaps the plugin's work on the one before, instead of both processes taking turns. The
// plugin may then work on two requests of one call at once, each on its own goroutine.
const (
	pipelineBytes    = 512 << 10
	pipelineInFlight = 2
)

func defaultLimits() limits {
	return limits{batch: min(pipelineBytes, plugin.BatchBytes), max: plugin.MaxMessageBytes, inFlight: pipelineInFlight}
}

// span is the half-open range [lo, hi) of texts that travel in one request.
type span struct{ lo, hi int }

// batches splits texts into consecutive spans whose encoded request (model field and text
// fields) stays within l.batch bytes (and l.max); a text too large for that travels alone. It fails with
// an error matching sdk.ErrInvalidInput when a text alone makes a request over l.max. No
// texts give no spans.
func batches(model string, texts []string, l limits) ([]span, error) {
	base := 0
	if model != "" {
		base = protowire.SizeTag(1) + protowire.SizeBytes(len(model))
	}
	budget := min(l.batch, l.max)
	var out []span
	lo, size := 0, base
	for i, t := range texts {
		n := protowire.SizeTag(2) + protowire.SizeBytes(len(t))
		if base+n > l.max {
			return nil, fmt.Errorf("%w: text %d is %d bytes, too large for one plugin request (at most %d bytes)", sdk.ErrInvalidInput, i, len(t), l.max)
		}
		if i > lo && size+n > budget {
			out = append(out, span{lo, i})
			lo, size = i, base
		}
		size += n
	}
	if len(texts) > lo {
		out = append(out, span{lo, len(texts)})
	}
	return out, nil
}

// client is what the tokenizer and sentence clients share: who they talk to, how they batch
// and label errors, and the Info RPC, which both services have.
type client struct {
	name   string
	model  string
	limits limits
	info   infoRPC
}

// infoRPC is the Info method of every generated service client.
type infoRPC interface {
	Info(ctx context.Context, in *commonv1.InfoRequest, opts ...grpc.CallOption) (*commonv1.InfoResponse, error)
}

// Info asks the plugin what it is and which models of the client's service it serves.
func (c client) Info(ctx context.Context) (plugin.Info, error) {
	resp, err := c.info.Info(ctx, &commonv1.InfoRequest{})
	if err != nil {
		return plugin.Info{}, c.errorf("info", rpcstatus.Decode(err))
	}
	return commonv1.InfoFrom(resp), nil
}

// errorf labels err with the plugin, the model and the operation.
func (c client) errorf(op string, err error) error {
	if c.model == "" {
		return fmt.Errorf("plugin %q: %s: %w", c.name, op, err)
	}
	return fmt.Errorf("plugin %q model %q: %s: %w", c.name, c.model, op, err)
}

// Model returns the model the client asks for; "" is the plugin's default.
func (c client) Model() string { return c.model }

// Name returns the spec that names the client: "plugin:NAME:MODEL", or "plugin:NAME" for
// the default model.
func (c client) Name() string {
	if c.model == "" {
		return "plugin:" + c.name
	}
	return "plugin:" + c.name + ":" + c.model
}

// batched sends texts in as many requests as the limits need, through call, and returns the
// answers concatenated in order. Up to c.limits.inFlight requests travel at once; the first
// failure cancels the others and is the error returned. call is given each request's span
// and texts and returns the raw gRPC error and the answer in sdk form; it must be safe for
// concurrent use. check validates each answer against its batch (sdk.CheckCounts or
// sdk.CheckBoundaries) and must return errors matching sdk.ErrBadResponse.
func batched[T any](ctx context.Context, c client, op string, texts []string,
	call func(ctx context.Context, s span, batch [][]byte) ([]T, error),
	check func(batch []string, answer []T) error,
) ([]T, error) {
	if err := ctx.Err(); err != nil {
		return nil, c.errorf(op, err)
	}
	spans, err := batches(c.model, texts, c.limits)
	if err != nil {
		return nil, c.errorf(op, err)
	}
	one := func(ctx context.Context, s span) ([]T, error) {
		batch := texts[s.lo:s.hi]
		answer, err := call(ctx, s, convert.BytesView(batch))
		if err != nil {
			return nil, c.errorf(op, rpcstatus.Decode(err))
		}
		if err := check(batch, answer); err != nil {
			if len(spans) > 1 {
				err = fmt.Errorf("request of texts %d to %d: %w", s.lo, s.hi-1, err)
			}
			return nil, c.errorf(op, err)
		}
		return answer, nil
	}
	if len(spans) == 1 || c.limits.inFlight <= 1 {
		out := make([]T, 0, len(texts))
		for _, s := range spans {
			answer, err := one(ctx, s)
			if err != nil {
				return nil, err
			}
			out = append(out, answer...)
		}
		return out, nil
	}
	// The requests carry the call's ID, so that the plugin may count them in turn while the
	// next one travels (plugin.CallMetadata).
	ctx = metadata.AppendToOutgoingContext(ctx, plugin.CallMetadata, strconv.FormatUint(callIDs.Add(1), 10))
	return pipelined(ctx, spans, c.limits.inFlight, len(texts), one)
}

// callIDs numbers the calls sent as several requests (plugin.CallMetadata).
var callIDs atomic.Uint64

// pipelined runs one for every span, up to inFlight at once, and returns their answers
// concatenated in span order, or the first error to happen (the others are cancelled).
func pipelined[T any](ctx context.Context, spans []span, inFlight, n int, one func(context.Context, span) ([]T, error)) ([]T, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make([][]T, len(spans))
	var (
		wg       sync.WaitGroup
		failOnce sync.Once
		failure  error
	)
	slots := make(chan struct{}, inFlight)
	for i, s := range spans {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			answer, err := one(ctx, s)
			if err != nil {
				failOnce.Do(func() { failure = err })
				cancel()
				return
			}
			answers[i] = answer
		}()
	}
	wg.Wait()
	if failure != nil {
		return nil, failure
	}
	if err := ctx.Err(); err != nil { // the caller's context ended before every request went
		return nil, err
	}
	out := make([]T, 0, n)
	for _, a := range answers {
		out = append(out, a...)
	}
	return out, nil
}

// badResponse marks a conversion failure of an answer as sdk.ErrBadResponse.
func badResponse(err error) error {
	return fmt.Errorf("%w: %v", sdk.ErrBadResponse, err)
}
