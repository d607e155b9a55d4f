package pluginrpc

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
)

// tokenizerServer serves chunkkit.tokenizer.v1.Tokenizer from p.Counters. Every call passes the
// request's context to the implementation, so a host's cancellation or deadline reaches it.
type tokenizerServer struct {
	tokenizerv1.UnimplementedTokenizerServer
	p Plugins
}

func (s *tokenizerServer) Info(context.Context, *commonv1.InfoRequest) (*commonv1.InfoResponse, error) {
	return &commonv1.InfoResponse{
		Name:            s.p.Name,
		Version:         s.p.Version,
		Models:          s.p.Counters.Models(),
		ProtocolVersion: tokenizerv1.Version(),
		Kinds:           s.p.kinds(),
	}, nil
}

func (s *tokenizerServer) Count(ctx context.Context, req *tokenizerv1.CountRequest) (resp *tokenizerv1.CountResponse, err error) {
	defer recoverPanic(s.p, "Count", &err)
	tc, err := s.p.Counters.Counter(ctx, req.GetModel())
	if err != nil {
		return nil, rpcstatus.EncodeUnknownModel(err)
	}
	if tc == nil {
		return nil, status.Errorf(codes.Internal, "model %q: plugin returned no counter", req.GetModel())
	}
	counts, err := tc.Count(ctx, convert.Strings(req.GetTexts()))
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &tokenizerv1.CountResponse{Counts: convert.Int64s(counts)}, nil
}

func (s *tokenizerServer) Boundaries(ctx context.Context, req *tokenizerv1.BoundariesRequest) (resp *tokenizerv1.BoundariesResponse, err error) {
	defer recoverPanic(s.p, "Boundaries", &err)
	tc, err := s.p.Counters.Counter(ctx, req.GetModel())
	if err != nil {
		return nil, rpcstatus.EncodeUnknownModel(err)
	}
	if tc == nil {
		return nil, status.Errorf(codes.Internal, "model %q: plugin returned no counter", req.GetModel())
	}
	bounds, err := tc.Boundaries(ctx, convert.Strings(req.GetTexts()))
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &tokenizerv1.BoundariesResponse{Ends: commonv1.NewEndsList(bounds)}, nil
}

// sentenceServer serves chunkkit.sentence.v1.SentenceSplitter from p.Splitters, passing each
// request's context to the implementation.
type sentenceServer struct {
	sentencev1.UnimplementedSentenceSplitterServer
	p Plugins
}

func (s *sentenceServer) Info(context.Context, *commonv1.InfoRequest) (*commonv1.InfoResponse, error) {
	return &commonv1.InfoResponse{
		Name:            s.p.Name,
		Version:         s.p.Version,
		Models:          s.p.Splitters.Models(),
		ProtocolVersion: sentencev1.Version(),
		Kinds:           s.p.kinds(),
	}, nil
}

func (s *sentenceServer) Split(ctx context.Context, req *sentencev1.SplitRequest) (resp *sentencev1.SplitResponse, err error) {
	defer recoverPanic(s.p, "Split", &err)
	ss, err := s.p.Splitters.Splitter(ctx, req.GetModel())
	if err != nil {
		return nil, rpcstatus.EncodeUnknownModel(err)
	}
	if ss == nil {
		return nil, status.Errorf(codes.Internal, "model %q: plugin returned no splitter", req.GetModel())
	}
	bounds, err := ss.Split(ctx, convert.Strings(req.GetTexts()))
	if err != nil {
		return nil, rpcstatus.Encode(err)
	}
	return &sentencev1.SplitResponse{Ends: commonv1.NewEndsList(bounds)}, nil
}

// recoverPanic turns a panic in an implementation into an Internal status (sdk.ErrBadResponse
// on the host) instead of a crashed plugin, and logs the stack.
func recoverPanic(p Plugins, method string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	p.logger().Error("panic in plugin implementation", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	*err = status.Errorf(codes.Internal, "plugin %q: panic in %s: %v", p.Name, method, r)
}
