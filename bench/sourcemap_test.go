package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// checkChunkSpans checks that each chunk's mapped span in text begins with the first line of
// the chunk's canonical text and ends with its last line: a chunk starts and ends inside block
// text, which the source holds as written.
func checkChunkSpans(t *testing.T, text string, doc *sdk.Document, m *SourceMap, chunks []sdk.Chunk) {
	t.Helper()
	runes := []rune(text)
	canon := doc.Canonical().Text
	for _, c := range chunks {
		s := m.Span(c.Start, c.End)
		if s.Start < 0 || s.End > len(runes) || s.Start >= s.End {
			t.Fatalf("chunk %s [%d, %d) maps to %v, outside the %d code points", c.ID, c.Start, c.End, s, len(runes))
		}
		got := string(runes[s.Start:s.End])
		lines := strings.Split(canon[c.Start:c.End], "\n")
		if !strings.HasPrefix(got, lines[0]) || !strings.HasSuffix(got, lines[len(lines)-1]) {
			t.Fatalf("chunk %s [%d, %d) maps to %v = %q,\nwhich does not start with %q and end with %q", c.ID, c.Start, c.End, s, clip(got), lines[0], lines[len(lines)-1])
		}
	}
}

func TestSourceMap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		load   Loader
		source string
		// spans maps a canonical substring (unique) to the source substring it must map to.
		spans map[string]string
	}{
		{
			name:   "heading markers and list indentation are skipped",
			load:   LoadMarkdown,
			source: "# Título ✓\n\nSome text here.\n\n- item one\n  continued\n\n## Next #\nMore.\n",
			spans: map[string]string{
				"Título ✓":                   "Título ✓",
				"Título ✓\n\nSome text":      "Título ✓\n\nSome text",
				"item one\n  continued":      "item one\n  continued",
				"Next":                       "Next",
				"here.\n\n- item one":        "here.\n\n- item one",
				"continued\n\nNext\n\nMore.": "continued\n\n## Next #\nMore.",
			},
		},
		{
			name:   "a heading whose text starts with its marker character maps past the markers",
			load:   LoadMarkdown,
			source: "## #hashtag\n\ntext\n",
			spans:  map[string]string{"#hashtag": "#hashtag"},
		},
		{
			name:   "plain text is dedented per paragraph",
			load:   LoadText,
			source: "   indented first line\n   second line\n\n\n  Another — paragraph.\n",
			spans: map[string]string{
				"indented first line\nsecond line": "indented first line\n   second line",
				"Another — paragraph.":             "Another — paragraph.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc, err := tt.load([]byte(tt.source), "doc")
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewSourceMap(tt.source, doc)
			if err != nil {
				t.Fatal(err)
			}
			canon := doc.Canonical().Text
			runes := []rune(tt.source)
			for sub, want := range tt.spans {
				i := strings.Index(canon, sub)
				if i < 0 {
					t.Fatalf("%q is not in the canonical text %q", sub, canon)
				}
				s := m.Span(i, i+len(sub))
				if got := string(runes[s.Start:s.End]); got != want {
					t.Errorf("Span of %q = %v = %q, want %q", sub, s, got, want)
				}
			}
		})
	}
}

func TestSourceMapRejectsADocumentWithoutOne(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: "alpha"}}}
	_, err := NewSourceMap("alpha\n", doc)
	if err == nil || !strings.Contains(err.Error(), `"d" has no source map`) {
		t.Errorf("NewSourceMap = %v, want an error saying the document has no source map", err)
	}
}

// TestSourceMapOfChunksOfEveryShippedDocument maps every chunk of every shipped document, as
// the heading and fixed chunkers cut them, and checks it against the file.
func TestSourceMapOfChunksOfEveryShippedDocument(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join("corpus", CorporaDir, "*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no shipped corpus: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			load, ok := loaderFor(DefaultLoaders(), path)
			if !ok {
				t.Fatalf("no loader for %s", path)
			}
			doc, err := load(src, path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewSourceMap(string(src), doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []sdk.Chunker{
				&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 40, OverlapTokens: 10}},
				&chunkers.FixedTokens{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 33, OverlapTokens: chunkers.NoOverlap}},
			} {
				chunks, err := c.Chunk(context.Background(), sdk.Request{}, doc)
				if err != nil {
					t.Fatal(err)
				}
				checkChunkSpans(t, string(src), doc, m, chunks)
			}
		})
	}
}
