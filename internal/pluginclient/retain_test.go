package pluginclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
)

// TestRetainBoundariesAndCountRanges checks protocol 1.1 end to end over go-plugin: counts of
// pieces of kept texts equal Count of the built texts, across requests split by the batch
// limit (each with its own handle).
func TestRetainBoundariesAndCountRanges(t *testing.T) {
	t.Parallel()
	tc := goPluginConn(t, wordsPlugin(), "tokenizer").(*TokenizerClient).WithModel("words")
	tc.limits = limits{batch: 64, max: 1 << 20} // a request holds few texts
	ctx := t.Context()
	var texts []string
	for i := range 40 {
		texts = append(texts, fmt.Sprintf("text %d has some words in it", i))
	}
	bounds, kept, err := tc.RetainBoundaries(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept.handles) < 10 {
		t.Fatalf("%d requests for %d texts at a 64-byte batch; the test means to cross several", len(kept.handles), len(texts))
	}
	want, _ := sdk.Words{}.Boundaries(ctx, texts)
	if diff := cmp.Diff(want, bounds); diff != "" {
		t.Errorf("boundaries (-want +got):\n%s", diff)
	}
	items := [][]sdk.Piece{
		{{Text: 0, Start: 0, End: 6}},
		{sdk.LiteralPiece("a context › "), {Text: 3, Start: 5, End: 13}, sdk.LiteralPiece("\n\n"), {Text: 39, Start: 0, End: len(texts[39])}},
		{},
		{sdk.LiteralPiece("only literal words")},
	}
	for i := range 30 { // more items than one CountRanges request holds at this batch size
		items = append(items, []sdk.Piece{{Text: i, Start: 0, End: len(texts[i])}, {Text: 39 - i, Start: 2, End: 9}})
	}
	built, err := sdk.Build(texts, items)
	if err != nil {
		t.Fatal(err)
	}
	wantCounts, _ := sdk.Words{}.Count(ctx, built)
	got, err := tc.CountRanges(ctx, kept, items)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantCounts, got); diff != "" {
		t.Errorf("CountRanges (-want +got):\n%s", diff)
	}

	t.Run("a handle the plugin no longer holds is ErrNotRetained", func(t *testing.T) {
		gone := &Kept{handles: []uint64{1 << 40}, starts: []int{0}}
		if _, err := tc.CountRanges(ctx, gone, [][]sdk.Piece{{{Text: 0, Start: 0, End: 1}}}); !errors.Is(err, ErrNotRetained) {
			t.Errorf("err = %v, want ErrNotRetained", err)
		}
	})
	t.Run("a range outside its text is invalid input", func(t *testing.T) {
		_, err := tc.CountRanges(ctx, kept, [][]sdk.Piece{{{Text: 1, Start: 0, End: 999}}})
		if !errors.Is(err, sdk.ErrInvalidInput) || !strings.Contains(err.Error(), "outside a text of") {
			t.Errorf("err = %v, want an input error naming the range", err)
		}
	})
}

// oneZero is a tokenizer service of protocol 1.0: it has no RetainBoundaries or CountRanges.
type oneZero struct {
	tokenizerv1.UnimplementedTokenizerServer
}

func (oneZero) Boundaries(_ context.Context, req *tokenizerv1.BoundariesRequest) (*tokenizerv1.BoundariesResponse, error) {
	texts := make([]string, len(req.GetTexts()))
	for i, b := range req.GetTexts() {
		texts[i] = string(b)
	}
	bounds, _ := sdk.Words{}.Boundaries(context.Background(), texts)
	return &tokenizerv1.BoundariesResponse{Ends: commonv1.NewEndsList(bounds)}, nil
}

func TestAOneZeroPluginIsNotAskedToRetainTwice(t *testing.T) {
	t.Parallel()
	s := grpc.NewServer()
	tokenizerv1.RegisterTokenizerServer(s, oneZero{})
	conn := serveConn(t, s)
	tc := NewTokenizerClient(conn, "old")
	for range 2 {
		if _, _, err := tc.RetainBoundaries(t.Context(), []string{"a b"}); !errors.Is(err, ErrNotRetained) {
			t.Fatalf("err = %v, want ErrNotRetained", err)
		}
	}
	if !tc.noRetain.Load() || !tc.WithModel("m").noRetain.Load() {
		t.Error("the client does not remember that the plugin lacks protocol 1.1")
	}
	if b, err := tc.Boundaries(t.Context(), []string{"a b"}); err != nil || len(b[0]) != 2 {
		t.Errorf("Boundaries after the refusal: %v, %v", b, err)
	}
}

// serveConn serves s over an in-memory connection and returns a client connection to it.
func serveConn(t *testing.T, s *grpc.Server) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	go func() { _ = s.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		s.Stop()
	})
	return conn
}
