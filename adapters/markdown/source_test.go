package markdown_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

type parseFunc func([]byte, markdown.Options) (*sdk.Document, error)

func TestSourceMap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		parse parseFunc
		src   string
		// want maps a block's text to the source text its range [first mapped byte, last
		// mapped byte] covers, and the lines it is on.
		want []located
	}{
		{
			name:  "heading markers, list indentation and setext underlines are outside the ranges",
			parse: markdown.Parse,
			src:   "# Título ✓ #\n\nSome text\nhere.\n\n  - item one\n      continued\n\nNext\n----\n",
			want: []located{
				{"Título ✓", "Título ✓", 1, 1},
				{"Some text\nhere.", "Some text\nhere.", 3, 4},
				{"- item one\n    continued", "- item one\n      continued", 6, 7},
				{"Next", "Next", 9, 9},
			},
		},
		{
			name:  "CRLF endings and a byte order mark shift the source offsets, not the lines",
			parse: markdown.Parse,
			src:   "\uFEFF## Intro\r\n\r\nline one\r\nline two\r\n",
			want: []located{
				{"Intro", "Intro", 1, 1},
				{"line one\nline two", "line one\r\nline two", 3, 4},
			},
		},
		{
			name:  "front matter lines count and indented code keeps its indentation",
			parse: markdown.Parse,
			src:   "---\ntitle: T\n---\n\n    code line\n      more\n\ntext\n",
			want: []located{
				{"    code line\n      more", "    code line\n      more", 5, 6},
				{"text", "text", 8, 8},
			},
		},
		{
			name:  "plain text paragraphs are dedented by their first line",
			parse: markdown.ParseText,
			src:   "   indented first line\n   second line\n\n\n\tAnother — paragraph.\r",
			want: []located{
				{"indented first line\nsecond line", "indented first line\n   second line", 1, 2},
				{"Another — paragraph.", "Another — paragraph.", 5, 5},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := tc.parse([]byte(tc.src), markdown.Options{ID: "d"})
			if err != nil {
				t.Fatal(err)
			}
			canon := doc.Canonical()
			if len(doc.Blocks) != len(tc.want) {
				t.Fatalf("got %d blocks %+v, want %d", len(doc.Blocks), doc.Blocks, len(tc.want))
			}
			for i, w := range tc.want {
				if doc.Blocks[i].Text != w.block {
					t.Fatalf("block %d is %q, want %q", i, doc.Blocks[i].Text, w.block)
				}
				start := canon.Starts[i]
				r, ok := doc.Source.Locate(start, start+len(w.block))
				if !ok {
					t.Fatalf("block %d %q maps to nothing", i, w.block)
				}
				if got := tc.src[r.Start:r.End]; got != w.source || r.LineStart != w.lineStart || r.LineEnd != w.lineEnd {
					t.Errorf("block %d maps to %q on lines %d–%d, want %q on %d–%d", i, got, r.LineStart, r.LineEnd, w.source, w.lineStart, w.lineEnd)
				}
			}
			if _, ok := doc.Source.Locate(canon.Starts[0]+len(doc.Blocks[0].Text), canon.Starts[1]); ok {
				t.Errorf("the separator after block 0 maps to the source")
			}
		})
	}
}

type located struct {
	block, source      string
	lineStart, lineEnd int
}

// checkChunksSource chunks src as parse reads it with the default chunker at several budgets
// and checks every chunk's position with the conformance kit.
func checkChunksSource(t *testing.T, name string, src []byte, parse parseFunc) {
	t.Helper()
	doc, err := parse(src, markdown.Options{ID: name})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, budget := range []int{16, 64, 256} {
		c := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: budget}}
		chunks, err := c.Chunk(t.Context(), sdk.Request{}, doc)
		if err != nil {
			t.Fatalf("%s at %d tokens: %v", name, budget, err)
		}
		if err := conformance.CheckSource(src, chunks); err != nil {
			t.Fatalf("%s at %d tokens: %v", name, budget, err)
		}
	}
}

func TestChunkSourceRangesOfShippedFiles(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../bench/corpus/corpora/*")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../testdata/sample.md")
	if len(files) < 2 {
		t.Fatalf("found only %q: the shipped corpus is missing", files)
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		parse := parseFunc(markdown.Parse)
		if strings.HasSuffix(path, ".txt") {
			parse = markdown.ParseText
		}
		checkChunksSource(t, path, src, parse)
		crlf := strings.ReplaceAll(string(src), "\n", "\r\n")
		checkChunksSource(t, path+" with CRLF endings", []byte(crlf), parse)
	}
}

// TestChunkSourceRangesOfRealCorpus checks the corpus ../shared/tools/build-corpus.sh builds,
// named by CHUNKKIT_CORPUS: Markdown through Parse, everything else through ParseText.
func TestChunkSourceRangesOfRealCorpus(t *testing.T) {
	dir := os.Getenv("CHUNKKIT_CORPUS")
	if dir == "" {
		t.Skip("CHUNKKIT_CORPUS is not set: build a corpus with ../shared/tools/build-corpus.sh /tmp/corpus and set CHUNKKIT_CORPUS=/tmp/corpus")
	}
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("CHUNKKIT_CORPUS=%s: %v", dir, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	n := 0
	for sc.Scan() {
		rel, _, _ := strings.Cut(sc.Text(), "\t")
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		parse := parseFunc(markdown.ParseText)
		if strings.HasSuffix(rel, ".md") {
			parse = markdown.Parse
		}
		checkChunksSource(t, rel, src, parse)
		n++
	}
	if n == 0 {
		t.Fatalf("CHUNKKIT_CORPUS=%s: the manifest lists no files", dir)
	}
	t.Logf("checked the source ranges of the chunks of %d files at 16, 64 and 256 words", n)
}
