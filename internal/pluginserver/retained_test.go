package pluginserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chunkkit/chunkkit/internal/protocol/commonv1"
	"github.com/chunkkit/chunkkit/internal/protocol/convert"
	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// serving returns a tokenizer server of tc as model, which keeps the keep latest requests and
// more within maxBytes.
func serving(model string, tc sdk.TokenCounter, keep, maxBytes int) *tokenizerServer {
	return &tokenizerServer{s: Server{Counters: plugin.MapOf(map[string]sdk.TokenCounter{model: tc})}, kept: newRetained(keep, maxBytes)}
}

func TestRetainedKeepsTheMostRecentRequests(t *testing.T) {
	t.Parallel()
	r := newRetained(2, 10) // always 2 requests; more while they fit 10 bytes
	a := r.put("m", []string{"aaaa"}, nil)
	b := r.put("m", []string{"bbbb"}, nil)
	if a == 0 || b == 0 || a == b {
		t.Fatalf("handles %d, %d: want distinct and not 0", a, b)
	}
	c := r.put("m", []string{"cc"}, nil) // 10 bytes: all three fit
	if _, _, err := r.get(a, "m"); err != nil {
		t.Errorf("a dropped while everything fits: %v", err)
	}
	d := r.put("m", []string{"dddd"}, nil) // 14 bytes: the least recently used (b) goes
	if _, _, err := r.get(b, "m"); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("b: err = %v, want FailedPrecondition", err)
	}
	for _, h := range []uint64{a, c, d} {
		if _, _, err := r.get(h, "m"); err != nil {
			t.Errorf("handle %d: %v", h, err)
		}
	}
	big := r.put("m", []string{strings.Repeat("x", 100)}, nil) // over the bytes: only the keep most recent stay
	if got, _, err := r.get(big, "m"); err != nil || got[0] != strings.Repeat("x", 100) {
		t.Errorf("the newest request: %v", err)
	}
	if r.order.Len() != 2 {
		t.Errorf("%d requests kept over the byte bound, want the 2 always kept", r.order.Len())
	}
	if _, _, err := r.get(big, "other"); status.Code(err) != codes.InvalidArgument {
		t.Errorf("another model's handle: err = %v, want InvalidArgument", err)
	}
}

func TestRetainBoundariesAnswersPackedEndsWhenAsked(t *testing.T) {
	t.Parallel()
	s := serving("words", sdk.Words{}, 4, 1<<20)
	texts := [][]byte{[]byte("one two"), {}, []byte("three")}
	want := [][]int{{3, 7}, nil, {5}}
	plain, err := s.RetainBoundaries(t.Context(), &tokenizerv1.RetainRequest{Model: "words", Texts: texts})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.GetPackedEnds()) != 0 {
		t.Errorf("packed ends unasked: % x", plain.GetPackedEnds())
	}
	if got, _ := commonv1.EndsLists(plain.GetEnds()); !cmp.Equal(want, got) {
		t.Errorf("ends = %v, want %v", got, want)
	}
	packed, err := s.RetainBoundaries(t.Context(), &tokenizerv1.RetainRequest{Model: "words", Texts: texts, PackedEnds: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(packed.GetEnds()) != 0 || packed.GetHandle() == 0 {
		t.Errorf("packed answer has %d ends and handle %d, want none and a handle", len(packed.GetEnds()), packed.GetHandle())
	}
	if got, err := commonv1.Packed(packed.GetPackedEnds(), len(texts)); err != nil || !cmp.Equal(want, got) {
		t.Errorf("packed ends = %v (%v), want %v", got, err, want)
	}
}

// decreasing is a counter whose boundaries go backwards.
type decreasing struct{ sdk.Words }

func (decreasing) Boundaries(_ context.Context, texts []string) ([][]int, error) {
	return [][]int{{3, 1}}, nil
}

func TestDecreasingBoundariesCannotBePackedAndAreAnInternalError(t *testing.T) {
	t.Parallel()
	s := serving("d", decreasing{}, 4, 1<<20)
	_, err := s.RetainBoundaries(t.Context(), &tokenizerv1.RetainRequest{Model: "d", Texts: [][]byte{[]byte("abc")}, PackedEnds: true})
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "below the one before") {
		t.Errorf("err = %v, want INTERNAL about a decreasing offset", err)
	}
}

func TestCountRangesReadsPackedTextsAndComposites(t *testing.T) {
	t.Parallel()
	s := serving("words", sdk.Words{}, 4, 1<<20)
	ctx := t.Context()
	kept, err := s.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: "words", Texts: [][]byte{[]byte("one two three"), []byte("four five")}, PackedEnds: true})
	if err != nil {
		t.Fatal(err)
	}
	if !kept.GetPackedTexts() {
		t.Fatal("RetainBoundaries does not say the plugin reads packed texts")
	}
	var packed []byte
	packed = tokenizerv1.AppendPackedComposite(packed, 3)
	packed = tokenizerv1.AppendPackedLiteral(packed, "a context › ")
	packed = tokenizerv1.AppendPackedRange(packed, 0, 0, 4, 13)
	packed = tokenizerv1.AppendPackedRange(packed, 0, 1, 0, 4)
	packed = tokenizerv1.AppendPackedComposite(packed, 0)
	packed = tokenizerv1.AppendPackedComposite(packed, 1)
	packed = tokenizerv1.AppendPackedRange(packed, 0, 1, 5, 9)
	handles := []uint64{kept.GetHandle()}
	got, err := s.CountRanges(ctx, &tokenizerv1.CountRangesRequest{Model: "words", PackedTexts: packed, Handles: handles})
	if err != nil {
		t.Fatal(err)
	}
	// "a context › two threefour", "", "five"
	if want := []int64{5, 0, 1}; !cmp.Equal(want, got.GetCounts()) {
		t.Errorf("counts = %v, want %v", got.GetCounts(), want)
	}
	rg := func(text uint32, start, end uint64) *tokenizerv1.Piece {
		return &tokenizerv1.Piece{Piece: &tokenizerv1.Piece_Range{Range: &tokenizerv1.Range{Handle: kept.GetHandle(), Text: text, Start: start, End: end}}}
	}
	messages, err := s.CountRanges(ctx, &tokenizerv1.CountRangesRequest{Model: "words", Texts: []*tokenizerv1.Composite{
		{Pieces: []*tokenizerv1.Piece{{Piece: &tokenizerv1.Piece_Literal{Literal: []byte("a context › ")}}, rg(0, 4, 13), rg(1, 0, 4)}},
		{},
		{Pieces: []*tokenizerv1.Piece{rg(1, 5, 9)}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(got.GetCounts(), messages.GetCounts()) {
		t.Errorf("composites counted %v, packed %v", messages.GetCounts(), got.GetCounts())
	}

	for _, tt := range []struct {
		name    string
		packed  []byte
		handles []uint64
		want    string
	}{
		{"a handle index past handles", tokenizerv1.AppendPackedRange([]byte{1}, 1, 0, 0, 1), handles, "text 0 piece 0: handle 1 of 1"},
		{"a range past its text", tokenizerv1.AppendPackedRange([]byte{1}, 0, 1, 2, 99), handles, "text 0 piece 0: range [2, 99) outside a text of 9 bytes"},
		{"a text past the request's", tokenizerv1.AppendPackedRange([]byte{2, 0}, 0, 5, 0, 0), handles, "text 0 piece 1: text 5 of retained texts"},
		{"bytes that are not the packed form", []byte{1, 8}, handles, "composite 0 piece 0: a literal of 4 bytes, 0 left"},
	} {
		_, err := s.CountRanges(ctx, &tokenizerv1.CountRangesRequest{Model: "words", PackedTexts: tt.packed, Handles: tt.handles})
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want INVALID_ARGUMENT containing %q", tt.name, err, tt.want)
		}
	}
	_, err = s.CountRanges(ctx, &tokenizerv1.CountRangesRequest{Model: "words", PackedTexts: tokenizerv1.AppendPackedRange([]byte{1}, 0, 0, 0, 1), Handles: []uint64{999}})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("a handle no longer kept: err = %v, want FAILED_PRECONDITION", err)
	}
}

// textsSeen is a counter that keeps the texts it is asked to count, and counts their bytes.
type textsSeen struct{ texts []string }

func (c *textsSeen) Count(_ context.Context, texts []string) ([]int, error) {
	c.texts = append(c.texts[:0], texts...)
	out := make([]int, len(texts))
	for i, t := range texts {
		out[i] = len(t)
	}
	return out, nil
}

func (c *textsSeen) Boundaries(_ context.Context, texts []string) ([][]int, error) {
	return sdk.Runes{}.Boundaries(context.Background(), texts)
}

// CountRanges counts exactly the texts its pieces make, whether a text is one range (counted
// as the kept text's substring), one literal, none, or several pieces (built in one buffer),
// and in any order of the three.
func TestCountRangesBuildsTheTextsItsPiecesMake(t *testing.T) {
	t.Parallel()
	seen := &textsSeen{}
	s := serving("seen", seen, 4, 1<<20)
	ctx := t.Context()
	kept, err := s.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: "seen", Texts: [][]byte{[]byte("one two three"), []byte("four five")}, PackedEnds: true})
	if err != nil {
		t.Fatal(err)
	}
	var packed []byte
	packed = tokenizerv1.AppendPackedComposite(packed, 1)
	packed = tokenizerv1.AppendPackedRange(packed, 0, 0, 4, 7)
	packed = tokenizerv1.AppendPackedComposite(packed, 3)
	packed = tokenizerv1.AppendPackedRange(packed, 0, 1, 0, 5)
	packed = tokenizerv1.AppendPackedLiteral(packed, "› ")
	packed = tokenizerv1.AppendPackedRange(packed, 0, 0, 8, 13)
	packed = tokenizerv1.AppendPackedComposite(packed, 0)
	packed = tokenizerv1.AppendPackedComposite(packed, 1)
	packed = tokenizerv1.AppendPackedLiteral(packed, "just a literal")
	packed = tokenizerv1.AppendPackedComposite(packed, 2)
	packed = tokenizerv1.AppendPackedLiteral(packed, "a heading › ")
	packed = tokenizerv1.AppendPackedRange(packed, 0, 1, 5, 9)
	packed = tokenizerv1.AppendPackedComposite(packed, 1)
	packed = tokenizerv1.AppendPackedRange(packed, 0, 1, 0, 9)
	got, err := s.CountRanges(ctx, &tokenizerv1.CountRangesRequest{Model: "seen", PackedTexts: packed, Handles: []uint64{kept.GetHandle()}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"two", "four › three", "", "just a literal", "a heading › five", "four five"}
	if diff := cmp.Diff(want, seen.texts); diff != "" {
		t.Errorf("texts counted (-want +got):\n%s", diff)
	}
	wantCounts := make([]int64, len(want))
	for i, w := range want {
		wantCounts[i] = int64(len(w))
	}
	if !cmp.Equal(wantCounts, got.GetCounts()) {
		t.Errorf("counts = %v, want %v", got.GetCounts(), wantCounts)
	}
}

// marksSeen is an sdk.RangeCounter whose mark says which texts it measured and how many bytes
// it holds, and that keeps what CountMarked is given; it counts bytes.
type marksSeen struct {
	textsSeen
	marked []sdk.MarkedText
	size   int
}

type seenMark struct {
	texts []string
	size  int
}

func (m *seenMark) Size() int { return m.size }

func (c *marksSeen) MeasureMarked(ctx context.Context, texts []string) ([][]int, any, error) {
	bounds, err := c.Boundaries(ctx, texts)
	return bounds, &seenMark{texts: texts, size: c.size}, err
}

func (c *marksSeen) CountMarked(ctx context.Context, texts []sdk.MarkedText) ([]int, error) {
	c.marked = texts
	plain := make([]string, len(texts))
	for i, t := range texts {
		plain[i] = t.Text
	}
	return c.Count(ctx, plain)
}

// A counter that can count ranges of what it measured gets, with each text CountRanges builds,
// where in it each range is, of which retained request (its mark) and text, and from where.
// The bytes a mark says it holds count in what the plugin keeps.
func TestCountRangesTellsARangeCounterWhereItsRangesAre(t *testing.T) {
	t.Parallel()
	seen := &marksSeen{}
	s := serving("seen", seen, 4, 1<<20)
	ctx := t.Context()
	texts := [][]byte{[]byte("one two three"), []byte("four five"), []byte("six seven")}
	kept, err := s.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: "seen", Texts: texts, PackedEnds: true})
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: "seen", Texts: [][]byte{[]byte("eight")}, PackedEnds: true})
	if err != nil {
		t.Fatal(err)
	}
	var packed []byte
	packed = tokenizerv1.AppendPackedComposite(packed, 1)
	packed = tokenizerv1.AppendPackedRange(packed, 0, 0, 4, 7)
	packed = tokenizerv1.AppendPackedComposite(packed, 4)
	packed = tokenizerv1.AppendPackedLiteral(packed, "a › ")
	packed = tokenizerv1.AppendPackedRange(packed, 0, 2, 0, 3)
	packed = tokenizerv1.AppendPackedRange(packed, 1, 0, 0, 5)
	packed = tokenizerv1.AppendPackedRange(packed, 0, 0, 8, 13)
	packed = tokenizerv1.AppendPackedComposite(packed, 1)
	packed = tokenizerv1.AppendPackedLiteral(packed, "just a literal")
	if _, err := s.CountRanges(ctx, &tokenizerv1.CountRangesRequest{Model: "seen", PackedTexts: packed, Handles: []uint64{kept.GetHandle(), other.GetHandle()}}); err != nil {
		t.Fatal(err)
	}
	_, mark, err := s.kept.get(kept.GetHandle(), "seen")
	if err != nil {
		t.Fatal(err)
	}
	_, otherMark, err := s.kept.get(other.GetHandle(), "seen")
	if err != nil {
		t.Fatal(err)
	}
	if mark == otherMark {
		t.Fatal("two requests share one mark")
	}
	want := []sdk.MarkedText{
		{Text: "two", Ranges: []sdk.MarkedRange{{At: 0, Len: 3, Mark: mark, Of: 0, Start: 4}}},
		{Text: "a › sixeightthree", Ranges: []sdk.MarkedRange{
			{At: len("a › "), Len: 3, Mark: mark, Of: 2, Start: 0},
			{At: len("a › six"), Len: 5, Mark: otherMark, Of: 0, Start: 0},
			{At: len("a › sixeight"), Len: 5, Mark: mark, Of: 0, Start: 8}}},
		{Text: "just a literal", Ranges: []sdk.MarkedRange{}},
	}
	if diff := cmp.Diff(want, seen.marked, cmp.Comparer(func(a, b *seenMark) bool { return a == b })); diff != "" {
		t.Errorf("marked texts (-want +got):\n%s", diff)
	}

	// Marks of 400 bytes, kept beside texts of 9 bytes within 1,000: two such requests fit, a
	// third pushes the least recent out beyond the one always kept.
	big := &marksSeen{size: 400}
	s = serving("big", big, 1, 1000)
	var handles []uint64
	for range 3 {
		r, err := s.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: "big", Texts: texts[1:2], PackedEnds: true})
		if err != nil {
			t.Fatal(err)
		}
		handles = append(handles, r.GetHandle())
	}
	if _, _, err := s.kept.get(handles[0], "big"); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("the first of three requests of 409 bytes within 1,000: err = %v, want it dropped (FAILED_PRECONDITION)", err)
	}
	for _, h := range handles[1:] {
		if _, _, err := s.kept.get(h, "big"); err != nil {
			t.Errorf("handle %d of the two latest requests: %v", h, err)
		}
	}
}

// BenchmarkCountRangesPacked measures what CountRanges costs besides counting (its counter only
// takes the texts' lengths): reading a packed request for the 48 chunks of a 96 KiB document,
// each a heading literal and a 2 KiB range with 256 bytes of overlap, and building their texts.
//
//	go test -run '^$' -bench CountRangesPacked -count 10 ./internal/pluginserver
func BenchmarkCountRangesPacked(b *testing.B) {
	seen := &marksSeen{}
	s := serving("seen", seen, 4, 1<<30)
	ctx := b.Context()
	doc := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 96<<10/45)
	kept, err := s.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: "seen", Texts: [][]byte{[]byte(doc)}, PackedEnds: true})
	if err != nil {
		b.Fatal(err)
	}
	var packed []byte
	for at := 0; at+2048 <= len(doc); at += 2048 - 256 {
		packed = tokenizerv1.AppendPackedComposite(packed, 2)
		packed = tokenizerv1.AppendPackedLiteral(packed, "Guide › Streams › Readable\n\n")
		packed = tokenizerv1.AppendPackedRange(packed, 0, 0, uint64(at), uint64(at+2048))
	}
	req := &tokenizerv1.CountRangesRequest{Model: "seen", PackedTexts: packed, Handles: []uint64{kept.GetHandle()}}
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := s.CountRanges(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCountRangesPacked sends CountRanges any packed bytes, against two kept requests and a
// handle no longer kept: it never panics, fails only with INVALID_ARGUMENT or
// FAILED_PRECONDITION, and when it counts, it counts exactly the texts a plain reading of the
// pieces makes (referenceTexts), with a range counter's ranges where they are in them.
func FuzzCountRangesPacked(f *testing.F) {
	var seed []byte
	seed = tokenizerv1.AppendPackedComposite(seed, 3)
	seed = tokenizerv1.AppendPackedLiteral(seed, "a › ")
	seed = tokenizerv1.AppendPackedRange(seed, 0, 0, 4, 7)
	seed = tokenizerv1.AppendPackedRange(seed, 1, 0, 0, 5)
	seed = tokenizerv1.AppendPackedComposite(seed, 0)
	seed = tokenizerv1.AppendPackedComposite(seed, 1)
	seed = tokenizerv1.AppendPackedRange(seed, 0, 1, 2, 9)
	f.Add(seed)
	f.Add(tokenizerv1.AppendPackedRange([]byte{1}, 2, 0, 0, 1))
	f.Add([]byte{1, 8})
	f.Fuzz(func(t *testing.T, packed []byte) {
		seen := &marksSeen{}
		s := serving("seen", seen, 2, 0)
		ctx := t.Context()
		var handles []uint64
		kept := [][]string{{"gone"}, {"one two three", "four five"}, {"eight"}}
		for _, texts := range kept {
			resp, err := s.RetainBoundaries(ctx, &tokenizerv1.RetainRequest{Model: "seen", Texts: convert.Bytes(texts), PackedEnds: true})
			if err != nil {
				t.Fatal(err)
			}
			handles = append(handles, resp.GetHandle())
		}
		handles = append(handles[1:], handles[0]) // the third, index 2, is no longer kept
		kept = append(kept[1:], nil)
		var marks []any
		for _, h := range handles[:2] {
			_, mark, err := s.kept.get(h, "seen")
			if err != nil {
				t.Fatal(err)
			}
			marks = append(marks, mark)
		}
		got, err := s.CountRanges(ctx, &tokenizerv1.CountRangesRequest{Model: "seen", PackedTexts: packed, Handles: handles})
		want, wantErr := referenceTexts(packed, kept)
		if err != nil {
			if code := status.Code(err); code != codes.InvalidArgument && code != codes.FailedPrecondition {
				t.Fatalf("err = %v, want INVALID_ARGUMENT or FAILED_PRECONDITION", err)
			}
			if wantErr == nil {
				t.Fatalf("err = %v for texts %q", err, want)
			}
			return
		}
		if wantErr != nil {
			t.Fatalf("counted %v where a plain reading fails: %v", got.GetCounts(), wantErr)
		}
		if diff := cmp.Diff(want, seen.texts, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("texts counted (-reference +got):\n%s", diff)
		}
		for i, m := range seen.marked {
			for _, r := range m.Ranges {
				of := slices.Index(marks, r.Mark)
				if of < 0 || m.Text[r.At:r.At+r.Len] != kept[of][r.Of][r.Start:r.Start+r.Len] {
					t.Fatalf("text %d: range %+v is not where its text is", i, r)
				}
			}
		}
	})
}

// referenceTexts builds the texts of packed by concatenating its pieces, the ranges of kept
// (by handle index; a nil entry is a handle no longer kept), checking each as CountRanges must.
func referenceTexts(packed []byte, kept [][]string) ([]string, error) {
	var (
		out []string
		cur strings.Builder
	)
	_, err := tokenizerv1.RangePackedTexts(packed,
		func(i, j int, p tokenizerv1.PackedPiece) error {
			if p.IsLiteral {
				cur.Write(p.Literal)
				return nil
			}
			if p.Handle >= uint64(len(kept)) || kept[p.Handle] == nil || uint64(p.Text) >= uint64(len(kept[p.Handle])) {
				return fmt.Errorf("piece %d of %d: no such text", j, i)
			}
			text := kept[p.Handle][p.Text]
			if p.Start > p.End || p.End > uint64(len(text)) {
				return fmt.Errorf("piece %d of %d: range out of its text", j, i)
			}
			cur.WriteString(text[p.Start:p.End])
			return nil
		},
		func(int) error {
			out = append(out, cur.String())
			cur.Reset()
			return nil
		})
	return out, err
}
