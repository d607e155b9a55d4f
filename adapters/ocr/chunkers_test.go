package ocr

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// fixtureDocuments returns every committed Tesseract output read into a document.
func fixtureDocuments(t *testing.T) map[string]*sdk.Document {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	hocr, err := filepath.Glob(filepath.Join("testdata", "*.hocr"))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]*sdk.Document{}
	for _, p := range append(paths, hocr...) {
		docs[filepath.Base(p)] = readFixture(t, p)
	}
	if len(docs) == 0 {
		t.Fatal("no Tesseract outputs in testdata")
	}
	return docs
}

// checkChunkers chunks every fixture document with each chunker and checks the chunks against
// every invariant of the conformance kit.
func checkChunkers(t *testing.T, makers map[string]func() sdk.Chunker) {
	t.Helper()
	counter := sdk.Words{}
	for file, doc := range fixtureDocuments(t) {
		for name, newChunker := range makers {
			t.Run(name+" keeps every invariant on "+file, func(t *testing.T) {
				t.Parallel()
				c := newChunker()
				req := conformance.Request()
				chunks, err := c.Chunk(t.Context(), req, doc)
				if err := conformance.CheckResult(t.Context(), doc, req, chunks, err, conformance.OptionsFor(c, counter)); err != nil {
					t.Fatal(err)
				}
				pages := map[int]bool{}
				for _, ch := range chunks {
					if ch.PageStart < 1 || ch.PageEnd < ch.PageStart {
						t.Errorf("chunk %d: pages %d–%d, want known pages", ch.Position, ch.PageStart, ch.PageEnd)
					}
					pages[ch.PageStart] = true
					// The chunk's copy of the document metadata lists its own pages only.
					var listed []int
					for _, e := range ch.Metadata[sdk.MetaDocument].(map[string]any)[MetaPages].(sdk.PageEntries).Entries {
						listed = append(listed, e["number"].(int))
					}
					var want []int
					for n := ch.PageStart; n <= ch.PageEnd; n++ {
						want = append(want, n)
					}
					if !slices.Equal(listed, want) {
						t.Errorf("chunk %d of pages %d–%d lists pages %v in metadata.document", ch.Position, ch.PageStart, ch.PageEnd, listed)
					}
				}
				if strings.HasPrefix(file, "multipage") && !pages[2] {
					t.Errorf("no chunk starts on page 2 of a two-page document")
				}
			})
		}
	}
}

func TestChunkersOnFixtures(t *testing.T) {
	t.Parallel()
	counter := sdk.Words{}
	checkChunkers(t, map[string]func() sdk.Chunker{
		"HeadingAware with a 16-word budget": func() sdk.Chunker {
			return &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: 16, OverlapTokens: 4}}
		},
		"HeadingAware with the default budget": func() sdk.Chunker { return &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter}} },
		"FixedTokens": func() sdk.Chunker {
			return &chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: 16, OverlapTokens: 4}}
		},
		"Noop": func() sdk.Chunker { return &chunkers.Noop{Counter: counter} },
	})
}

func TestSplitTableRepeatsItsHeader(t *testing.T) {
	t.Parallel()
	doc := readFixture(t, filepath.Join("testdata", "table.tsv"))
	chunks, err := (&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 20, OverlapTokens: chunkers.NoOverlap}}).Chunk(t.Context(), sdk.Request{}, doc)
	if err != nil {
		t.Fatal(err)
	}
	const header = "| Region | Units | Revenue |\n|---|---|---|"
	parts := 0
	for _, c := range chunks {
		if !slices.Contains(c.ContentTypes, string(sdk.KindTable)) {
			continue
		}
		parts++
		if parts > 1 && !strings.HasPrefix(c.Content, header) {
			t.Errorf("table chunk %d, a later part of the table, does not start with the header row:\n%s", c.Position, c.Content)
		}
	}
	if parts < 2 {
		t.Errorf("the table made %d chunks, want it split into 2 or more at a 20-word budget", parts)
	}
}
