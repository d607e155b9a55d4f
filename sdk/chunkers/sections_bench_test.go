package chunkers_test

// BenchmarkSections measures Sections in MB/s of canonical text on a 5 MB document, with the
// in-process Words counter and with the in-process tiktoken counter (cl100k_base, Fast). The
// real-text document needs the corpus built by ../shared/tools/build-corpus.sh (outside the
// repository):
//
//	../shared/tools/build-corpus.sh /tmp/corpus
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench Sections -count 6 ./sdk/chunkers
//
// Without CHUNKKIT_CORPUS the corpus cases skip; the generated document always runs.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// sectionsBenchBytes is about how large the benchmark documents are.
const sectionsBenchBytes = 5 << 20

func BenchmarkSections(b *testing.B) {
	docs := []struct {
		name string
		doc  func(b *testing.B) *sdk.Document
	}{
		{"doc=corpus", corpusDoc},
		{"doc=generated", func(*testing.B) *sdk.Document { return withFootnotes(benchDoc(sectionsBenchBytes)) }},
	}
	counters := []struct {
		name string
		new  func(b *testing.B) sdk.TokenCounter
	}{
		{"tokenizer=words", func(*testing.B) sdk.TokenCounter { return sdk.Words{} }},
		{"tokenizer=tiktoken", func(b *testing.B) sdk.TokenCounter {
			c, err := tiktoken.New("cl100k_base", tiktoken.Fast)
			if err != nil {
				b.Fatal(err)
			}
			return c
		}},
	}
	for _, d := range docs {
		b.Run(d.name, func(b *testing.B) {
			doc := d.doc(b)
			size := int64(len(doc.Canonical().Text))
			for _, tc := range counters {
				b.Run(tc.name, func(b *testing.B) {
					rec := &sdk.Recorder{Counter: tc.new(b)}
					s := &chunkers.Sections{Config: chunkers.Config{Counter: rec}}
					b.SetBytes(size)
					b.ReportAllocs()
					chunks := 0
					for b.Loop() {
						out, err := s.Chunk(context.Background(), sdk.Request{}, doc)
						if err != nil {
							b.Fatal(err)
						}
						chunks = len(out)
					}
					b.ReportMetric(float64(rec.Stats().Calls())/float64(b.N), "calls/doc")
					b.ReportMetric(float64(chunks), "chunks/op")
				})
			}
		})
	}
}

// corpusDoc builds one document of about sectionsBenchBytes from the files of the corpus
// named by CHUNKKIT_CORPUS, in the order of its MANIFEST.tsv: Markdown through the Markdown
// adapter, everything else as plain text. It skips the benchmark when the variable is unset.
func corpusDoc(b *testing.B) *sdk.Document {
	dir := os.Getenv("CHUNKKIT_CORPUS")
	if dir == "" {
		b.Skip("CHUNKKIT_CORPUS is not set: build a corpus with ../shared/tools/build-corpus.sh /tmp/corpus and set CHUNKKIT_CORPUS=/tmp/corpus")
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		b.Fatalf("CHUNKKIT_CORPUS=%s: %v", dir, err)
	}
	doc := &sdk.Document{ID: "corpus"}
	n := 0
	for line := range strings.Lines(string(manifest)) {
		rel, _, _ := strings.Cut(line, "\t")
		if rel == "corpus_path" || n >= sectionsBenchBytes {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			b.Fatalf("CHUNKKIT_CORPUS=%s: %v", dir, err)
		}
		parse := markdown.ParseText
		if strings.HasSuffix(rel, ".md") {
			parse = markdown.Parse
		}
		part, err := parse(src, markdown.Options{ID: rel})
		if err != nil {
			b.Fatalf("%s: %v", rel, err)
		}
		for _, blk := range part.Blocks {
			doc.Blocks = append(doc.Blocks, blk)
			n += len(blk.Text) + len(sdk.Separator)
		}
	}
	return doc
}

// withFootnotes adds a reference to every 50th paragraph of doc and a footnote block after it.
func withFootnotes(doc *sdk.Document) *sdk.Document {
	var blocks []sdk.Block
	for i, blk := range doc.Blocks {
		if blk.Kind != sdk.KindParagraph || i%50 != 0 {
			blocks = append(blocks, blk)
			continue
		}
		blk.Text += fmt.Sprintf(" [^%d]", i)
		blocks = append(blocks, blk, sdk.Block{Kind: sdk.KindFootnote, Text: fmt.Sprintf("[^%d]: A note on paragraph %d.", i, i)})
	}
	doc.Blocks = blocks
	return doc
}
