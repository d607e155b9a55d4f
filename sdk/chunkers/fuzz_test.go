package chunkers_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

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
		"Flags 🇩🇪🇫🇷🇯🇵 and ✌🏽 a\r\nCRLF line\r\nhere. 👩\u200d👩\u200d👧 again!\r\n",
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

// FuzzCutParts checks how a large block is cut into parts (splitLarge): joined, the parts are
// the text; each but the last holds at least size bytes and less than twice that, and no part
// begins inside a character; and a part ends at a line start when its last size bytes hold one
// before a character that is not white space.
func FuzzCutParts(f *testing.F) {
	f.Add("one line\nanother line\nand more lines of text\n", uint8(4))
	f.Add("words and words and words and words", uint8(3))
	f.Add("日本語の文字列には空白がない。日本語の文字列には空白がない。", uint8(5))
	f.Add("\n\n\n   \t\t\n\nx", uint8(1))
	f.Fuzz(func(t *testing.T, text string, n uint8) {
		size := int(n)%32 + utf8.UTFMax // a part's least size is far more
		parts := chunkers.CutParts(text, size)
		if got := strings.Join(parts, ""); got != text {
			t.Fatalf("parts %q join to %q, not the text", parts, got)
		}
		for i, p := range parts {
			last := i == len(parts)-1
			if !last && (len(p) < size || len(p) >= 2*size) {
				t.Fatalf("part %d of %q is %d bytes at %d a part", i, p, len(p), size)
			}
			if last && len(parts) > 1 && len(p) >= 3*size {
				t.Fatalf("the last part %q is %d bytes at %d a part", p, len(p), size)
			}
			if utf8.ValidString(text) && !utf8.ValidString(p) {
				t.Fatalf("part %d, %q, splits a character", i, p)
			}
			if !last {
				rest := strings.Join(parts[i:], "")
				for j := size + 1; j < 2*size && j < len(rest); j++ {
					if rest[j-1] == '\n' && !strings.ContainsRune(" \t\r\n", rune(rest[j])) {
						if len(p) != j {
							t.Fatalf("part %d, %q, does not end at the line start %d bytes in", i, p, j)
						}
						break
					}
				}
			}
		}
	})
}

// FuzzCutLineParts checks how a large table or code block is cut into parts (splitLarge):
// joined, the parts are the text; while more than twice size is left, a part ends after the
// first line end at or after its least length (size, and for the first one more byte than the
// header too) that something other than a line end follows within another size bytes, else
// after the first line end there that anything follows; the last part holds the rest.
func FuzzCutLineParts(f *testing.F) {
	f.Add("| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n", uint8(4), uint8(20))
	f.Add("```go\nx := 1\ny := 2\n\n\nz := 3\n```", uint8(2), uint8(6))
	f.Add("one very long line without a line end", uint8(3), uint8(0))
	f.Add("\n\n\n\n\n\n\n\nx\n\n", uint8(1), uint8(200))
	f.Fuzz(func(t *testing.T, text string, n, h uint8) {
		size := int(n)%32 + 1
		hdr := min(int(h), len(text))
		parts := chunkers.CutLineParts(text, size, hdr)
		if got := strings.Join(parts, ""); got != text {
			t.Fatalf("parts %q join to %q, not the text", parts, got)
		}
		rest := text
		for i, p := range parts {
			least := size
			if i == 0 {
				least = max(size, hdr+1)
			}
			want := len(rest) // where the part should end
			if len(rest) > 2*size {
				first, nonBreak := -1, -1
				for j := least - 1; j >= 0 && j < len(rest)-1; j++ {
					if rest[j] != '\n' {
						continue
					}
					if first < 0 {
						first = j + 1
					}
					if j+1 < least+size && rest[j+1] != '\n' && rest[j+1] != '\r' {
						nonBreak = j + 1
						break
					}
				}
				switch {
				case nonBreak >= 0:
					want = nonBreak
				case first >= 0:
					want = first
				}
			}
			if len(p) != want {
				t.Fatalf("part %d, %q, of %q is %d bytes, want %d (size %d, header %d)", i, p, rest, len(p), want, size, hdr)
			}
			rest = rest[len(p):]
		}
	})
}
