package chunkers_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// FuzzHeadingAware feeds Markdown from the fuzzer through the Markdown adapter and checks
// every invariant of the conformance kit — EmbedText, ContentHash, the budget on EmbedText and
// cuts between words included — on what HeadingAware makes of it, at any budget, overlap and
// context mode, with headings folded or as chunks of their own, and with a title; and that
// windows (ChunkSeq) and parts (ParseParts read by ChunkParts), as small as can be, give the
// same chunks, as do plain text's parts (ParseTextParts).
func FuzzHeadingAware(f *testing.F) {
	seeds := []string{
		"# T\n\npara one. para two.\n\n## S\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |",
		"```go\nfunc main() {\n    println(1)\n    println(2)\n}\n```\n\n### deep\n\ntext",
		"# a\n### b\n# c\n\nword word word word word word word word word word word word",
		"# a\n\ntext\n\n# b\n\n<!-- c -->\n\n# d\n\n## e\n\nmore text here\n\n# f\n# g\n\nend",
		"中文句子。第二句！\n\nパッケージを管理する。コンピュータ。\n\n😀😀😀 👩‍👩‍👧 e\u0301",
		"Die Paketverwaltung läuft. Donaudampfschifffahrtsgesellschaft ist lang.",
		"   \n\n\t\n\n# \n\nx",
		"bad \xff\xfe utf8",
		"<a id=\"ERR_X\"></a>\n\n### ERR_X\n\n<!-- YAML\nadded: v1\n-->\n\nMeans x.",
		"[a]: https://example.org/a/b/c/d\n[b]: https://example.org/e/f/g/h\n[c]: https://example.org/i/j/k/l",
		"[![b](https://img.shields.io/a)](https://ci.example.org/x)\n[![c](https://img.shields.io/b)](https://ci.example.org/y)",
		"* one two three\n  * four five six\n    * seven eight nine\n* ten eleven",
		"Setext heading\nover two lines\n==============\n\nbody",
		"https://github.com/rust-lang/rust/pull/40006#issuecomment-1234567890abcdef",
	}
	for _, s := range seeds {
		f.Add(s, "Title", uint8(8), uint8(2), uint8(0), false, true)
	}
	f.Fuzz(func(t *testing.T, src, title string, maxTokens, overlap, mode uint8, headingChunks, words bool) {
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
			doc = &sdk.Document{ID: "fuzz", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: src}}}
		}
		doc.Title = title
		modes := append([]chunkers.ContextMode{chunkers.ContextDefault}, chunkers.ContextModes()...)
		c := &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: ov, Context: modes[int(mode)%len(modes)]}, HeadingChunks: headingChunks}
		req := conformance.Request()
		chunks, err := c.Chunk(context.Background(), req, doc)
		if err := conformance.CheckResult(context.Background(), doc, req, chunks, err, conformance.OptionsFor(c, counter)); err != nil {
			t.Fatal(err)
		}
		// Windows as small as can be give the chunks of the whole document at once.
		w := *c
		w.WindowBytes = 1
		windowed, werr := w.Chunk(context.Background(), req, doc)
		if (err == nil) != (werr == nil) {
			t.Fatalf("whole document: error %v; windows: error %v", err, werr)
		}
		if diff := cmp.Diff(chunks, windowed); err == nil && diff != "" {
			t.Fatalf("windows differ from the whole document (-whole +windows):\n%s", diff)
		}
		// So do the Markdown adapter's parts, as small as can be, read by ChunkParts.
		pd, parts, perr := markdown.ParseParts([]byte(src), markdown.Options{ID: "fuzz"}, 1)
		if perr != nil || err != nil {
			return
		}
		pd.Title = title
		var got []sdk.Chunk
		for ch, err := range w.ChunkParts(context.Background(), req, pd, parts) {
			if err != nil {
				t.Fatalf("ChunkParts: %v", err)
			}
			got = append(got, ch)
		}
		if len(got) == 0 {
			got = []sdk.Chunk{}
		}
		if diff := cmp.Diff(chunks, got); diff != "" {
			t.Fatalf("ChunkParts of ParseParts differs from Chunk of Parse (-Chunk +ChunkParts):\n%s", diff)
		}
		// And plain text's, read whole and in parts, windows carried across every blank line.
		td, err := markdown.ParseText([]byte(src), markdown.Options{ID: "fuzz", Title: title})
		if err != nil {
			return
		}
		whole := *c
		whole.WindowBytes = -1
		want, err := whole.Chunk(context.Background(), req, td)
		if err != nil {
			return
		}
		tp, tparts, err := markdown.ParseTextParts([]byte(src), markdown.Options{ID: "fuzz", Title: title}, 1)
		if err != nil {
			t.Fatalf("ParseTextParts: %v where ParseText took it", err)
		}
		got = []sdk.Chunk{}
		for ch, err := range w.ChunkParts(context.Background(), req, tp, tparts) {
			if err != nil {
				t.Fatalf("ChunkParts of text: %v", err)
			}
			got = append(got, ch)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("ChunkParts of ParseTextParts differs from Chunk of ParseText (-Chunk +ChunkParts):\n%s", diff)
		}
	})
}
