package chunkers_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// FuzzSections feeds Markdown from the fuzzer through the Markdown adapter, turns blocks that
// start with a footnote definition ("[^label]:") into footnote blocks, and checks every
// invariant of the conformance kit on what Sections makes of it, at any budget, overlap and
// split level.
func FuzzSections(f *testing.F) {
	seeds := []string{
		"# T\n\npara one. para two.\n\n## S\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"```go\nfunc main() {}\n```\n\n### deep\n\ntext",
		"# a\n### b\n# c\n\n" + "word " + "word word word word word word word word word word word word",
		"中文句子。第二句！\n\n😀😀😀 👩‍👩‍👧 e\u0301",
		"   \n\n\t\n\n# \n\nx",
		"bad \xff\xfe utf8",
		"Preface.\n\n# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n### Deep\n\nDeep text.\n\n## Use\n\nUse text.",
		"## A\n\na\n\n## B\n\nb\n\n# C\n\n## D",
		"# T\n\nBody [^1] here.\n\n# U\n\nMore [^1].\n\n[^1]: The note.",
		"# Notes\n\n[^x]: early\n\n# Body\n\nsee [^x] and [^y]\n\n[^y]: late one two three four five six seven eight",
		"# H\n\nw1 w2 w3 w4 w5 w6 w7 w8\n\nx1 x2\n\ny1 y2 y3 y4 y5\n\n# K\n\nz1 z2",
		"text [^2]: not a reference\n\n[^2]: orphan\n\n[^]: empty [^ ] [^a b] [^^]",
		"# A\n\nsee [^1]\n\n# B\n\n[^1]: first\n\n# C\n\nagain [^1] [^2]\n\n[^1]: again\n\n[^2]: two",
		"# A\n\n`[^1]` ``a ` [^1]`` [^1\n\n```\n[^1]\n```\n\n# B\n\n[^1]: note",
		"[^1]: before\n\n# A\n\n[^1] and [^1]\n\n# B\n\n[^1]: dup [^1]",
		// Footnotes and references where the Markdown adapter cuts the text it keeps (the scan
		// of the input must see all of them): quotes, lists, tables, headings, front matter.
		"> [^q]: quoted note\n\n# A\n\n> see [^q]\n> and [^r]\n\n- [^r]: listed\n- item [^q]",
		"1. [^o]: ordered\n\n# B\n\n| a | [^o] |\n|---|---|\n| [^t]: | x [^t] |\n\n[^t]: after",
		"---\ntitle: [^f]\n---\n# H [^h]\n\nSetext [^s]\n===\n\n[^h]: heading note\n\n[^s]: s",
		"# A\n\n    [^i]: indented code\n\ntext [^i]\n\n[^i]: a note\n    continued [^j]\n\n[^j]: https://j.example\nlazy",
		"# A\r\n\r\nsee [^c]\r\n\r\n[^c]: crlf\r\n\r\n<div>\n[^c] [^d]\n</div>\n\n[^d]: html",
		"\uFEFF# A\n\n[^a]: one\n[^b]: two\n\nsee [^b] [^a] [^a-z] [^nowhere]",
	}
	for _, s := range seeds {
		f.Add(s, uint8(8), uint8(2), uint8(2), true)
	}
	f.Fuzz(func(t *testing.T, src string, maxTokens, overlap, level uint8, words bool) {
		budget := int(maxTokens%64) + 2
		ov := int(overlap) % budget
		if ov == 0 {
			ov = chunkers.NoOverlap
		}
		var counter sdk.TokenCounter = sdk.Runes{}
		if words {
			counter = sdk.Words{}
		}
		doc, err := markdown.Parse([]byte(src), markdown.Options{ID: "fuzz"})
		if err != nil {
			// Invalid UTF-8 is refused by the adapter; the chunker must refuse it too.
			doc = &sdk.Document{ID: "fuzz", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: src}, {Kind: sdk.KindFootnote, Text: "[^1]: " + src}}}
		}
		for i, b := range doc.Blocks {
			if strings.HasPrefix(b.Text, "[^") {
				doc.Blocks[i].Kind = sdk.KindFootnote
			}
		}
		c := &chunkers.Sections{Config: chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: ov}, SplitLevel: int(level%5) - 1}
		req := conformance.Request()
		chunks, err := c.Chunk(context.Background(), req, doc)
		if err := conformance.CheckResult(context.Background(), doc, req, chunks, err, conformance.OptionsFor(c, counter)); err != nil {
			t.Fatal(err)
		}
		checkFootnoteLinks(t, chunks)
		// Windows as small as can be give the chunks of one window (see sections_stream.go).
		if err == nil {
			small, whole := *c, *c
			small.WindowBytes, whole.WindowBytes = 1, -1
			want, err := whole.Chunk(context.Background(), req, doc)
			if err != nil {
				t.Fatal(err)
			}
			got, err := small.Chunk(context.Background(), req, doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("windows of one section each differ from the whole document (-whole +windows):\n%s", diff)
			}
		}
		// Read in parts, the Markdown document is chunked as whole: what the scan of its input
		// says of its footnotes (sdk.FootnoteScan) lets no chunk go before its links are final.
		if doc, err := markdown.Parse([]byte(src), markdown.Options{ID: "fuzz"}); err == nil {
			small, whole := *c, *c
			small.WindowBytes, whole.WindowBytes = 1, -1
			want, err := whole.Chunk(context.Background(), req, doc)
			if err == nil {
				if len(want) == 0 {
					want = nil // as ChunkParts collects none
				}
				checkChunkParts(t, "parts", &small, src, "fuzz", 1, want)
			}
		}
	})
}

// checkFootnoteLinks checks that a footnote chunk's parent references its label and that the
// chunks a chunk lists as holding its footnotes exist and come from a footnote's text.
func checkFootnoteLinks(t *testing.T, chunks []sdk.Chunk) {
	t.Helper()
	byID := map[string]sdk.Chunk{}
	for _, c := range chunks {
		byID[c.ID] = c
	}
	for _, c := range chunks {
		if label, ok := c.Metadata[chunkers.MetaFootnoteLabel].(string); ok && c.ParentID != "" {
			if !strings.Contains(byID[c.ParentID].Content, "[^"+label+"]") {
				t.Errorf("chunk %d holds footnote %q, but its parent %s does not reference it: %q", c.Position, label, c.ParentID, byID[c.ParentID].Content)
			}
		}
		ids, _ := c.Metadata[chunkers.MetaFootnotes].([]string)
		for _, id := range ids {
			if _, ok := byID[id]; !ok || id == c.ID {
				t.Errorf("chunk %d lists footnote chunk %q, which is not another chunk", c.Position, id)
			}
		}
	}
}
