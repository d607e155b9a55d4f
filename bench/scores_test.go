package bench

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func ref(start, end int) Reference { return Reference{Span: Span{start, end}} }

func in(corpus string, start, end int) Passage {
	return Passage{Corpus: corpus, Span: Span{start, end}}
}

var approx = cmpopts.EquateApprox(0, 1e-12)

func TestScore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		refs      []Reference
		retrieved []Passage
		want      Scores
	}{
		{
			name:      "a chunk equal to the reference scores one everywhere",
			refs:      []Reference{ref(10, 20)},
			retrieved: []Passage{in("a", 10, 20)},
			want:      Scores{Questions: 1, Recall: 1, Precision: 1, IoU: 1},
		},
		{
			name:      "overlapping chunks count twice in precision but once in the numerator",
			refs:      []Reference{ref(10, 20)},
			retrieved: []Passage{in("a", 0, 20), in("a", 10, 30)},
			want:      Scores{Questions: 1, Recall: 1, Precision: 10.0 / 40, IoU: 10.0 / 40},
		},
		{
			name:      "a reference spanning two chunks is covered by both",
			refs:      []Reference{ref(15, 25)},
			retrieved: []Passage{in("a", 0, 20), in("a", 20, 40)},
			want:      Scores{Questions: 1, Recall: 1, Precision: 10.0 / 40, IoU: 10.0 / 40},
		},
		{
			name:      "a reference spanning two chunks of which one is retrieved is half recalled",
			refs:      []Reference{ref(15, 25)},
			retrieved: []Passage{in("a", 0, 20)},
			want:      Scores{Questions: 1, Recall: 0.5, Precision: 5.0 / 20, IoU: 5.0 / (20 + 5)},
		},
		{
			name:      "a chunk of another corpus at the same offsets covers nothing",
			refs:      []Reference{ref(0, 10)},
			retrieved: []Passage{in("b", 0, 10)},
			want:      Scores{Questions: 1, Recall: 0, Precision: 0, IoU: 0},
		},
		{
			name:      "a chunk of another corpus still counts in the denominators",
			refs:      []Reference{ref(0, 10)},
			retrieved: []Passage{in("a", 0, 10), in("b", 0, 10)},
			want:      Scores{Questions: 1, Recall: 1, Precision: 0.5, IoU: 0.5},
		},
		{
			name:      "a missed reference lowers recall and counts in the IoU denominator",
			refs:      []Reference{ref(0, 10), ref(50, 60)},
			retrieved: []Passage{in("a", 0, 10)},
			want:      Scores{Questions: 1, Recall: 0.5, Precision: 1, IoU: 10.0 / 20},
		},
		{
			name:      "a chunk that only touches the reference adds nothing to the numerator",
			refs:      []Reference{ref(10, 20)},
			retrieved: []Passage{in("a", 0, 10)},
			want:      Scores{Questions: 1, Recall: 0, Precision: 0, IoU: 0},
		},
		{
			name: "nothing retrieved scores zero",
			refs: []Reference{ref(10, 20)},
			want: Scores{Questions: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Score(Question{Corpus: "a", References: tt.refs}, tt.retrieved)
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("Score (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrecisionOmega(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		refs []Reference
		all  []Passage
		want float64
	}{
		{
			name: "the chunks holding the reference are the denominator",
			refs: []Reference{ref(15, 25)},
			all:  []Passage{in("a", 0, 20), in("a", 20, 40), in("a", 40, 60), in("b", 0, 60)},
			want: 10.0 / 40,
		},
		{
			name: "a chunk that only touches a reference counts, as in Chroma's code",
			refs: []Reference{ref(15, 25)},
			all:  []Passage{in("a", 0, 20), in("a", 20, 25), in("a", 25, 30)},
			want: 10.0 / 30,
		},
		{
			name: "overlapping chunks count once in the union",
			refs: []Reference{ref(10, 20)},
			all:  []Passage{in("a", 0, 20), in("a", 10, 30)},
			want: 10.0 / 30,
		},
		{
			name: "a part of the reference no chunk covers joins the denominator",
			refs: []Reference{ref(15, 25)},
			all:  []Passage{in("a", 0, 20)},
			want: 5.0 / 25,
		},
		{
			name: "no chunk of the corpus gives zero",
			refs: []Reference{ref(15, 25)},
			all:  []Passage{in("b", 0, 100)},
			want: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := PrecisionOmega(Question{Corpus: "a", References: tt.refs}, tt.all)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("PrecisionOmega = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMeanWeighsByQuestions(t *testing.T) {
	t.Parallel()
	got := Mean([]Scores{
		{Questions: 1, Recall: 1, Precision: 0.5, IoU: 0.5, PrecisionOmega: 1},
		{Questions: 3, Recall: 0, Precision: 0.1, IoU: 0.1, PrecisionOmega: 0.2},
	})
	want := Scores{Questions: 4, Recall: 0.25, Precision: 0.2, IoU: 0.2, PrecisionOmega: 0.4}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("Mean (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Scores{}, Mean(nil)); diff != "" {
		t.Errorf("Mean(nil) (-want +got):\n%s", diff)
	}
}

func TestSpanArithmetic(t *testing.T) {
	t.Parallel()
	t.Run("union merges overlapping and touching spans", func(t *testing.T) {
		got := union([]Span{{20, 30}, {0, 10}, {10, 12}, {25, 40}, {50, 60}})
		want := []Span{{0, 12}, {20, 40}, {50, 60}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("union (-want +got):\n%s", diff)
		}
	})
	t.Run("difference splits a span around the target", func(t *testing.T) {
		got := difference([]Span{{0, 100}, {200, 210}}, Span{40, 60})
		want := []Span{{0, 40}, {60, 100}, {200, 210}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("difference (-want +got):\n%s", diff)
		}
	})
	t.Run("difference removes a span inside the target", func(t *testing.T) {
		if got := difference([]Span{{45, 55}}, Span{40, 60}); len(got) != 0 {
			t.Errorf("difference = %v, want nothing", got)
		}
	})
	t.Run("total counts overlapping spans twice", func(t *testing.T) {
		if got := total([]Span{{0, 10}, {5, 15}}); got != 20 {
			t.Errorf("total = %d, want 20", got)
		}
	})
}
