package bench_test

// BenchmarkCorpus chunks the corpus's Node.js API documents (64 Markdown files, ~3.5 MB) the way
// `chunkkit chunk DIR -j N` does — pipeline.Run with N workers sharing one counter — with the
// tiktoken counter in-process and through its plugin, so that the cost of the plugin boundary
// and what the workers win are one benchstat table:
//
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench 'Corpus$' -count 10 ./bench | tee corpus.txt
//	go tool benchstat -col /path corpus.txt
//
// CHUNKKIT_CORPUS_FOLDER names another folder of the corpus to chunk instead (en-rst, multi, or
// . for all of it; docs/bench.md, "Other parts of the corpus").
//
// calls/doc is the counter calls per document (a Boundaries and a Count, or their protocol 1.1
// forms RetainBoundaries and CountRanges, per document and verify round); plugin-calls/doc, the
// calls the host made on the plugin, fewer when documents that queue for their turn share one
// (host/merge.go). cpu-ms/op (Linux) is
// the CPU time the host and its plugin processes used per op, user and system: what the plugin
// boundary costs in work, apart from what the machine's other load does to wall time, and
// plugin-cpu-ms/op the plugin's share of it; host-ctxsw/op and plugin-ctxsw/op are each process's
// context switches (voluntary and not, of every thread), and host-faults/op and
// plugin-faults/op their page faults; idle-ms/op is the machine's idle time, summed over its
// CPUs (/proc/stat): what the processes left of the cores, which the plugin path's sleeps and
// wake-ups make more of (docs/bench.md, "Where the cores go idle").

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func BenchmarkCorpus(b *testing.B) {
	seq, size := corpusInputs(b)
	for _, path := range []string{"inproc", "plugin"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("strategy=heading/path=%s/j=%d/max=512/overlap=64", path, workers), func(b *testing.B) {
				rec, c := corpusChunker(b, path)
				b.SetBytes(int64(size))
				docs, chunks := 0, 0
				var calls0 int64
				if pc, ok := rec.Counter.(interface{ PluginCalls() int64 }); ok {
					calls0 = pc.PluginCalls()
				}
				cpu0, cpuOK := processCPU()
				inFlight, done := corpusCollector()
				defer done()
				for b.Loop() {
					d, n := corpusPass(b, seq, c, workers, inFlight)
					docs += d
					chunks += n
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

// BenchmarkCorpusPaired measures the figure the corpus pipeline holds the plugin path to,
// plugin -j N throughput over in-process -j 1 throughput, in a way the machine's load cancels
// out of: each op is one pass of the corpus in-process at -j 1 and one of the cell (through
// the plugin at -j N), back to back (in turn one first, then the other), so that both passes of
// a pair run on the same machine, and x-inproc-j1 is the sum of the in-process passes' times
// over the sum of the cell's (cell-ms/pass). Separate cells of BenchmarkCorpus run seconds or
// minutes apart on a shared machine, whose speed changes by 10–30% in that time; the ratio of
// two such medians carries both changes. The last cell is in-process at -j 2: its x-inproc-j1
// is what the workers win with no plugin boundary at all, the ceiling of the plugin's figure
// at the same -j.
//
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench CorpusPaired -benchtime 8x -count 10 ./bench | tee paired.txt
//	go tool benchstat -col /path,/j paired.txt
func BenchmarkCorpusPaired(b *testing.B) {
	seq, size := corpusInputs(b)
	for _, cell := range []struct {
		path    string
		workers int
	}{{"plugin", 1}, {"plugin", 2}, {"inproc", 2}} {
		workers := cell.workers
		b.Run(fmt.Sprintf("strategy=heading/path=%s/j=%d/max=512/overlap=64", cell.path, workers), func(b *testing.B) {
			_, inproc := corpusChunker(b, "inproc")
			_, cellChunker := corpusChunker(b, cell.path)
			b.SetBytes(2 * int64(size))
			inFlight, done := corpusCollector()
			defer done()
			var inprocTime, cellTime time.Duration
			pass := func(c sdk.Chunker, j int, total *time.Duration) int {
				start := time.Now()
				_, chunks := corpusPass(b, seq, c, j, inFlight)
				*total += time.Since(start)
				return chunks
			}
			i := 0
			for b.Loop() {
				var in, out int
				if i%2 == 0 {
					in = pass(inproc, 1, &inprocTime)
					out = pass(cellChunker, workers, &cellTime)
				} else {
					out = pass(cellChunker, workers, &cellTime)
					in = pass(inproc, 1, &inprocTime)
				}
				if in != out {
					b.Fatalf("a pass gave %d chunks in-process at -j 1 and %d %s at -j %d", in, out, cell.path, workers)
				}
				i++
			}
			perPass := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
			b.ReportMetric(perPass(inprocTime), "inproc-j1-ms/pass")
			b.ReportMetric(perPass(cellTime), "cell-ms/pass")
			b.ReportMetric(float64(inprocTime)/float64(cellTime), "x-inproc-j1")
		})
	}
}

// corpusFolderEnv names the folder of the corpus that BenchmarkCorpus and BenchmarkCorpusPaired
// chunk, relative to it ("." for all of it); the default is the Node.js API documents.
const corpusFolderEnv = "CHUNKKIT_CORPUS_FOLDER"

// corpusInputs reads the documents of the corpus's folder (corpusFolderEnv; the Node.js API
// documents by default) into memory and returns them as pipeline.Run's input, with their bytes.
func corpusInputs(b *testing.B) (iter.Seq2[pipeline.Input, error], int) {
	b.Helper()
	root := os.Getenv(corpusEnv)
	if root == "" {
		b.Skipf("set %s to a corpus built by ../shared/tools/build-corpus.sh", corpusEnv)
	}
	folder := filepath.Join("en-md", "nodejs-api")
	if f := os.Getenv(corpusFolderEnv); f != "" {
		folder = f
	}
	dir := filepath.Join(root, folder) // a missing one is Walk's first error
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
	return seq, size
}

// corpusChunker returns HeadingAware 512/64 with the cl100k_base counter in-process or through
// the plugin ("inproc", "plugin"), recorded, with the plugin started.
func corpusChunker(b *testing.B, path string) (*sdk.Recorder, sdk.Chunker) {
	b.Helper()
	rec := &sdk.Recorder{Counter: counterFor(b, path, "cl100k_base", tiktoken.Backtrack)}
	c, err := chunkers.New(chunkers.StrategyHeading, chunkers.Options{Config: chunkers.Config{Counter: rec, MaxTokens: 512, OverlapTokens: 64}})
	if err != nil {
		b.Fatal(err)
	}
	// Start the plugin before the first CPU reading, so both see the same processes.
	if _, err := rec.Counter.Count(context.Background(), []string{"warm up"}); err != nil {
		b.Fatal(err)
	}
	return rec, c
}

// corpusCollector returns pipeline.Options.InFlight and its end, as chunkkit chunk runs: its
// collector sizes Go's to the work (unless GOGC is set, and then both are no-ops).
func corpusCollector() (inFlight func(bytes, largest int), done func()) {
	gc := pipeline.NewCollector()
	if gc == nil {
		return nil, func() {}
	}
	return gc.InFlight, gc.Done
}

// corpusPass chunks the corpus once with workers workers and returns its documents and chunks.
func corpusPass(b *testing.B, seq iter.Seq2[pipeline.Input, error], c sdk.Chunker, workers int, inFlight func(bytes, largest int)) (docs, chunks int) {
	for r := range pipeline.Run(context.Background(), seq, pipeline.Options{Chunker: c, Workers: workers, InFlight: inFlight}) {
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		docs++
		chunks += len(r.Chunks)
	}
	return docs, chunks
}
