package bench

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func chunkWith(t *testing.T, doc *sdk.Document, maxTokens int) []sdk.Chunk {
	t.Helper()
	c := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: maxTokens, OverlapTokens: chunkers.NoOverlap}}
	chunks, err := c.Chunk(context.Background(), sdk.Request{}, doc)
	if err != nil {
		t.Fatal(err)
	}
	return chunks
}

// body returns a body chunk over canonical[start:end].
func body(canon string, start, end int) sdk.Chunk {
	return sdk.Chunk{Kind: sdk.ChunkBody, Start: start, End: end, Content: canon[start:end]}
}

func TestMeasureQuality(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		{Kind: sdk.KindHeading, Level: 1, Text: "Intro"},             // [0, 5)
		{Kind: sdk.KindParagraph, Text: "One two three. Four five."}, // [7, 32)
		{Kind: sdk.KindHeading, Level: 2, Text: "Next"},              // [34, 38)
		{Kind: sdk.KindParagraph, Text: "Six seven eight nine ten."}, // [40, 65)
	}}
	d := newDocument("d.md", 0, doc)
	canon := d.canon.Text
	tests := []struct {
		name   string
		chunks []sdk.Chunk
		want   Quality
	}{
		{
			name: "chunks at sentence ends within sections cover what they hold",
			chunks: []sdk.Chunk{
				{Kind: sdk.ChunkHeading, Start: 0, End: 5, Content: "Intro"},
				body(canon, 7, 21),  // "One two three." 3 words
				body(canon, 22, 32), // "Four five." 2 words
			},
			want: Quality{Chunks: 3, BodyChunks: 2, Violations: 0, Fill: (3.0/4 + 2.0/4) / 2,
				TokensP50: 2, TokensP95: 3, SentenceEnds: 1, MultiSection: 0,
				Coverage: float64(len("IntroOnetwothree.Fourfive.")) / float64(len("IntroOnetwothree.Fourfive.NextSixseveneightnineten."))},
		},
		{
			name: "a chunk over the budget, across a heading and mid-sentence is counted so",
			chunks: []sdk.Chunk{
				body(canon, 7, 49),  // "One two three. Four five.\n\nNext\n\nSix seven": 8 words
				body(canon, 50, 65), // "eight nine ten.": 3 words
			},
			want: Quality{Chunks: 2, BodyChunks: 2, Violations: 1, Fill: (8.0/4 + 3.0/4) / 2,
				TokensP50: 3, TokensP95: 8, SentenceEnds: 0.5, MultiSection: 0.5,
				Coverage: float64(len("Onetwothree.Fourfive.NextSixseveneightnineten.")) / float64(len("IntroOnetwothree.Fourfive.NextSixseveneightnineten."))},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := measureQuality(context.Background(), sdk.Words{}, 4, []*Document{d}, [][]sdk.Chunk{tt.chunks})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("measureQuality (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMeasureQualityTinyAndMidWord(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		{Kind: sdk.KindParagraph, Text: "One two three. Four five."}, // [0, 25)
		{Kind: sdk.KindParagraph, Text: "Six seven eight nine ten."}, // [27, 52)
		{Kind: sdk.KindParagraph, Text: "日本語の文章です。"},                 // [54, 81)
	}}
	d := newDocument("d.md", 0, doc)
	canon := d.canon.Text
	chunks := []sdk.Chunk{
		body(canon, 2, 14),  // "e two three.": 3 words, under a tenth of 40, starts inside "One"
		body(canon, 27, 52), // the whole paragraph: 5 words, between words
		body(canon, 27, 34), // "Six sev": ends inside "seven"
		body(canon, 54, 63), // "日本語": between CJK words by UAX #29
	}
	got, err := measureQuality(context.Background(), sdk.Words{}, 40, []*Document{d}, [][]sdk.Chunk{chunks})
	if err != nil {
		t.Fatal(err)
	}
	// Words counts "日本語" as one word, so three chunks are under 4 words.
	if got.Tiny != 3.0/4 || got.MidWord != 2.0/4 {
		t.Errorf("tiny %v, mid-word %v; want 0.75 and 0.5", got.Tiny, got.MidWord)
	}
}

func TestNearestRank(t *testing.T) {
	t.Parallel()
	values := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tt := range []struct {
		p    float64
		want int
	}{{0.5, 5}, {0.95, 10}, {0.1, 1}, {0.11, 2}} {
		if got := nearestRank(values, tt.p); got != tt.want {
			t.Errorf("nearestRank(1..10, %v) = %d, want %d", tt.p, got, tt.want)
		}
	}
	if got := nearestRank(nil, 0.5); got != 0 {
		t.Errorf("nearestRank(nil) = %d, want 0", got)
	}
}
