package chunkers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// corpusEnv names the corpus built by ../shared/tools/build-corpus.sh, which the window test
// reads too when it is set.
const corpusEnv = "CHUNKKIT_CORPUS"

// windowDocs returns the shipped corpus, each file a document, and one document made of all
// of its Markdown files one after another, whose level-1 headings are where windows may end;
// with CHUNKKIT_CORPUS set, also the corpus's English Markdown files joined the same way.
func windowDocs(t *testing.T) []*sdk.Document {
	t.Helper()
	files := snapshotFiles(t)
	var docs []*sdk.Document
	var joined strings.Builder
	for _, f := range files {
		docs = append(docs, parseFile(t, f, filepath.Base(f)))
		if strings.HasSuffix(f, ".md") {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			joined.Write(src)
			joined.WriteString("\n\n")
		}
	}
	// A document without headings at the outermost level but its own, and one of level-2
	// sections only, so that cuts fall before headings other than level 1.
	joined.WriteString("<!-- noise -->\n\n# Noise heading\n\n<a id=\"x\"></a>\n\n# After noise\n\ntext\n\n# Only\n\n# Headings\n\n## Deep\n\nbody\n\n")
	add := func(id, src string) {
		doc, err := markdown.Parse([]byte(src), markdown.Options{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	add("joined.md", joined.String())
	add("level2.md", strings.ReplaceAll(joined.String(), "\n# ", "\n## "))
	if root := os.Getenv(corpusEnv); root != "" {
		var corpus strings.Builder
		matches, _ := filepath.Glob(filepath.Join(root, "en-md", "*", "*.md"))
		for _, m := range matches {
			src, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			corpus.Write(src)
			corpus.WriteString("\n\n")
		}
		add("corpus-en-md.md", corpus.String())
	} else {
		t.Logf("%s is not set: the corpus's Markdown is left out (build it with ../shared/tools/build-corpus.sh)", corpusEnv)
	}
	return docs
}

// TestChunkSeqWindowsGiveTheWholeDocumentsChunks holds HeadingAware's windows (ChunkSeq, and
// Chunk through it) to the chunks of the whole document at once: with windows as small as can
// be, every place a window may end is one, and the chunks must be exactly those of one window,
// at every budget, overlap, context mode and heading mode, in words, runes and cl100k tokens.
func TestChunkSeqWindowsGiveTheWholeDocumentsChunks(t *testing.T) {
	t.Parallel()
	docs := windowDocs(t)
	counters := []sdk.TokenCounter{sdk.Words{}, sdk.Runes{}, cl100kCounter(t)}
	cuts := 0
	for _, counter := range counters {
		for _, budget := range []int{16, 64, 512} {
			for _, overlap := range []int{0, chunkers.NoOverlap} {
				for _, mode := range []chunkers.ContextMode{chunkers.ContextDefault, chunkers.ContextNone} {
					for _, headingChunks := range []bool{false, true} {
						name := fmt.Sprintf("%s/max=%d/overlap=%d/context=%s/headingChunks=%v", counterName(counter), budget, overlap, mode, headingChunks)
						cfg := chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: overlap, Context: mode}
						whole := &chunkers.HeadingAware{Config: cfg, HeadingChunks: headingChunks, WindowBytes: -1}
						small := &chunkers.HeadingAware{Config: cfg, HeadingChunks: headingChunks, WindowBytes: 1}
						for _, doc := range docs {
							want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
							if err != nil {
								t.Fatalf("%s: %s: %v", name, doc.ID, err)
							}
							var got []sdk.Chunk
							for c, err := range small.ChunkSeq(context.Background(), conformance.Request(), doc) {
								if err != nil {
									t.Fatalf("%s: %s: ChunkSeq: %v", name, doc.ID, err)
								}
								got = append(got, c)
							}
							if diff := cmp.Diff(want, got); diff != "" {
								t.Fatalf("%s: %s: windows of one heading each differ from the whole document (-whole +windows):\n%s", name, doc.ID, diff)
							}
							cuts += chunkers.Windows(doc, 1) - 1
						}
					}
				}
			}
		}
	}
	if cuts == 0 {
		t.Fatal("no document was cut into windows: the test compares nothing")
	}
	t.Logf("%d window ends compared", cuts)
}

func counterName(c sdk.TokenCounter) string {
	if n, ok := c.(sdk.Namer); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", c)
}
