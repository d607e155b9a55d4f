package chunkers_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

var update = flag.Bool("update", false, "rewrite the snapshot golden files under testdata/snapshots")

// snapshotFiles returns the shipped corpus: the bench's documents, the repository's sample and
// the cuts samples, all written for chunkkit.
func snapshotFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../../bench/corpus/corpora/*", "../../testdata/*.md", "testdata/cuts/*"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d files of the shipped corpus, want its documents", len(files))
	}
	return files
}

// TestSnapshots chunks the shipped corpus with HeadingAware and Sections at budgets 16, 64 and
// 512 with the default overlap, counted in words, runes and cl100k_base, as text-splitter's
// snapshot tests do: first every chunk is held to the conformance kit (WholeWords included),
// then the output is compared with a reviewed golden file, so that output that is still valid
// but has changed is noticed. A golden file holds a digest of every chunk of every document
// and, at 512 tokens and for the default strategy at 64 words and cl100k tokens, one line per
// chunk; regenerate with
//
//	go test ./sdk/chunkers -run TestSnapshots -update
//
// and review the diff.
func TestSnapshots(t *testing.T) {
	t.Parallel()
	files := snapshotFiles(t)
	docs := make([]*sdk.Document, len(files))
	for i, f := range files {
		docs[i] = parseFile(t, f, filepath.Base(f))
	}
	counters := []sdk.TokenCounter{sdk.Words{}, sdk.Runes{}, cl100kCounter(t)}
	for _, counter := range counters {
		cname := strings.ReplaceAll(counter.(sdk.Namer).Name(), ":", "-")
		for _, maxTokens := range []int{16, 64, 512} {
			cfg := chunkers.Config{Counter: counter, MaxTokens: maxTokens}
			for name, c := range map[string]sdk.Chunker{"heading": &chunkers.HeadingAware{Config: cfg}, "sections": &chunkers.Sections{Config: cfg}} {
				golden := filepath.Join("testdata", "snapshots", fmt.Sprintf("%s-%s-%d.txt", name, cname, maxTokens))
				t.Run(filepath.Base(golden), func(t *testing.T) {
					t.Parallel()
					var sb strings.Builder
					opts := conformance.OptionsFor(c, counter)
					for _, doc := range docs {
						chunks, err := c.Chunk(context.Background(), req, doc)
						if err != nil {
							t.Fatal(err)
						}
						if err := conformance.CheckChunks(context.Background(), doc, req, chunks, opts); err != nil {
							t.Fatal(err)
						}
						writeSnapshot(&sb, doc, chunks, maxTokens == 512 || maxTokens == 64 && name == "heading" && cname != "runes")
					}
					got := sb.String()
					if *update {
						if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
							t.Fatal(err)
						}
						return
					}
					want, err := os.ReadFile(golden)
					if err != nil {
						t.Fatalf("%v (run with -update to create it)", err)
					}
					if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
						t.Errorf("%s differs (-want +got); if the change is intended, run with -update and review the diff:\n%s", golden, diff)
					}
				})
			}
		}
	}
}

// writeSnapshot writes a document's chunks: a line with their count, total tokens and the
// SHA-256 of their JSON, then, when lines is set, one line per chunk.
func writeSnapshot(sb *strings.Builder, doc *sdk.Document, chunks []sdk.Chunk, lines bool) {
	data, err := json.Marshal(chunks)
	if err != nil {
		panic(err)
	}
	tokens := 0
	for _, c := range chunks {
		tokens += c.TokenCount
	}
	fmt.Fprintf(sb, "# %s: %d chunks, %d tokens, sha256 %x\n", doc.ID, len(chunks), tokens, sha256.Sum256(data))
	if !lines {
		return
	}
	for _, c := range chunks {
		parent := "-"
		if c.ParentID != "" {
			parent = strings.TrimPrefix(c.ParentID, doc.ID+"#")
		}
		fmt.Fprintf(sb, "%d %s ^%s [%d,%d) %dt [%s] %s\n", c.Position, c.Kind, parent, c.Start, c.End, c.TokenCount, c.Context, excerpt(c.Content))
	}
}

// excerpt shows the first and last 24 runes of s on one line.
func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 56 {
		return s
	}
	r := []rune(s)
	return string(r[:24]) + " … " + string(r[len(r)-24:])
}
