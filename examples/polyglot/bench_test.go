package polyglot

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Benchmarks of the example plugins beside the Go tiktoken plugin, all through the host (unix
// socket, AutoMTLS). examples/bench.sh runs them with -count 10 beside node-gpt's tokenizer
// called in-process (examples/node-gpt/bench.mjs) and compares them with benchstat.

// BenchmarkRoundTrip times one Count call of one short text, the cost of crossing the process
// boundary: each sample reports the median and 99th percentile of its calls.
func BenchmarkRoundTrip(b *testing.B) {
	h, _ := newHost(b)
	text := []string{"The quick brown fox."}
	for _, spec := range []string{"plugin:node-gpt:cl100k_base", "plugin:py-sentencepiece", "tiktoken:cl100k_base"} {
		name, _, _ := strings.Cut(strings.TrimPrefix(spec, "plugin:"), ":")
		b.Run("plugin="+name, func(b *testing.B) {
			tc, err := h.TokenCounter(b.Context(), spec)
			if err != nil {
				b.Fatal(err)
			}
			for range 200 { // warm up: connection, model, JIT
				if _, err := tc.Count(b.Context(), text); err != nil {
					b.Fatal(err)
				}
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				if _, err := tc.Count(b.Context(), text); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// BenchmarkCount counts ~4 MB of real English in one call (the host splits it into 3 MiB
// requests), through node-gpt and through the Go tiktoken plugin, as bench's BenchmarkCount
// does: the English files of $CHUNKKIT_CORPUS (../shared/tools/build-corpus.sh) in manifest
// order until 4,000,000 bytes. Without $CHUNKKIT_CORPUS it skips.
func BenchmarkCount(b *testing.B) {
	texts, size := englishCorpus(b)
	h, _ := newHost(b)
	for _, backend := range []struct{ name, spec string }{
		{"node-gpt-plugin", "plugin:node-gpt:cl100k_base"},
		{"tiktoken-plugin", "tiktoken:cl100k_base"},
	} {
		b.Run("backend="+backend.name+"/enc=cl100k_base", func(b *testing.B) {
			tc, err := h.TokenCounter(b.Context(), backend.spec)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tc.Count(b.Context(), texts); err != nil { // warm up
				b.Fatal(err)
			}
			b.SetBytes(int64(size))
			tokens := 0
			for b.Loop() {
				counts, err := tc.Count(b.Context(), texts)
				if err != nil {
					b.Fatal(err)
				}
				tokens = sum(counts)
			}
			b.ReportMetric(float64(tokens), "tokens/op")
		})
	}
}

// englishCorpus returns the English files of $CHUNKKIT_CORPUS in manifest order until
// 4,000,000 bytes, and their size; the selection examples/node-gpt/bench.mjs makes.
func englishCorpus(b *testing.B) ([]string, int) {
	b.Helper()
	dir := os.Getenv("CHUNKKIT_CORPUS")
	if dir == "" {
		b.Skip("CHUNKKIT_CORPUS is not set: build a corpus with ../shared/tools/build-corpus.sh DIR and set CHUNKKIT_CORPUS=DIR (examples/bench.sh does)")
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	size := 0
	for _, line := range strings.Split(strings.TrimSpace(string(manifest)), "\n")[1:] {
		rel, _, _ := strings.Cut(line, "\t")
		if !strings.HasPrefix(rel, "en-") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, string(data))
		if size += len(data); size >= 4_000_000 {
			break
		}
	}
	return texts, size
}
