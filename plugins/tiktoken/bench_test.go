package tiktoken_test

// Benchmarks. Counting speed on real English text needs the corpus built by
// ../shared/tools/build-corpus.sh (build it outside the repository):
//
//	../shared/tools/build-corpus.sh /tmp/corpus
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench 'Count$' -count 6 ./plugins/tiktoken | tee go.txt
//	node tools/tiktoken-golden/bench.mjs /tmp/corpus | tee npm.txt   # OpenAI's tiktoken, same text
//	cat go.txt npm.txt > all.txt && go tool benchstat -col /backend all.txt
//
// (benchstat is golang.org/x/perf/cmd/benchstat, pinned in go.mod as a tool.)
//
// CHUNKKIT_CORPUS is a corpus directory (the English files of its MANIFEST.tsv, in order, up
// to about 4 MB; bench.mjs picks the same ones) or a single text file.
// BenchmarkCountGenerated needs nothing and always runs.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// corpusEnv names the corpus BenchmarkCount reads.
const corpusEnv = "CHUNKKIT_CORPUS"

// corpusBytes is about how much English text BenchmarkCount takes from a corpus directory.
const corpusBytes = 4_000_000

// benchEncodings are the encodings the throughput benchmarks run on.
var benchEncodings = []string{"cl100k_base", "o200k_base"}

func BenchmarkCount(b *testing.B) {
	path := os.Getenv(corpusEnv)
	if path == "" {
		b.Skipf("%s is not set: build a corpus with ../shared/tools/build-corpus.sh /tmp/corpus and set %s=/tmp/corpus", corpusEnv, corpusEnv)
	}
	texts, err := loadCorpus(path)
	if err != nil {
		b.Fatal(err)
	}
	benchCount(b, texts)
}

func BenchmarkCountGenerated(b *testing.B) {
	benchCount(b, generatedText(1<<20))
}

func BenchmarkBoundariesGenerated(b *testing.B) {
	texts := generatedText(1 << 20)
	for _, backend := range backends {
		for _, enc := range benchEncodings {
			b.Run(fmt.Sprintf("backend=%s/enc=%s", backend, enc), func(b *testing.B) {
				c := counter(b, enc, backend)
				b.SetBytes(int64(totalBytes(texts)))
				for b.Loop() {
					if _, err := c.Boundaries(context.Background(), texts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPathological runs inputs that are slow for BPE, reporting besides wall time
// cpu-s/MB, the counting thread's CPU seconds per 10^6 bytes: one long piece of one letter, at
// doubling lengths so that the growth shows (linear for Backtrack and Fast, superlinear for
// Reference), 1 MB of one CJK character (one piece too), and 1 MB holding 2,000
// "<|endoftext|>".
func BenchmarkPathological(b *testing.B) {
	var endoftext strings.Builder
	filler := strings.Repeat("Plain words between markers. ", 17) // 493 bytes
	for range 2000 {
		endoftext.WriteString("<|endoftext|>")
		endoftext.WriteString(filler)
	}
	inputs := []struct{ name, text string }{
		{"a×10000", strings.Repeat("a", 10000)},
		{"a×20000", strings.Repeat("a", 20000)},
		{"a×40000", strings.Repeat("a", 40000)},
		{"a×80000", strings.Repeat("a", 80000)},
		{"語×349525-1MB", strings.Repeat("語", 1<<20/3)},
		{"endoftext×2000-in-1MB", endoftext.String()},
	}
	for _, backend := range backends {
		for _, in := range inputs {
			b.Run(fmt.Sprintf("backend=%s/input=%s", backend, in.name), func(b *testing.B) {
				c := counter(b, "cl100k_base", backend)
				texts := []string{in.text}
				b.SetBytes(int64(len(in.text)))
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu := threadCPU()
				for b.Loop() {
					if _, err := c.Count(context.Background(), texts); err != nil {
						b.Fatal(err)
					}
				}
				if cpu := threadCPU() - cpu; cpu > 0 {
					b.ReportMetric(cpu.Seconds()/float64(b.N)/(float64(len(in.text))/1e6), "cpu-s/MB")
				}
			})
		}
	}
}

// benchCount counts texts with every backend and encoding. Besides wall time it reports
// cpu-MB/s, the bytes counted per second of the CPU time of the one thread that counts: the
// single-thread speed, which wall time overstates the cost of when other processes share the
// cores; and proc-cpu-MB/s, per second of the whole process's CPU time (the garbage collector's
// included), which tools/tiktoken-golden/bench.mjs reports of Node.js too.
func benchCount(b *testing.B, texts []string) {
	for _, backend := range backends {
		for _, enc := range benchEncodings {
			b.Run(fmt.Sprintf("backend=%s/enc=%s", backend, enc), func(b *testing.B) {
				c := counter(b, enc, backend)
				b.SetBytes(int64(totalBytes(texts)))
				var tokens int
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu, proc := threadCPU(), processCPU()
				for b.Loop() {
					counts, err := c.Count(context.Background(), texts)
					if err != nil {
						b.Fatal(err)
					}
					tokens = 0
					for _, n := range counts {
						tokens += n
					}
				}
				if cpu := threadCPU() - cpu; cpu > 0 {
					b.ReportMetric(float64(totalBytes(texts))*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
				}
				if proc := processCPU() - proc; proc > 0 {
					b.ReportMetric(float64(totalBytes(texts))*float64(b.N)/1e6/proc.Seconds(), "proc-cpu-MB/s")
				}
				b.ReportMetric(float64(tokens), "tokens/op")
			})
		}
	}
}

// loadCorpus reads path: a text file, or a corpus directory whose English files (MANIFEST.tsv
// paths starting "en-") it takes in manifest order until it has corpusBytes.
func loadCorpus(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", corpusEnv, err)
	}
	if !info.IsDir() {
		b, err := os.ReadFile(path)
		return []string{string(b)}, err
	}
	manifest, err := os.ReadFile(filepath.Join(path, "MANIFEST.tsv"))
	if err != nil {
		return nil, fmt.Errorf("%s is a directory but not a corpus: %w", corpusEnv, err)
	}
	var texts []string
	total := 0
	for i, line := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		rel, _, _ := strings.Cut(line, "\t")
		if i == 0 || !strings.HasPrefix(rel, "en-") {
			continue // the header, or not English
		}
		b, err := os.ReadFile(filepath.Join(path, rel))
		if err != nil {
			return nil, err
		}
		texts = append(texts, string(b))
		if total += len(b); total >= corpusBytes {
			break
		}
	}
	return texts, nil
}

// generatedText returns about n bytes of English-like prose in paragraphs, the same on every
// run: words from a fixed list with punctuation, numbers and line breaks.
func generatedText(n int) []string {
	words := strings.Fields(`the of and to in is that for it as was with be by on not he this are or
		his from at which but have an they you were her she there been one all we their has would
		when if so no will more about can said into them only time could new some these two may
		first then do any like my now over such our man me even most made after also did many
		before must through back years where much your way well down should because each just
		those people how too little state good very make world still own see men work long get
		here between both life being under never day same another know while last might us great
		old year off come since against go came right used take three tokenizer chunking retrieval
		document embedding paragraph heading boundary overlap budget encoding plugin process`)
	rng := rand.New(rand.NewPCG(7, 11))
	var texts []string
	total := 0
	for total < n {
		var para []string
		for range 3 + rng.IntN(5) {
			sentence := make([]string, 6+rng.IntN(14))
			for i := range sentence {
				sentence[i] = words[rng.IntN(len(words))]
				switch rng.IntN(30) {
				case 0:
					sentence[i] += ","
				case 1:
					sentence[i] = fmt.Sprint(rng.IntN(5000))
				}
			}
			sentence[0] = strings.ToUpper(sentence[0][:1]) + sentence[0][1:]
			para = append(para, strings.Join(sentence, " ")+".")
		}
		text := strings.Join(para, " ") + "\n\n"
		texts = append(texts, text)
		total += len(text)
	}
	return texts
}

func totalBytes(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return n
}
