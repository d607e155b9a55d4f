package bench

import (
	"context"
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// FuzzSourceMap parses any text as Markdown and as plain text, chunks it, and checks that
// every chunk maps back into the text (see checkChunkSpans and conformance.CheckSource); the
// map must never fail on what the adapters produce.
func FuzzSourceMap(f *testing.F) {
	for _, seed := range []string{
		"# Título ✓\n\nSome text here.\n\n- item one\n  continued\n\n## Next #\nMore.\n",
		"## #hashtag\n\ntext\n",
		"   indented first line\n   second line\n\n\n  Another — paragraph.\n",
		"| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc f() {}\n```\n\n> quote\n> more\n",
		"Title\n=====\n\n    code\n\n* a\n    * b\n\n---\n\ntext",
		"---\nfront: matter\n---\n# H\n\n<div>\nhtml\n</div>\n\n[x]: http://example.com\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		src = universalNewlines(src)
		for _, load := range []Loader{LoadMarkdown, LoadText} {
			doc, err := load([]byte(src), "fuzz")
			if err != nil {
				return // invalid UTF-8: the adapters refuse it, and so does LoadEvalSet
			}
			m, err := NewSourceMap(src, doc)
			if err != nil {
				t.Fatalf("NewSourceMap: %v\nsource %q", err, src)
			}
			chunks, err := (&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: 2}}).Chunk(context.Background(), sdk.Request{}, doc)
			if err != nil {
				t.Fatal(err)
			}
			checkChunkSpans(t, src, doc, m, chunks)
			if err := conformance.CheckSource([]byte(src), chunks); err != nil {
				t.Fatalf("%v\nsource %q", err, src)
			}
		}
	})
}
