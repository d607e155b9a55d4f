package bench

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var animals = []string{
	"The cat sat on the mat.",   // 0: 6 terms
	"The dog barked at the cat", // 1: 6 terms
	"Birds fly south in winter", // 2: 5 terms
	"cat, Cat, CAT!",            // 3: 3 terms
}

func TestBM25Search(t *testing.T) {
	t.Parallel()
	ix := NewBM25(animals)
	docs := func(hits []Hit) []int {
		var d []int
		for _, h := range hits {
			d = append(d, h.Doc)
		}
		return d
	}
	tests := []struct {
		name  string
		query string
		k     int
		want  []int
	}{
		{"more occurrences in a shorter text rank first; ties go to the lower number", "cat", 5, []int{3, 0, 1}},
		{"k cuts the list", "cat", 2, []int{3, 0}},
		{"a shorter text wins among equal term frequencies", "dog winter", 5, []int{2, 1}},
		{"a rare term outweighs a common one", "cat dog", 5, []int{1, 3, 0}},
		{"case and punctuation do not matter", "WINTER?!", 5, []int{2}},
		{"a query sharing no term finds nothing", "zebra", 5, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, docs(ix.Search(tt.query, tt.k))); diff != "" {
				t.Errorf("Search(%q) (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

func TestBM25ScoreIsOkapiWithLuceneIDF(t *testing.T) {
	t.Parallel()
	hits := NewBM25(animals).Search("cat", 1)
	// N = 4, df(cat) = 3, average length 5; document 3 has 3 terms, all "cat".
	idf := math.Log(1 + (4-3+0.5)/(3+0.5))
	norm := 1 - 0.75 + 0.75*3.0/5.0
	want := idf * 3 * (1.2 + 1) / (3 + 1.2*norm)
	if len(hits) != 1 || hits[0].Doc != 3 || math.Abs(hits[0].Score-want) > 1e-12 {
		t.Errorf("Search(cat, 1) = %+v, want document 3 with score %v", hits, want)
	}
}

func TestTerms(t *testing.T) {
	t.Parallel()
	got := Terms("Hello, World! x2-y3 Ünïcode — 東京")
	want := []string{"hello", "world", "x2", "y3", "ünïcode", "東京"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Terms (-want +got):\n%s", diff)
	}
}

func TestBM25OfNothingFindsNothing(t *testing.T) {
	t.Parallel()
	if hits := NewBM25(nil).Search("cat", 5); len(hits) != 0 {
		t.Errorf("Search over no texts = %v, want none", hits)
	}
}
