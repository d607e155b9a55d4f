package bench_test

import (
	"context"
	"fmt"
	"io"
	"log"

	"github.com/chunkkit/chunkkit/bench"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// ExampleRun benchmarks a strategy of one's own beside the built-in heading chunker on the
// shipped corpus, with the in-process word counter, and prints what was measured.
func ExampleRun() {
	strategies := bench.DefaultStrategies()
	strategies["fixed-no-overlap"] = func(c sdk.TokenCounter, maxTokens, _ int) (sdk.Chunker, error) {
		return &chunkers.FixedTokens{Config: chunkers.Config{Counter: c, MaxTokens: maxTokens, OverlapTokens: chunkers.NoOverlap}}, nil
	}
	cfg := bench.Config{
		Corpus:     "corpus", // bench/corpus: documents and an evaluation set
		Chunkers:   strategies,
		Strategies: []string{"heading", "fixed-no-overlap"},
		Tokenizers: []string{"words"},
		Budgets:    []int{256},
		Overlaps:   []float64{0},
		Count:      1,
		BenchTime:  -1, // one pass per measurement
	}
	rep, err := bench.Run(context.Background(), cfg, io.Discard, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Documents, "documents,", rep.Questions, "questions")
	for _, c := range rep.Cells {
		fmt.Println(c.Name(), "violations:", c.Quality.Violations)
	}
	// Output:
	// 13 documents, 42 questions
	// Chunk/strategy=heading/tokenizer=words/via=inproc/max=256/overlap=0 violations: 0
	// Chunk/strategy=fixed-no-overlap/tokenizer=words/via=inproc/max=256/overlap=0 violations: 0
}
