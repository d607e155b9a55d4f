package pluginclient

import (
	"context"
	"sync/atomic"

	"google.golang.org/grpc"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/convert"
	"github.com/chunkkit/chunkkit/internal/protocol/sentencev1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
)

// TokenizerClient talks to a plugin's tokenizer service. It is an sdk.TokenCounter for one
// model (WithModel; the plugin's default until then) and an sdk.Namer. Calls larger than
// 512 KiB are split transparently into requests, two in flight at once; a text too large for
// one request (plugin.MaxMessageBytes) is an error matching sdk.ErrInvalidInput. Answers are checked with sdk.CheckCounts and
// sdk.CheckBoundaries; every error names the plugin and matches the sentinel the plugin's
// error matched. A TokenizerClient is safe for concurrent use; it is only as alive as the
// connection it was made on.
type TokenizerClient struct {
	rpc tokenizerv1.TokenizerClient
	client
	// noRetain is set once the plugin has answered that it lacks protocol 1.1; it is shared
	// by the clients WithModel makes, since they talk to the same process.
	noRetain *atomic.Bool
}

var (
	_ sdk.TokenCounter = (*TokenizerClient)(nil)
	_ sdk.Namer        = (*TokenizerClient)(nil)
)

// NewTokenizerClient returns a client of the tokenizer service on conn for the default model;
// name labels its errors. go-plugin's Dispense of plugin.KindTokenizer calls it.
func NewTokenizerClient(conn grpc.ClientConnInterface, name string) *TokenizerClient {
	rpc := tokenizerv1.NewTokenizerClient(conn)
	return &TokenizerClient{rpc: rpc, client: client{name: name, limits: defaultLimits(), info: rpc}, noRetain: new(atomic.Bool)}
}

// WithModel returns a client for model on the same connection; c is unchanged.
func (c *TokenizerClient) WithModel(model string) *TokenizerClient {
	d := *c
	d.model = model
	return &d
}

// Count returns the number of tokens of each text, as sdk.TokenCounter.Count.
func (c *TokenizerClient) Count(ctx context.Context, texts []string) ([]int, error) {
	return batched(ctx, c.client, "count", texts,
		func(ctx context.Context, _ span, batch [][]byte) ([]int, error) {
			resp, err := c.rpc.Count(ctx, &tokenizerv1.CountRequest{Model: c.model, Texts: batch})
			if err != nil {
				return nil, err
			}
			counts, err := convert.Ints(resp.GetCounts())
			if err != nil {
				return nil, badResponse(err)
			}
			return counts, nil
		},
		sdk.CheckCounts)
}

// Boundaries returns the token end offsets of each text, as sdk.TokenCounter.Boundaries.
func (c *TokenizerClient) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	return batched(ctx, c.client, "boundaries", texts,
		func(ctx context.Context, _ span, batch [][]byte) ([][]int, error) {
			resp, err := c.rpc.Boundaries(ctx, &tokenizerv1.BoundariesRequest{Model: c.model, Texts: batch})
			if err != nil {
				return nil, err
			}
			return endsOf(resp.GetEnds())
		},
		sdk.CheckBoundaries)
}

// readEnds returns the offsets of a RetainedBoundaries answer about n texts: its packed_ends
// when the plugin filled them (the host always asks), else its ends (a 1.1 plugin from before
// packed_ends).
func readEnds(packed []byte, ends []*commonv1.Ends, n int) ([][]int, error) {
	if len(packed) > 0 {
		bounds, err := commonv1.Packed(packed, n)
		if err != nil {
			return nil, badResponse(err)
		}
		return bounds, nil
	}
	return endsOf(ends)
}

// endsOf returns the offsets an answer's ends carry; ends the sdk form cannot hold are a bad
// response.
func endsOf(ends []*commonv1.Ends) ([][]int, error) {
	bounds, err := commonv1.EndsLists(ends)
	if err != nil {
		return nil, badResponse(err)
	}
	return bounds, nil
}

// SentenceClient talks to a plugin's sentence service. It is an sdk.SentenceSplitter for one
// model (WithModel; the plugin's default until then) and an sdk.Namer, with the batching,
// checking (sdk.CheckBoundaries) and error behaviour of TokenizerClient. It is safe for
// concurrent use.
type SentenceClient struct {
	rpc sentencev1.SentenceSplitterClient
	client
}

var (
	_ sdk.SentenceSplitter = (*SentenceClient)(nil)
	_ sdk.Namer            = (*SentenceClient)(nil)
)

// NewSentenceClient returns a client of the sentence service on conn for the default model;
// name labels its errors. go-plugin's Dispense of plugin.KindSentence calls it.
func NewSentenceClient(conn grpc.ClientConnInterface, name string) *SentenceClient {
	rpc := sentencev1.NewSentenceSplitterClient(conn)
	return &SentenceClient{rpc: rpc, client: client{name: name, limits: defaultLimits(), info: rpc}}
}

// WithModel returns a client for model on the same connection; c is unchanged.
func (c *SentenceClient) WithModel(model string) *SentenceClient {
	d := *c
	d.model = model
	return &d
}

// Split returns the sentence end offsets of each text, as sdk.SentenceSplitter.Split.
func (c *SentenceClient) Split(ctx context.Context, texts []string) ([][]int, error) {
	return batched(ctx, c.client, "split", texts,
		func(ctx context.Context, _ span, batch [][]byte) ([][]int, error) {
			resp, err := c.rpc.Split(ctx, &sentencev1.SplitRequest{Model: c.model, Texts: batch})
			if err != nil {
				return nil, err
			}
			return endsOf(resp.GetEnds())
		},
		sdk.CheckBoundaries)
}
