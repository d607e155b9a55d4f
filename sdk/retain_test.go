package sdk_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestBuild(t *testing.T) {
	t.Parallel()
	texts := []string{"hello world", "göodbye"}
	got, err := sdk.Build(texts, [][]sdk.Piece{
		{{Text: 0, Start: 0, End: 5}},
		{sdk.LiteralPiece("ctx › "), {Text: 0, Start: 6, End: 11}, sdk.LiteralPiece("\n\n"), {Text: 1, Start: 0, End: 3}},
		{},
		{sdk.LiteralPiece("")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"hello", "ctx › world\n\ngö", "", ""}, got); diff != "" {
		t.Errorf("Build (-want +got):\n%s", diff)
	}
	for _, bad := range [][]sdk.Piece{
		{{Text: 2, Start: 0, End: 1}},
		{{Text: 0, Start: 3, End: 2}},
		{{Text: 1, Start: 0, End: 99}},
		{{Text: 0, Start: -1, End: 2}},
	} {
		if _, err := sdk.Build(texts, [][]sdk.Piece{bad}); !errors.Is(err, sdk.ErrInvalidInput) {
			t.Errorf("Build(%+v) = %v, want an input error", bad, err)
		}
		// CheckPieces refuses what Build refuses, naming the item and the piece.
		items := [][]sdk.Piece{{sdk.LiteralPiece("fine")}, append([]sdk.Piece{sdk.LiteralPiece("ctx")}, bad...)}
		if err := sdk.CheckPieces(texts, items); !errors.Is(err, sdk.ErrInvalidInput) || !strings.Contains(err.Error(), "item 1 piece 1") {
			t.Errorf("CheckPieces(%+v) = %v, want an input error naming item 1 piece 1", bad, err)
		}
	}
	if err := sdk.CheckPieces(texts, [][]sdk.Piece{{{Text: 1, Start: 0, End: len(texts[1])}}, {}}); err != nil {
		t.Errorf("CheckPieces of good pieces: %v", err)
	}
}

func TestRetainBoundariesFallsBackToBoundariesAndCount(t *testing.T) {
	t.Parallel()
	rec := &sdk.Recorder{Counter: sdk.Words{}}
	texts := []string{"one two three", "four five"}
	bounds, ret, err := sdk.RetainBoundaries(context.Background(), rec, texts)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := sdk.Words{}.Boundaries(context.Background(), texts)
	if diff := cmp.Diff(want, bounds); diff != "" {
		t.Errorf("boundaries (-want +got):\n%s", diff)
	}
	counts, err := ret.CountPieces(context.Background(), [][]sdk.Piece{
		{{Text: 0, Start: 4, End: 13}, sdk.LiteralPiece(" and "), {Text: 1, Start: 0, End: 9}},
		{sdk.LiteralPiece("six")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{5, 1}, counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	st := rec.Stats()
	if st.BoundariesCalls != 1 || st.CountCalls != 1 || st.Texts != 4 || st.LongestText != len("two three and four five") {
		t.Errorf("recorder stats %+v", st)
	}
}
