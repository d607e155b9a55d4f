package tiktoken_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// timedCounter forwards to a TokenCounter and adds up the time and bytes of each method.
type timedCounter struct {
	sdk.TokenCounter
	mu                     sync.Mutex
	countTime, boundsTime  time.Duration
	countBytes, boundBytes int
}

func (c *timedCounter) Count(ctx context.Context, texts []string) ([]int, error) {
	start := time.Now()
	out, err := c.TokenCounter.Count(ctx, texts)
	c.mu.Lock()
	c.countTime += time.Since(start)
	c.countBytes += totalBytes(texts)
	c.mu.Unlock()
	return out, err
}

func (c *timedCounter) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	start := time.Now()
	out, err := c.TokenCounter.Boundaries(ctx, texts)
	c.mu.Lock()
	c.boundsTime += time.Since(start)
	c.boundBytes += totalBytes(texts)
	c.mu.Unlock()
	return out, err
}

// englishMarkdown returns the corpus's English Markdown documents, parsed, up to about
// corpusBytes of source, with their canonical texts and the source bytes; it skips the
// benchmark without CHUNKKIT_CORPUS.
func englishMarkdown(b *testing.B) (docs []*sdk.Document, canon []string, total int) {
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		b.Skipf("%s is not set", corpusEnv)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		rel, _, _ := strings.Cut(line, "\t")
		if i == 0 || !strings.HasPrefix(rel, "en-md/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			b.Fatal(err)
		}
		doc, err := markdown.Parse(src, markdown.Options{ID: rel})
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, doc)
		canon = append(canon, doc.Canonical().Text)
		if total += len(src); total >= corpusBytes {
			break
		}
	}
	return docs, canon, total
}

// BenchmarkRetainedCounts measures what counting a chunk from the checkpoints of the blocks it
// was cut from saves a chunker in-process (marks.go): HeadingAware at 512/64 on the corpus's
// English Markdown (~4 MB) with the Counter, whose RetainBoundaries keeps checkpoints, and with
// the same Counter behind plainCounter, whose chunks are built and counted with Count. Compare
// the two with benchstat -col /counts.
func BenchmarkRetainedCounts(b *testing.B) {
	docs, _, total := englishMarkdown(b)
	c := counter(b, "cl100k_base", tiktoken.Backtrack)
	for _, tt := range []struct {
		name string
		tc   sdk.TokenCounter
	}{{"built", plainCounter{c}}, {"checkpoints", c}} {
		b.Run("counts="+tt.name, func(b *testing.B) {
			ch := &chunkers.HeadingAware{Config: chunkers.Config{Counter: tt.tc, MaxTokens: 512, OverlapTokens: 64}}
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, doc := range docs {
					if _, err := ch.Chunk(context.Background(), sdk.Request{}, doc); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkSubstringCounts measures what counting chunk texts as ranges of text already
// encoded could save (issue 14, point 2): it chunks the corpus's English Markdown (up to ~4
// MB) with HeadingAware at 512/64 on the backtrack backend, in-process, counting each chunk's
// text anew (timedCounter hides the Counter's RetainBoundaries), and reports the share of the
// time spent in the chunker's Count calls (the final count of each chunk's EmbedText) and in
// its Boundaries calls, and the time of one more encoding pass over every document's canonical
// text (count-pass-ms). BenchmarkRetainedCounts measures what the checkpoints save of it.
func BenchmarkSubstringCounts(b *testing.B) {
	docs, canon, total := englishMarkdown(b)
	base := counter(b, "cl100k_base", tiktoken.Backtrack)
	tc := &timedCounter{TokenCounter: base}
	ch := &chunkers.HeadingAware{Config: chunkers.Config{Counter: tc, MaxTokens: 512, OverlapTokens: 64}}
	var pass time.Duration
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, doc := range docs {
			if _, err := ch.Chunk(context.Background(), sdk.Request{}, doc); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		start := time.Now()
		if _, err := base.Count(context.Background(), canon); err != nil {
			b.Fatal(err)
		}
		pass += time.Since(start)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(tc.countTime.Microseconds())/n/1000, "count-ms")
	b.ReportMetric(float64(tc.boundsTime.Microseconds())/n/1000, "boundaries-ms")
	b.ReportMetric(float64(pass.Microseconds())/n/1000, "count-pass-ms")
	b.ReportMetric(float64(tc.countBytes)/n/float64(totalBytes(canon)), "count-bytes/doc-byte")
}
