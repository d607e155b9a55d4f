package bench_test

// BenchmarkCorpus chunks the corpus's Node.js API documents (64 Markdown files, ~3.5 MB) the way
// `chunkkit chunk DIR -j N` does — pipeline.Run with N workers sharing one counter — with the
// tiktoken counter in-process and through its plugin, so that the cost of the plugin boundary
// and what the workers win are one benchstat table:
//
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench Corpus -count 10 ./bench | tee corpus.txt
//	go tool benchstat -col /path corpus.txt
//
// calls/doc is the counter calls per document (a Boundaries and a Count, or their protocol 1.1
// forms RetainBoundaries and CountRanges, per document and verify round); plugin-calls/doc, the
// calls the host made on the plugin, fewer when documents that queue for their turn share one
// (host/merge.go). cpu-ms/op (Linux) is
// the CPU time the host and its plugin processes used per op, user and system: what the plugin
// boundary costs in work, apart from what the machine's other load does to wall time, and
// plugin-cpu-ms/op the plugin's share of it.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func BenchmarkCorpus(b *testing.B) {
	root := os.Getenv(corpusEnv)
	if root == "" {
		b.Skipf("set %s to a corpus built by ../shared/tools/build-corpus.sh", corpusEnv)
	}
	dir := filepath.Join(root, "en-md", "nodejs-api")
	var inputs []pipeline.Input
	size := 0
	for in, err := range pipeline.Walk([]string{dir}, pipeline.WalkOptions{}) {
		if err != nil {
			b.Fatal(err)
		}
		data, err := os.ReadFile(in.Path)
		if err != nil {
			b.Fatal(err)
		}
		in.Data = data
		size += len(data)
		inputs = append(inputs, in)
	}
	seq := func(yield func(pipeline.Input, error) bool) {
		for _, in := range inputs {
			if !yield(in, nil) {
				return
			}
		}
	}
	for _, path := range []string{"inproc", "plugin"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("strategy=heading/path=%s/j=%d/max=512/overlap=64", path, workers), func(b *testing.B) {
				rec := &sdk.Recorder{Counter: counterFor(b, path, "cl100k_base", tiktoken.Backtrack)}
				c, err := chunkers.New(chunkers.StrategyHeading, chunkers.Options{Config: chunkers.Config{Counter: rec, MaxTokens: 512, OverlapTokens: 64}})
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(size))
				docs, chunks := 0, 0
				// Start the plugin before the first CPU reading, so both see the same processes.
				if _, err := rec.Counter.Count(context.Background(), []string{"warm up"}); err != nil {
					b.Fatal(err)
				}
				var calls0 int64
				if pc, ok := rec.Counter.(interface{ PluginCalls() int64 }); ok {
					calls0 = pc.PluginCalls()
				}
				cpu0, cpuOK := processCPU()
				// As chunkkit chunk runs: its collector sizes Go's to the work (unless GOGC is set).
				var inFlight func(bytes, largest int)
				if gc := pipeline.NewCollector(); gc != nil {
					inFlight = gc.InFlight
					defer gc.Done()
				}
				for b.Loop() {
					for r := range pipeline.Run(context.Background(), seq, pipeline.Options{Chunker: c, Workers: workers, InFlight: inFlight}) {
						if r.Err != nil {
							b.Fatal(r.Err)
						}
						docs++
						chunks += len(r.Chunks)
					}
				}
				b.ReportMetric(float64(chunks)/float64(b.N), "chunks/op")
				b.ReportMetric(float64(rec.Stats().Calls())/float64(docs), "calls/doc")
				if pc, ok := rec.Counter.(interface{ PluginCalls() int64 }); ok {
					b.ReportMetric(float64(pc.PluginCalls()-calls0)/float64(docs), "plugin-calls/doc")
				}
				reportCPU(b, cpu0, cpuOK)
			})
		}
	}
}
