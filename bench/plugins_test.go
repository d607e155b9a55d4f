package bench_test

// Benchmarks of tokenizers through plugins against the same tokenizers in-process, and of
// chunking through each. bench/tokenizers.sh runs them with -count 10 beside OpenAI's tiktoken
// (npm) and compares with benchstat; by hand:
//
//	../shared/tools/build-corpus.sh /tmp/corpus
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench . -count 10 ./bench | tee plugins.txt
//	go tool benchstat -col /path plugins.txt
//
// CHUNKKIT_CORPUS names a corpus built by build-corpus.sh: BenchmarkCount takes its English
// files in manifest order up to ~4 MB (the selection of plugins/tiktoken's BenchmarkCount and
// tools/tiktoken-golden/bench.mjs), BenchmarkChunk its English Markdown. Without it they skip,
// saying so; BenchmarkColdStart and BenchmarkChunkSample need nothing.
//
// BenchmarkHF counts through the hftokenizer plugin, impl=go-plugin beside
// plugins/hftokenizer's BenchmarkHF (impl=go-inprocess) and tools/hf-golden/bench.mjs
// (impl=hf-rust-napi), on the same text cut the same way; bench/hf.sh runs the three.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

const (
	corpusEnv   = "CHUNKKIT_CORPUS"
	corpusBytes = 4_000_000
)

var (
	buildOnce sync.Once
	buildDir  string // removed by TestMain once every benchmark has run
	catalog   *host.Catalog
	buildErr  error
)

// TestMain removes the plugins pluginCatalog built (~34 MB a run) when the benchmarks end.
func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		if err := os.RemoveAll(buildDir); err != nil {
			fmt.Fprintln(os.Stderr, "bench: removing the plugins built for the run:", err)
		}
	}
	os.Exit(code)
}

// pluginCatalog builds the tiktoken and hftokenizer plugins once into a temporary directory
// with a manifest.
func pluginCatalog(b *testing.B) *host.Catalog {
	b.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "chunkkit-bench-plugins-")
		if err != nil {
			buildErr = err
			return
		}
		buildDir = dir
		// As `make build` builds them (BUILDFLAGS): the host hashes the binary at each start.
		out, err := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", dir+"/",
			"github.com/chunkkit/chunkkit/plugins/tiktoken/cmd/chunkkit-tiktoken",
			"github.com/chunkkit/chunkkit/plugins/hftokenizer/cmd/chunkkit-hftokenizer").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building the tiktoken and hftokenizer plugins: %v\n%s", err, out)
			return
		}
		entries := []host.Entry{
			{Name: "tiktoken", Binary: "chunkkit-tiktoken", Kinds: []plugin.Kind{plugin.KindTokenizer}},
			{Name: host.HFPlugin, Binary: "chunkkit-hftokenizer", Kinds: []plugin.Kind{plugin.KindTokenizer}},
		}
		if buildErr = host.BuildManifest(dir, entries); buildErr != nil {
			return
		}
		catalog, buildErr = host.Load(dir)
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return catalog
}

func quietHost(b *testing.B) *host.Host {
	h := host.New(pluginCatalog(b), host.Options{Logger: hclog.NewNullLogger()})
	b.Cleanup(func() { h.Close() })
	return h
}

// counterFor returns the counter for an encoding and backend, in-process or through the plugin.
func counterFor(b *testing.B, path, enc string, backend tiktoken.Backend) sdk.TokenCounter {
	b.Helper()
	if path == "inproc" {
		c, err := tiktoken.New(enc, backend)
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	c, err := quietHost(b).TokenCounter(context.Background(), "tiktoken:"+enc+"@"+string(backend))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// englishFiles returns the corpus's English files whose path has prefix, in manifest order,
// until they hold limit bytes, by path.
func englishFiles(b *testing.B, prefix string, limit int) map[string]string {
	b.Helper()
	paths, texts := englishTexts(b, prefix, limit)
	files := map[string]string{}
	for i, p := range paths {
		files[p] = texts[i]
	}
	return files
}

// englishTexts returns the paths and texts of the corpus's English files whose path has
// prefix, in manifest order, until they hold limit bytes.
func englishTexts(b *testing.B, prefix string, limit int) (paths, texts []string) {
	b.Helper()
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		b.Skipf("%s is not set: build a corpus with ../shared/tools/build-corpus.sh /tmp/corpus and set %s=/tmp/corpus", corpusEnv, corpusEnv)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		b.Fatalf("%s=%s is not a corpus: %v", corpusEnv, dir, err)
	}
	total := 0
	for i, line := range strings.Split(strings.TrimSpace(string(manifest)), "\n") {
		rel, _, _ := strings.Cut(line, "\t")
		if i == 0 || !strings.HasPrefix(rel, prefix) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			b.Fatal(err)
		}
		paths, texts = append(paths, rel), append(texts, string(data))
		if total += len(data); total >= limit {
			break
		}
	}
	return paths, texts
}

// BenchmarkCount counts ~4 MB of real English text in one batch, per backend and encoding,
// in-process and through the plugin; cpu-ms/op (Linux) is the CPU time of the host and the
// plugin process per op.
func BenchmarkCount(b *testing.B) {
	_, texts := englishTexts(b, "en-", corpusBytes)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	for _, backend := range []tiktoken.Backend{tiktoken.Backtrack, tiktoken.Fast, tiktoken.Reference} {
		for _, enc := range []string{"cl100k_base", "o200k_base"} {
			for _, path := range []string{"inproc", "plugin"} {
				b.Run(fmt.Sprintf("backend=%s/path=%s/enc=%s", backend, path, enc), func(b *testing.B) {
					c := counterFor(b, path, enc, backend)
					b.SetBytes(int64(size))
					if _, err := c.Count(context.Background(), []string{"warm up"}); err != nil {
						b.Fatal(err)
					}
					cpu0, cpuOK := processCPU()
					for b.Loop() {
						if _, err := c.Count(context.Background(), texts); err != nil {
							b.Fatal(err)
						}
					}
					reportCPU(b, cpu0, cpuOK)
				})
			}
		}
	}
}

// BenchmarkHF counts the text of tools/hf-golden/bench.mjs through the hftokenizer plugin with
// each reference tokenizer.json (needs `make hf-files`), one Count call per piece, with the
// spec hf:PATH@special (HF's encode matches added tokens in the text): the corpus's English
// files up to ~4 MB, or without CHUNKKIT_CORPUS Chroma's corpora in ../shared, cut into pieces
// of at most 64 KiB at "\n\n" as plugins/hftokenizer's BenchmarkHF cuts them.
func BenchmarkHF(b *testing.B) {
	pieces, size, _, err := reffiles.BenchPieces(os.Getenv(corpusEnv), filepath.Join("..", "..", "shared"))
	if errors.Is(err, reffiles.ErrNoBenchText) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(reffiles.NPMPath("..", reffiles.NPM[0])); err != nil {
		b.Skipf("the npm reference files are not installed, run `make hf-files`: %v", err)
	}
	files, err := reffiles.All("..", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, f := range files {
		b.Run("file="+f.Name+"/impl=go-plugin", func(b *testing.B) {
			abs, err := filepath.Abs(f.Path)
			if err != nil {
				b.Fatal(err)
			}
			c, err := quietHost(b).TokenCounter(ctx, "hf:"+abs+hftokenizer.SpecialSuffix)
			if err != nil {
				b.Fatal(err)
			}
			reffiles.BenchCount(b, c, pieces, size)
		})
	}
}

// BenchmarkChunk chunks the corpus's English Markdown with HeadingAware at 512/64 through the
// backtrack backend, in-process and through the plugin, and reports counter calls per document.
func BenchmarkChunk(b *testing.B) {
	files := englishFiles(b, "en-md/", corpusBytes)
	benchChunk(b, files)
}

// BenchmarkChunkSample chunks the shipped sample document, 64 copies as 64 documents.
func BenchmarkChunkSample(b *testing.B) {
	src, err := os.ReadFile("../testdata/sample.md")
	if err != nil {
		b.Fatal(err)
	}
	files := map[string]string{}
	for i := range 64 {
		files[fmt.Sprintf("sample-%d.md", i)] = string(src)
	}
	benchChunk(b, files)
}

func benchChunk(b *testing.B, files map[string]string) {
	var docs []*sdk.Document
	size := 0
	for name, text := range files {
		doc, err := markdown.Parse([]byte(text), markdown.Options{ID: name})
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, doc)
		size += len(doc.Canonical().Text)
	}
	for _, path := range []string{"inproc", "plugin"} {
		b.Run(fmt.Sprintf("strategy=heading/path=%s/enc=cl100k_base/max=512/overlap=64", path), func(b *testing.B) {
			rec := &sdk.Recorder{Counter: counterFor(b, path, "cl100k_base", tiktoken.Backtrack)}
			c := &chunkers.HeadingAware{Config: chunkers.Config{Counter: rec, MaxTokens: 512, OverlapTokens: 64}}
			b.SetBytes(int64(size))
			chunks := 0
			for b.Loop() {
				chunks = 0
				for _, doc := range docs {
					out, err := c.Chunk(context.Background(), sdk.Request{}, doc)
					if err != nil {
						b.Fatal(err)
					}
					chunks += len(out)
				}
			}
			st := rec.Stats()
			b.ReportMetric(float64(st.Calls())/float64(b.N*len(docs)), "calls/doc")
			b.ReportMetric(float64(chunks), "chunks/op")
		})
	}
}

// BenchmarkColdStart measures what the first call through a new host costs: checksum, exec,
// handshake with mutual TLS, Info, loading the encoding's vocabulary and a first Count. The
// host's Close (the plugin's graceful exit) is not timed; BenchmarkColdStartPhases reports it
// apart, and the time of each phase.
func BenchmarkColdStart(b *testing.B) {
	cat := pluginCatalog(b)
	for _, model := range tiktoken.Encodings() {
		b.Run("enc="+model, func(b *testing.B) {
			for b.Loop() {
				h := host.New(cat, host.Options{Logger: hclog.NewNullLogger()})
				c, err := h.TokenCounter(context.Background(), "tiktoken:"+model)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.Count(context.Background(), []string{"warm up"}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if err := h.Close(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}
