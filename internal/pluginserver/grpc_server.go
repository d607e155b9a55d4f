package pluginserver

import (
	"context"
	"fmt"
	"runtime/debug"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/convert"
	"github.com/chunkkit/chunkkit/internal/protocol/rpcstatus"
	"github.com/chunkkit/chunkkit/internal/protocol/sentencev1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// info is what both services' Info answers, with the models of the service asked.
func (s Server) info(models []string, version string) *commonv1.InfoResponse {
	return commonv1.NewInfoResponse(plugin.Info{
		Name:            s.Name,
		Version:         s.Version,
		Models:          models,
		ProtocolVersion: version,
		Kinds:           s.kinds(),
	})
}

// model returns the model a request names from r, as an INTERNAL status when the registry
// hands out nothing, and through rpcstatus.EncodeUnknownModel otherwise.
func model[T any](ctx context.Context, r plugin.Registry[T], name string) (T, error) {
	var zero T
	v, err := r.Model(ctx, name)
	if err != nil {
		return zero, rpcstatus.EncodeUnknownModel(err)
	}
	if any(v) == nil {
		return zero, status.Errorf(codes.Internal, "model %q: the plugin's registry returned nothing", name)
	}
	return v, nil
}

// tokenizerServer serves chunkkit.tokenizer.v1.Tokenizer from s.Counters.
type tokenizerServer struct {
	tokenizerv1.UnimplementedTokenizerServer
	s     Server
	kept  *retained // the texts of RetainBoundaries, for CountRanges
	calls *calls    // the requests of one host call count in turn
}

func (t *tokenizerServer) Info(context.Context, *commonv1.InfoRequest) (*commonv1.InfoResponse, error) {
	return t.s.info(t.s.Counters.Models(), tokenizerv1.Version()), nil
}

func (t *tokenizerServer) Count(ctx context.Context, req *tokenizerv1.CountRequest) (resp *tokenizerv1.CountResponse, err error) {
	defer recoverPanic(t.s, "Count", &err)
	tc, err := model(ctx, t.s.Counters, req.GetModel())
	if err != nil {
		return nil, err
	}
	defer t.calls.hold(ctx)()
	counts, err := tc.Count(ctx, convert.StringsView(req.GetTexts()))
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &tokenizerv1.CountResponse{Counts: convert.Int64s(counts)}, nil
}

func (t *tokenizerServer) Boundaries(ctx context.Context, req *tokenizerv1.BoundariesRequest) (resp *tokenizerv1.BoundariesResponse, err error) {
	defer recoverPanic(t.s, "Boundaries", &err)
	tc, err := model(ctx, t.s.Counters, req.GetModel())
	if err != nil {
		return nil, err
	}
	defer t.calls.hold(ctx)()
	bounds, err := tc.Boundaries(ctx, convert.StringsView(req.GetTexts()))
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &tokenizerv1.BoundariesResponse{Ends: commonv1.NewEndsList(bounds)}, nil
}

// packEnds returns the packed_ends form of bounds (protocol 1.1), or an INTERNAL status when the
// implementation's offsets decrease, which that form cannot carry (the host reports it as a bad
// response, as it does such offsets in ends).
func packEnds(bounds [][]int) ([]byte, error) {
	packed, err := commonv1.AppendPacked(make([]byte, 0, commonv1.PackedSize(bounds)), bounds)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "the token counter's boundaries: %v", err)
	}
	return packed, nil
}

// sentenceServer serves chunkkit.sentence.v1.SentenceSplitter from s.Splitters.
type sentenceServer struct {
	sentencev1.UnimplementedSentenceSplitterServer
	s Server
}

func (t *sentenceServer) Info(context.Context, *commonv1.InfoRequest) (*commonv1.InfoResponse, error) {
	return t.s.info(t.s.Splitters.Models(), sentencev1.Version()), nil
}

func (t *sentenceServer) Split(ctx context.Context, req *sentencev1.SplitRequest) (resp *sentencev1.SplitResponse, err error) {
	defer recoverPanic(t.s, "Split", &err)
	ss, err := model(ctx, t.s.Splitters, req.GetModel())
	if err != nil {
		return nil, err
	}
	bounds, err := ss.Split(ctx, convert.StringsView(req.GetTexts()))
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &sentencev1.SplitResponse{Ends: commonv1.NewEndsList(bounds)}, nil
}

// recoverPanic turns a panic in an implementation into an INTERNAL status (sdk.ErrBadResponse
// on the host) instead of a crashed plugin, and logs the stack.
func recoverPanic(s Server, method string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	s.logger().Error("panic in plugin implementation", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	*err = status.Errorf(codes.Internal, "plugin %q: panic in %s: %v", s.Name, method, r)
}
