package chunkbeam_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	gocmp "github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/beam/chunkbeam"
	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

// The shipped corpus: the bench's documents (Markdown and plain text).
const shippedCorpus = "../../bench/corpus/corpora"

// collected holds what the collect DoFns received, by key: Prism runs the workers in the
// test's process, so a DoFn can hand its elements to the test this way.
var collected = struct {
	mu     sync.Mutex
	chunks map[string][][]byte
	dead   map[string][]chunkbeam.DeadLetter
}{chunks: map[string][][]byte{}, dead: map[string][]chunkbeam.DeadLetter{}}

// collectChunks keeps every chunk it gets, as the JSON line a sink would write.
type collectChunks struct{ Key string }

func (f *collectChunks) ProcessElement(c sdk.Chunk) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	collected.mu.Lock()
	defer collected.mu.Unlock()
	collected.chunks[f.Key] = append(collected.chunks[f.Key], b)
	return nil
}

// collectDead keeps every dead letter it gets.
type collectDead struct{ Key string }

func (f *collectDead) ProcessElement(d chunkbeam.DeadLetter) {
	collected.mu.Lock()
	defer collected.mu.Unlock()
	collected.dead[f.Key] = append(collected.dead[f.Key], d)
}

func init() {
	register.DoFn1x1[sdk.Chunk, error](&collectChunks{})
	register.DoFn1x0[chunkbeam.DeadLetter](&collectDead{})
}

// runChunk runs Chunk over docs on Prism and returns the chunks (decoded from JSON and sorted
// by document and position), the dead letters (sorted by document) and the job's chunkkit
// counters by name.
func runChunk(t *testing.T, cfg chunkbeam.Config, docs []chunkbeam.Document) ([]sdk.Chunk, []chunkbeam.DeadLetter, map[string]int64) {
	t.Helper()
	key := t.Name()
	p, s := beam.NewPipelineWithRoot()
	col := beam.CreateList(s, docs)
	chunks, dead := chunkbeam.Chunk(s, cfg, col)
	beam.ParDo0(s, &collectChunks{Key: key}, chunks)
	beam.ParDo0(s, &collectDead{Key: key}, dead)
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatalf("the pipeline failed: %v", err)
	}
	counters := map[string]int64{}
	for _, c := range res.Metrics().Query(func(r metrics.SingleResult) bool { return r.Namespace() == "chunkkit" }).Counters() {
		counters[c.Name()] += c.Result()
	}
	collected.mu.Lock()
	lines, dl := collected.chunks[key], collected.dead[key]
	delete(collected.chunks, key)
	delete(collected.dead, key)
	collected.mu.Unlock()
	out := decodeChunks(t, bytes.Join(lines, []byte("\n")))
	slices.SortFunc(dl, func(a, b chunkbeam.DeadLetter) int { return cmp.Compare(a.DocumentID, b.DocumentID) })
	return out, dl, counters
}

// decodeChunks decodes JSONL chunks and sorts them by document and position.
func decodeChunks(t *testing.T, jsonl []byte) []sdk.Chunk {
	t.Helper()
	var out []sdk.Chunk
	sc := bufio.NewScanner(bytes.NewReader(jsonl))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c sdk.Chunk
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("decoding a chunk: %v", err)
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b sdk.Chunk) int {
		return cmp.Or(cmp.Compare(a.DocumentID, b.DocumentID), cmp.Compare(a.Position, b.Position))
	})
	return out
}

// walkDocuments returns the documents under root as chunk DIR reads them.
func walkDocuments(t *testing.T, root string) []chunkbeam.Document {
	t.Helper()
	var docs []chunkbeam.Document
	for in, err := range pipeline.Walk([]string{root}, pipeline.WalkOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		d, err := chunkbeam.FromInput(in, os.ReadFile)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		t.Fatalf("no documents under %s", root)
	}
	return docs
}

// checkIdentity checks that the chunks' IDs and content hashes are the ones a sink can upsert
// by: derived from the document ID and position, and from the text to embed.
func checkIdentity(t *testing.T, chunks []sdk.Chunk) {
	t.Helper()
	for _, c := range chunks {
		if want := sdk.ChunkID(c.DocumentID, c.Position); c.ID != want {
			t.Errorf("chunk %s/%d has ID %q, want %q (document ID and position)", c.DocumentID, c.Position, c.ID, want)
		}
		sum := sha256.Sum256([]byte(c.EmbedText))
		if want := hex.EncodeToString(sum[:]); c.ContentHash != want {
			t.Errorf("chunk %s has content hash %q, want the SHA-256 of its embed text %q", c.ID, c.ContentHash, want)
		}
	}
}

func TestChunkOnPrismEqualsTheCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name    string
		root    func(t *testing.T) string
		cfg     pipeline.ChunkerConfig
		args    []string
		workers int
	}{
		{"the shipped corpus, headings at 256/32 through the tiktoken plugin",
			func(*testing.T) string { return shippedCorpus },
			pipeline.ChunkerConfig{MaxTokens: 256, OverlapTokens: 32},
			[]string{"--max-tokens", "256", "--overlap-tokens", "32"}, 0},
		{"the shipped corpus, headings at 256/32, three documents of a bundle at once",
			func(*testing.T) string { return shippedCorpus },
			pipeline.ChunkerConfig{MaxTokens: 256, OverlapTokens: 32},
			[]string{"--max-tokens", "256", "--overlap-tokens", "32"}, 3},
		{"the shipped corpus, sections packed at 128 with no overlap, sentences by the punkt plugin",
			func(*testing.T) string { return shippedCorpus },
			pipeline.ChunkerConfig{Strategy: "sections", MaxTokens: 128, OverlapTokens: -1, PackSections: true, Sentences: "plugin:sentence:punkt:en"},
			[]string{"--strategy", "sections", "--max-tokens", "128", "--overlap-tokens", "0", "--pack-sections", "--sentences", "plugin:sentence:punkt:en"}, 0},
		{"the corpus's English Markdown ($CHUNKKIT_BEAM_CORPUS/en-md), at the defaults",
			func(t *testing.T) string {
				dir := os.Getenv("CHUNKKIT_BEAM_CORPUS")
				if dir == "" {
					t.Skip("CHUNKKIT_BEAM_CORPUS is not set: build the corpus with ../shared/tools/build-corpus.sh DIR and set it to DIR to compare on it too")
				}
				return filepath.Join(dir, "en-md")
			},
			pipeline.ChunkerConfig{}, nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tc.root(t)
			want := decodeChunks(t, chunkkitCLI(t, append([]string{"chunk", root, "--format", "jsonl"}, tc.args...)...))
			got, dead, counters := runChunk(t, chunkbeam.Config{Chunker: tc.cfg, Workers: tc.workers}, walkDocuments(t, root))
			if len(dead) > 0 {
				t.Errorf("dead letters: %+v", dead)
			}
			if len(want) == 0 {
				t.Fatal("the command line gave no chunks")
			}
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("the transform's chunks differ from chunkkit chunk's (-cli +beam):\n%s", diff)
			}
			checkIdentity(t, got)
			if counters["chunks"] != int64(len(want)) || counters["retries"] != 0 {
				t.Errorf("counters %v, want %d chunks and no retry", counters, len(want))
			}
		})
	}
}

func TestChunkSendsBadDocumentsToTheDeadLetterOutput(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d at once", workers), func(t *testing.T) { testDeadLetters(t, workers) })
	}
}

func testDeadLetters(t *testing.T, workers int) {
	good := walkDocuments(t, shippedCorpus)[:3]
	docs := append(slices.Clone(good),
		chunkbeam.Document{ID: "broken.json", Format: "doc2mark", Data: []byte(`{"content": [`)},
		chunkbeam.Document{ID: "scan.pdf", Format: "pdf", Data: []byte("%PDF-1.7")},
		chunkbeam.Document{Path: "notes/untitled.md", Text: "# No ID\n\nText."},
		chunkbeam.Document{ID: "inline", Text: "# Inline\n\nA document given as text, Markdown by default."},
		// Path says where a document came from; the worker never reads it, even for an
		// empty document (no chunks, no dead letter).
		chunkbeam.Document{ID: "elsewhere.md", Path: "/nonexistent/elsewhere.md"},
	)
	chunks, dead, counters := runChunk(t, chunkbeam.Config{Chunker: pipeline.ChunkerConfig{MaxTokens: 256}, Workers: workers}, docs)
	var reasons []string
	for _, d := range dead {
		reasons = append(reasons, fmt.Sprintf("%s | %s | %d", d.DocumentID, d.Reason, d.Attempts))
	}
	for i, want := range []struct{ id, reason string }{
		{"", "has no ID"},
		{"broken.json", "broken.json: "},
		{"scan.pdf", `"pdf"`},
	} {
		if i >= len(dead) {
			t.Errorf("dead letter %d missing, want %s (%s)", i, want.id, want.reason)
			continue
		}
		if dead[i].DocumentID != want.id || !strings.Contains(dead[i].Reason, want.reason) {
			t.Errorf("dead letter %d: %q, want document %q with a reason holding %q", i, reasons[i], want.id, want.reason)
		}
	}
	if len(dead) != 3 {
		t.Errorf("%d dead letters, want 3:\n%s", len(dead), strings.Join(reasons, "\n"))
	}
	docsChunked := map[string]bool{}
	for _, c := range chunks {
		docsChunked[c.DocumentID] = true
	}
	for _, d := range append(good, docs[len(docs)-2]) {
		if !docsChunked[d.ID] {
			t.Errorf("document %s has no chunks: a bad document must cost only itself", d.ID)
		}
	}
	if counters["dead_letters"] != 3 || counters["documents"] != int64(len(good)+2) {
		t.Errorf("counters %v, want 3 dead letters and %d documents", counters, len(good)+2)
	}
}

// killMarker in a document makes the killing counter kill the tiktoken plugin in the middle of
// the call that tokenizes it, once.
const killMarker = "KILL-THE-TOKENIZER-HERE"

// killingResolver hands out counters that kill the plugin during a call that holds killMarker.
type killingResolver struct {
	pipeline.Resolver
	once   *sync.Once
	killed *[]int
}

func (r killingResolver) TokenCounter(ctx context.Context, spec string) (sdk.TokenCounter, error) {
	tc, err := r.Resolver.TokenCounter(ctx, spec)
	return killingCounter{tc, r}, err
}

type killingCounter struct {
	sdk.TokenCounter
	r killingResolver
}

// Boundaries, on texts holding killMarker the first time, stops the plugin processes, sends
// the call (which waits on the stopped plugin), then SIGKILLs them: the plugin dies with the
// call in flight, as in a crash.
func (k killingCounter) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, killMarker) }) {
		return k.TokenCounter.Boundaries(ctx, texts)
	}
	var out [][]int
	var err error
	called := false
	k.r.once.Do(func() {
		called = true
		pids := pluginPIDs("chunkkit-tiktok")
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGSTOP)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			out, err = k.TokenCounter.Boundaries(ctx, texts)
		}()
		time.Sleep(300 * time.Millisecond) // the request is on its way to the stopped plugin
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		*k.r.killed = pids
		<-done
	})
	if !called {
		return k.TokenCounter.Boundaries(ctx, texts)
	}
	return out, err
}

// pluginPIDs returns the PIDs of this process's children whose command starts with comm.
func pluginPIDs(comm string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		name := string(stat[bytes.IndexByte(stat, '(')+1 : i])
		var state string
		var ppid int
		fmt.Sscan(string(stat[i+1:]), &state, &ppid)
		if ppid == os.Getpid() && strings.HasPrefix(name, comm) && state != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestAKilledPluginCostsOneRetriedDocument kills the tiktoken plugin while it tokenizes one
// document of a run: that document is chunked again on the restarted plugin (one retry), no
// document is lost or dead-lettered, the bundle does not fail, and the chunks are the command
// line's. With two documents at once, the other document in flight may be retried too.
func TestAKilledPluginCostsOneRetriedDocument(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d at once", workers), func(t *testing.T) { testKilledPlugin(t, workers) })
	}
}

func testKilledPlugin(t *testing.T, workers int) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to find the plugin process (Linux)")
	}
	var lines []string
	var docs []chunkbeam.Document
	for i := range 8 {
		text := fmt.Sprintf("# Note %d\n\n%s", i, strings.Repeat(fmt.Sprintf("Sentence %d of a note about bees and their hives. ", i), 40+i))
		if i == 4 {
			text += "\n\n" + killMarker + "\n"
		}
		d := chunkbeam.Document{ID: fmt.Sprintf("note-%02d", i), Text: text}
		docs = append(docs, d)
		b, _ := json.Marshal(map[string]string{"id": d.ID, "text": d.Text})
		lines = append(lines, string(b))
	}
	stream := filepath.Join(t.TempDir(), "notes.jsonl")
	if err := os.WriteFile(stream, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := decodeChunks(t, chunkkitCLI(t, "chunk", "--from", "jsonl", stream, "--max-tokens", "128"))

	var killed []int
	chunkbeam.SetTestResolver(func(r pipeline.Resolver) pipeline.Resolver {
		return killingResolver{Resolver: r, once: new(sync.Once), killed: &killed}
	})
	defer chunkbeam.SetTestResolver(nil)
	got, dead, counters := runChunk(t, chunkbeam.Config{Chunker: pipeline.ChunkerConfig{MaxTokens: 128}, Workers: workers}, docs)
	if len(killed) == 0 {
		t.Fatal("no tiktoken plugin process was found to kill")
	}
	if len(dead) > 0 {
		t.Errorf("dead letters: %+v", dead)
	}
	// One retry for the document whose call the kill cut; with several documents of the bundle
	// at once, each other call in flight on the plugin at that moment is cut and retried too.
	if r := counters["retries"]; r < 1 || r > int64(workers) {
		t.Errorf("%d retries, want 1 to %d: the documents in flight on the killed plugin, once each (counters %v)", r, workers, counters)
	}
	if counters["documents"] != int64(len(docs)) {
		t.Errorf("%d documents chunked, want %d", counters["documents"], len(docs))
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("chunks differ from chunkkit chunk's (-cli +beam):\n%s", diff)
	}
	for _, pid := range killed {
		if err := syscall.Kill(pid, 0); err == nil && slices.Contains(pluginPIDs("chunkkit-tiktok"), pid) {
			t.Errorf("killed plugin %d still runs", pid)
		}
	}
}

func TestWorkerProcessesShareOneHost(t *testing.T) {
	dirs := []string{binDir}
	h1, err := chunkbeam.AcquireHost(dirs)
	if err != nil {
		t.Fatal(err)
	}
	h2, err := chunkbeam.AcquireHost(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if h1 != h2 {
		t.Fatal("two DoFn instances of one process got two hosts")
	}
	ctx := context.Background()
	if err := chunkbeam.ReleaseHost(dirs); err != nil {
		t.Fatal(err)
	}
	if _, err := h1.TokenCounter(ctx, "words"); err != nil {
		t.Fatalf("the host was closed while a DoFn still holds it: %v", err)
	}
	tc, err := h1.TokenCounter(ctx, "tiktoken:cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tc.Count(ctx, []string{"hello"}); err != nil {
		t.Fatalf("counting through the shared host: %v", err)
	}
	if err := chunkbeam.ReleaseHost(dirs); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.Count(ctx, []string{"hello"}); err == nil {
		t.Error("the last release did not close the host: its plugin still answers")
	}
	h3, err := chunkbeam.AcquireHost(dirs)
	if err != nil {
		t.Fatal(err)
	}
	defer chunkbeam.ReleaseHost(dirs)
	if h3 == h1 {
		t.Error("a host acquired after the last release is the closed one")
	}
}
