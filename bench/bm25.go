package bench

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// BM25 parameters: Lucene's and Elasticsearch's defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// BM25 is an Okapi BM25 index over a fixed list of texts, built by NewBM25. Terms are
// maximal runs of letters and digits, lower-cased; there is no stemming and no stop list.
// The inverse document frequency is Lucene's, ln(1 + (N - df + 0.5) / (df + 0.5)), which is
// never negative; k1 is 1.2 and b 0.75. A BM25 is read-only after NewBM25 and safe for
// concurrent use.
type BM25 struct {
	postings map[string][]posting // term → documents holding it, in document order
	lengths  []int                // document length in terms
	avgLen   float64
}

type posting struct {
	doc, freq int
}

// NewBM25 indexes texts; a text's index in texts is its document number in Search results.
func NewBM25(texts []string) *BM25 {
	ix := &BM25{postings: make(map[string][]posting), lengths: make([]int, len(texts))}
	sum := 0
	freq := make(map[string]int)
	for d, t := range texts {
		clear(freq)
		terms := Terms(t)
		for _, term := range terms {
			freq[term]++
		}
		for term, f := range freq {
			ix.postings[term] = append(ix.postings[term], posting{d, f})
		}
		ix.lengths[d] = len(terms)
		sum += len(terms)
	}
	if len(texts) > 0 {
		ix.avgLen = float64(sum) / float64(len(texts))
	}
	return ix
}

// Terms returns the terms of text as BM25 indexes them: maximal runs of letters and digits,
// lower-cased.
func Terms(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Hit is a document found by Search and its score.
type Hit struct {
	Doc   int
	Score float64
}

// Search returns the k best documents for query, best first; ties go to the lower document
// number. A query term counts once per occurrence in the query. Documents that share no term
// with the query are never returned, so there may be fewer than k hits.
func (ix *BM25) Search(query string, k int) []Hit {
	scores := make(map[int]float64)
	n := float64(len(ix.lengths))
	for _, term := range Terms(query) {
		ps := ix.postings[term]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			f := float64(p.freq)
			norm := 1 - bm25B + bm25B*float64(ix.lengths[p.doc])/ix.avgLen
			scores[p.doc] += idf * f * (bm25K1 + 1) / (f + bm25K1*norm)
		}
	}
	hits := make([]Hit, 0, len(scores))
	for d, s := range scores {
		hits = append(hits, Hit{d, s})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return a.Doc - b.Doc
	})
	return hits[:min(k, len(hits))]
}
