package tiktoken_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// plainCounter hides every ability of a counter but sdk.TokenCounter's two methods, so that a
// chunker counts its chunks by building their texts (sdk.CountingRetained).
type plainCounter struct{ sdk.TokenCounter }

// TestChunksAreTheSameThroughTheRetainer chunks the repository's Markdown (its docs, READMEs
// and sample, ~30 files of the shapes the project writes) and, with CHUNKKIT_CORPUS set, every
// file of the corpus (read as Markdown: English, German, Japanese, Chinese), with each chunker
// at two budgets, once with the Counter (whose RetainBoundaries counts chunks from its
// checkpoints) and once with the same counter without that ability, and requires the same
// chunks: the counts, and every cut that depends on them. TestCountMarkedIsCount is the one
// that finds a wrong jump; this one says that real documents take the path and lose nothing.
func TestChunksAreTheSameThroughTheRetainer(t *testing.T) {
	t.Parallel()
	var files []string
	walk := func(root string, exts ...string) {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if slices.Contains(exts, filepath.Ext(path)) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk("../..", ".md")
	if dir := os.Getenv(corpusEnv); dir != "" {
		walk(dir, ".md", ".txt", ".rst") // every file, read as Markdown
	} else {
		t.Logf("%s is not set: the repository's Markdown only", corpusEnv)
	}
	if len(files) < 30 {
		t.Fatalf("found %d Markdown files, want the repository's", len(files))
	}
	c := counter(t, "cl100k_base", tiktoken.Backtrack)
	chunkersFor := func(tc sdk.TokenCounter, max, overlap int) []sdk.Chunker {
		cfg := chunkers.Config{Counter: tc, MaxTokens: max, OverlapTokens: overlap}
		return []sdk.Chunker{&chunkers.HeadingAware{Config: cfg}, &chunkers.Sections{Config: cfg}, &chunkers.FixedTokens{Config: cfg}}
	}
	ctx := context.Background()
	chunks := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := markdown.Parse(src, markdown.Options{ID: path})
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range [][2]int{{128, 16}, {512, 64}} {
			retaining, plain := chunkersFor(c, budget[0], budget[1]), chunkersFor(plainCounter{c}, budget[0], budget[1])
			for i := range retaining {
				got, err := retaining[i].Chunk(ctx, sdk.Request{}, doc)
				if err != nil {
					t.Fatalf("%s: %T: %v", path, retaining[i], err)
				}
				want, err := plain[i].Chunk(ctx, sdk.Request{}, doc)
				if err != nil {
					t.Fatalf("%s: %T: %v", path, plain[i], err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: %T at %v: chunks through the Retainer differ (-plain +retainer):\n%s", path, retaining[i], budget, diff)
				}
				chunks += len(got)
			}
		}
	}
	t.Logf("%d files, %d chunks", len(files), chunks)
}
