package pluginclient

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/convert"
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
	if !kept.packed {
		t.Error("the SDK's plugin did not say it reads packed texts (protocol 1.2)")
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
		gone := &Kept{handles: []uint64{1 << 40}, starts: []int{0}, texts: 1}
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

// firstOneOne is a tokenizer service of protocol 1.1 from before packed_ends: its
// RetainBoundaries ignores the request's packed_ends and answers with ends.
type firstOneOne struct {
	oneZero
	asked bool
}

func (f *firstOneOne) RetainBoundaries(ctx context.Context, req *tokenizerv1.RetainRequest) (*tokenizerv1.RetainedBoundaries, error) {
	f.asked = req.GetPackedEnds()
	resp, err := f.Boundaries(ctx, &tokenizerv1.BoundariesRequest{Model: req.GetModel(), Texts: req.GetTexts()})
	if err != nil {
		return nil, err
	}
	return &tokenizerv1.RetainedBoundaries{Ends: resp.GetEnds(), Handle: 7}, nil
}

func TestRetainBoundariesReadsPackedEndsAndEndsAlike(t *testing.T) {
	t.Parallel()
	texts := []string{"one two three", "", "four"}
	want, _ := sdk.Words{}.Boundaries(t.Context(), texts)
	t.Run("a plugin from before packed_ends answers with ends", func(t *testing.T) {
		t.Parallel()
		s := grpc.NewServer()
		old := &firstOneOne{}
		tokenizerv1.RegisterTokenizerServer(s, old)
		tc := NewTokenizerClient(serveConn(t, s), "old")
		got, kept, err := tc.RetainBoundaries(t.Context(), texts)
		if err != nil {
			t.Fatal(err)
		}
		if !old.asked {
			t.Error("the request did not ask for packed ends")
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("boundaries (-want +got):\n%s", diff)
		}
		if len(kept.handles) != 1 || kept.handles[0] != 7 {
			t.Errorf("handles = %v, want [7]", kept.handles)
		}
	})
	t.Run("the SDK's plugin answers with packed ends", func(t *testing.T) {
		t.Parallel()
		tc := goPluginConn(t, wordsPlugin(), "tokenizer").(*TokenizerClient).WithModel("words")
		got, _, err := tc.RetainBoundaries(t.Context(), texts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("boundaries (-want +got):\n%s", diff)
		}
	})
	t.Run("packed ends that do not fit the texts are a bad response", func(t *testing.T) {
		t.Parallel()
		s := grpc.NewServer()
		tokenizerv1.RegisterTokenizerServer(s, badPacked{})
		tc := NewTokenizerClient(serveConn(t, s), "bad")
		_, _, err := tc.RetainBoundaries(t.Context(), texts)
		if !errors.Is(err, sdk.ErrBadResponse) || !strings.Contains(err.Error(), "packed ends") {
			t.Errorf("err = %v, want a bad response about the packed ends", err)
		}
	})
}

// badPacked answers RetainBoundaries with packed ends for one text whatever it was asked.
type badPacked struct{ oneZero }

func (badPacked) RetainBoundaries(context.Context, *tokenizerv1.RetainRequest) (*tokenizerv1.RetainedBoundaries, error) {
	return &tokenizerv1.RetainedBoundaries{PackedEnds: []byte{1, 3}, Handle: 1}, nil
}

// oneOne is a tokenizer service of protocol 1.1: it keeps texts and counts composites sent as
// messages, and knows nothing of packed_texts.
type oneOne struct {
	oneZero
	kept   [][]string
	packed bool // a CountRanges request came with packed_texts
}

func (o *oneOne) RetainBoundaries(ctx context.Context, req *tokenizerv1.RetainRequest) (*tokenizerv1.RetainedBoundaries, error) {
	texts := make([]string, len(req.GetTexts()))
	for i, b := range req.GetTexts() {
		texts[i] = string(b)
	}
	o.kept = append(o.kept, texts)
	bounds, _ := sdk.Words{}.Boundaries(ctx, texts)
	return &tokenizerv1.RetainedBoundaries{Ends: commonv1.NewEndsList(bounds), Handle: uint64(len(o.kept))}, nil
}

func (o *oneOne) CountRanges(ctx context.Context, req *tokenizerv1.CountRangesRequest) (*tokenizerv1.CountResponse, error) {
	o.packed = o.packed || len(req.GetPackedTexts()) > 0
	var texts []string
	for _, c := range req.GetTexts() {
		var sb strings.Builder
		for _, p := range c.GetPieces() {
			if rg := p.GetRange(); rg != nil {
				sb.WriteString(o.kept[rg.GetHandle()-1][rg.GetText()][rg.GetStart():rg.GetEnd()])
			} else {
				sb.Write(p.GetLiteral())
			}
		}
		texts = append(texts, sb.String())
	}
	counts, _ := sdk.Words{}.Count(ctx, texts)
	return &tokenizerv1.CountResponse{Counts: convert.Int64s(counts)}, nil
}

func TestAOneOnePluginGetsCompositesAsMessages(t *testing.T) {
	t.Parallel()
	s := grpc.NewServer()
	old := &oneOne{}
	tokenizerv1.RegisterTokenizerServer(s, old)
	tc := NewTokenizerClient(serveConn(t, s), "old")
	tc.limits = limits{batch: 64, max: 1 << 20}
	texts := []string{"one two three", "four five six seven", "eight"}
	_, kept, err := tc.RetainBoundaries(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if kept.packed {
		t.Fatal("a 1.1 plugin's answer taken as one that reads packed texts")
	}
	items := [][]sdk.Piece{
		{sdk.LiteralPiece("ctx › "), {Text: 0, Start: 4, End: 13}, sdk.LiteralPiece("\n\n"), {Text: 1, Start: 0, End: 9}},
		{},
		{{Text: 2, Start: 0, End: 5}},
	}
	got, err := tc.CountRanges(t.Context(), kept, items)
	if err != nil {
		t.Fatal(err)
	}
	if old.packed {
		t.Error("a 1.1 plugin was sent packed_texts")
	}
	if diff := cmp.Diff([]int{6, 0, 1}, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

// TestMergeKeptLocatesEveryTextAsItsOwnKept checks MergeKept on random Kepts, some shared: text
// t of kepts[i] is text offsets[i]+t of the merged Kept, in the same request under the same
// handle, and nothing lies past the merged texts.
func TestMergeKeptLocatesEveryTextAsItsOwnKept(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		var kepts []*Kept
		next := uint64(1)
		for range 1 + r.IntN(6) {
			if len(kepts) > 0 && r.IntN(3) == 0 {
				kepts = append(kepts, kepts[r.IntN(len(kepts))]) // documents of one merged call
				continue
			}
			k := &Kept{packed: r.IntN(4) > 0}
			for range 1 + r.IntN(4) {
				k.handles = append(k.handles, next)
				next++
				k.starts = append(k.starts, k.texts)
				k.texts += 1 + r.IntN(5)
			}
			kepts = append(kepts, k)
		}
		merged, offsets := MergeKept(kepts)
		packed := true
		for i, k := range kepts {
			packed = packed && k.packed
			for text := range k.texts {
				wh, wi, _ := k.locate(text)
				gh, gi, ok := merged.locate(offsets[i] + text)
				if !ok || merged.handles[gh] != k.handles[wh] || gi != wi {
					t.Fatalf("round %d: kept %d text %d: merged says handle %d index %d (%t), want handle %d index %d",
						round, i, text, merged.handles[gh], gi, ok, k.handles[wh], wi)
				}
			}
		}
		if merged.packed != packed {
			t.Errorf("round %d: merged packed %t, want %t", round, merged.packed, packed)
		}
		if _, _, ok := merged.locate(merged.texts); ok {
			t.Errorf("round %d: text %d located past the %d merged texts", round, merged.texts, merged.texts)
		}
	}
}
