package bench

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// Quality describes the chunks of one cell over the whole corpus. Shares are in [0, 1]; all
// but Coverage are over body chunks, whose tokens are recounted with the cell's counter on
// their final text to embed (EmbedText).
type Quality struct {
	// Chunks is the number of chunks of every kind; BodyChunks of body chunks.
	Chunks     int `json:"chunks"`
	BodyChunks int `json:"body_chunks"`
	// Violations is the number of body chunks with more tokens than the budget.
	Violations int `json:"violations"`
	// Fill is the mean of tokens / budget.
	Fill float64 `json:"fill"`
	// TokensP50 and TokensP95 are the median and 95th percentile of tokens per chunk
	// (nearest rank).
	TokensP50 int `json:"tokens_p50"`
	TokensP95 int `json:"tokens_p95"`
	// SentenceEnds is the share of chunks that end where a sentence of sdk/sentence ends
	// (or a block ends).
	SentenceEnds float64 `json:"sentence_ends"`
	// MultiSection is the share of chunks whose range holds the start of a heading block
	// after its first byte, so that it spans more than one section.
	MultiSection float64 `json:"multi_section"`
	// Coverage is the share of the canonical text's non-space bytes inside some chunk's
	// [Start, End), chunks of every kind.
	Coverage float64 `json:"coverage"`
	// Tiny is the share of body chunks under a tenth of the budget: fragments that crowd
	// out real passages in a retriever's top k.
	Tiny float64 `json:"tiny"`
	// MidWord is the share of body chunks whose range starts or ends strictly inside a word
	// (a UAX #29 word of sdk/wordbreak, as the chunkers keep them), overlap included.
	MidWord float64 `json:"mid_word"`
}

// measureQuality computes the Quality of chunks (chunks[i] belonging to docs[i]) with budget
// maxTokens, recounting body chunks with counter in one Count call per document.
func measureQuality(ctx context.Context, counter sdk.TokenCounter, maxTokens int, docs []*Document, chunks [][]sdk.Chunk) (Quality, error) {
	var q Quality
	var tokens []int
	var fill float64
	var ends, multi, tiny, midWord int
	var covered, nonSpace int
	for i, d := range docs {
		var texts []string
		var body []sdk.Chunk
		for _, c := range chunks[i] {
			q.Chunks++
			if c.Kind == sdk.ChunkBody {
				texts = append(texts, EmbedText(c))
				body = append(body, c)
			}
		}
		counts, err := counter.Count(ctx, texts)
		if err != nil {
			return q, fmt.Errorf("recounting the chunks of %s: %w", d.Doc.ID, err)
		}
		if err := sdk.CheckCounts(texts, counts); err != nil {
			return q, fmt.Errorf("recounting the chunks of %s: %w", d.Doc.ID, err)
		}
		for j, c := range body {
			n := counts[j]
			tokens = append(tokens, n)
			fill += float64(n) / float64(maxTokens)
			if n > maxTokens {
				q.Violations++
			}
			if n*10 < maxTokens {
				tiny++
			}
			if !d.wordBoundary(c.Start) || !d.wordBoundary(c.End) {
				midWord++
			}
			if _, ok := slices.BinarySearch(d.sentenceEnds, c.End); ok {
				ends++
			}
			if c.End > c.Start {
				// A heading block starting in (Start, End) opens a second section.
				k := sort.SearchInts(d.headings, c.Start+1)
				if k < len(d.headings) && d.headings[k] < c.End {
					multi++
				}
			}
		}
		c, n := coverage(d.canon.Text, chunks[i])
		covered += c
		nonSpace += n
	}
	q.BodyChunks = len(tokens)
	if q.BodyChunks > 0 {
		n := float64(q.BodyChunks)
		q.Fill = fill / n
		q.SentenceEnds = float64(ends) / n
		q.MultiSection = float64(multi) / n
		q.Tiny = float64(tiny) / n
		q.MidWord = float64(midWord) / n
		slices.Sort(tokens)
		q.TokensP50 = nearestRank(tokens, 0.50)
		q.TokensP95 = nearestRank(tokens, 0.95)
	}
	q.Coverage = 1
	if nonSpace > 0 {
		q.Coverage = float64(covered) / float64(nonSpace)
	}
	return q, nil
}

// wordBoundary reports whether canonical offset off is outside every word of the document
// (sdk/wordbreak, the words the chunkers keep whole), so that a cut there breaks none.
func (d *Document) wordBoundary(off int) bool {
	i := sort.Search(len(d.words), func(i int) bool { return d.words[i].End > off })
	return i == len(d.words) || d.words[i].Start >= off
}

// nearestRank returns the p-quantile of sorted values by the nearest-rank method.
func nearestRank(sorted []int, p float64) int {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// coverage returns how many non-space bytes of text lie inside some chunk's [Start, End), and
// how many non-space bytes text has. A multi-byte rune counts its bytes.
func coverage(text string, chunks []sdk.Chunk) (covered, nonSpace int) {
	spans := make([]Span, 0, len(chunks))
	for _, c := range chunks {
		if c.Start < c.End {
			spans = append(spans, Span{max(c.Start, 0), min(c.End, len(text))})
		}
	}
	merged := union(spans)
	k := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			nonSpace += size
			for k < len(merged) && merged[k].End <= i {
				k++
			}
			if k < len(merged) && merged[k].Start <= i {
				covered += size
			}
		}
		i += size
	}
	return covered, nonSpace
}
