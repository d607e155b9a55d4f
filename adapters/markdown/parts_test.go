package markdown

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// joinParts returns the document ParseParts gives, its parts joined: the blocks one after
// another and the source segments too.
func joinParts(t testing.TB, src string, pieceBytes int) (*sdk.Document, int, error) {
	t.Helper()
	doc, parts, err := ParseParts([]byte(src), Options{ID: "doc"}, pieceBytes)
	if err != nil {
		return nil, 0, err
	}
	doc.Blocks = []sdk.Block{}
	doc.Source = &sdk.SourceMap{}
	n := 0
	for part, err := range parts {
		if err != nil {
			t.Fatalf("parts: %v", err)
		}
		n++
		doc.Blocks = append(doc.Blocks, part.Blocks...)
		if part.Source != nil {
			doc.Source.Segments = append(doc.Source.Segments, part.Source.Segments...)
		}
	}
	return doc, n, nil
}

// checkParts holds ParseParts, its parts joined, to Parse, and returns how many parts it made.
func checkParts(t testing.TB, name, src string, pieceBytes int) int {
	t.Helper()
	want, werr := Parse([]byte(src), Options{ID: "doc"})
	got, n, gerr := joinParts(t, src, pieceBytes)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: Parse error %v, ParseParts error %v", name, werr, gerr)
	}
	if werr != nil {
		if werr.Error() != gerr.Error() {
			t.Fatalf("%s: Parse error %q, ParseParts error %q", name, werr, gerr)
		}
		return 0
	}
	if len(want.Source.Segments) == 0 {
		want.Source.Segments = nil
	}
	if len(got.Source.Segments) == 0 {
		got.Source.Segments = nil
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: ParseParts at %d bytes a piece differs from Parse (-Parse +ParseParts):\n%s", name, pieceBytes, diff)
	}
	return n
}

// partSources returns the Markdown this package's tests and the repository ship, and with
// CHUNKKIT_CORPUS set the corpus's English Markdown, one file each, and all of them joined.
func partSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tc := range parseCases {
		out["case "+tc.name] = tc.src
	}
	patterns := []string{"../../testdata/*.md", "../../bench/corpus/corpora/*.md", "../../sdk/chunkers/testdata/cuts/*.md"}
	if root := os.Getenv("CHUNKKIT_CORPUS"); root != "" {
		patterns = append(patterns, filepath.Join(root, "en-md", "*", "*.md"))
	} else {
		t.Log("CHUNKKIT_CORPUS is not set: the corpus's Markdown is left out (build it with ../shared/tools/build-corpus.sh)")
	}
	var joined strings.Builder
	for _, pattern := range patterns {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = string(src)
			joined.Write(src)
			joined.WriteString("\n")
		}
	}
	out["all joined"] = joined.String()
	out["all joined, CRLF"] = strings.ReplaceAll(joined.String(), "\n", "\r\n")
	return out
}

// TestParsePartsIsParse cuts every shipped Markdown document, and all of them joined, into
// pieces as small as ParseParts makes them, and into pieces of a few kilobytes, and holds the
// parts joined to Parse: the same blocks, attributes, lines and source map.
func TestParsePartsIsParse(t *testing.T) {
	t.Parallel()
	cut := 0
	for name, src := range partSources(t) {
		for _, size := range []int{1, 4096, -1, 0} {
			if n := checkParts(t, name, src, size); size == 1 {
				cut += max(n-1, 0)
			}
		}
	}
	if cut < 50 {
		t.Fatalf("ParseParts cut %d times in all, want the joined documents cut at many headings", cut)
	}
}

// TestParsePartsDoesNotCutInsideWhatHoldsTheLine checks that a heading line inside an unclosed
// fence or HTML block is not where a piece ends, and that a long fenced block is read whole.
func TestParsePartsDoesNotCutInsideWhatHoldsTheLine(t *testing.T) {
	t.Parallel()
	for name, src := range map[string]string{
		"a fence with comment lines": "# A\n\ntext\n\n```sh\n\n# comment\n\n# more\n```\n\n# B\n\nend\n",
		"an unclosed fence":          "# A\n\n~~~\n\n# x\n\n# y\n",
		"an HTML comment":            "# A\n\n<!--\n\n# not a heading\n\n-->\n\n# B\n",
		"a script block":             "<script>\n\n# x\n\n</script>\n\n# B\n",
		"a list item":                "- item\n\n  ```\n  code\n\n# B\n\nafter\n",
		"a block quote":              "> quote\n\n# B\n",
		"a title later on":           "## a\n\ntext\n\n## b\n\n# Title\n\n# Other\n",
		"front matter":               "---\ntitle: T\n---\n\n# A\n\nx\n\n# B\n",
		"setext then ATX":            "Title\n=====\n\n# B\n\nx\n",
		"empty":                      "",
		"blank lines":                "\n\n\n",
		"a long fence":               "# A\n\n```\n" + strings.Repeat("\n# line\n", 5000) + "```\n\n# B\n",
		"text lines in a fence":      "text\n\n```go\nfunc f() {\n\nreturn\n\n}\n```\n\nafter\n",
		"text lines in a comment":    "text\n\n<!--\n\nnot a paragraph\n\nnor this\n-->\n\nafter\n",
		"text lines in a list item":  "- item\n\n  more of it\n\nnot of it\n\n1. one\n\n2. two\n\nend\n",
		"a paragraph made a heading": "text\n\nTitle\n=====\n\nbody\n\nTable | x\n--- | ---\na | b\n",
		"non-ASCII paragraphs":       "日本語の文。\n\nÉcrit en français.\n\n😀 emoji\n",
		"a title far in":             strings.Repeat("para text\n\n", 50) + "# Title\n\nbody\n",
		"a title underlined far in":  strings.Repeat("para text\n\n", 50) + "Title\n===\n\nbody\n",
		"no title, a line like one":  strings.Repeat("para text\n\n", 50) + "```\n# not a title\n```\n\nend\n",
	} {
		checkParts(t, name, src, 1)
	}
}

// TestParsePartsCutsDocumentsWithoutHeadings checks that Markdown without headings is cut
// into pieces too, at paragraphs, and the parts joined are still Parse's.
func TestParsePartsCutsDocumentsWithoutHeadings(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&src, "Paragraph %d of a document without headings.\nIts second line.\n\n", i)
		if i%10 == 0 {
			src.WriteString("- a list\n- of items\n\n```\ncode\n\nmore code\n```\n\n")
		}
	}
	for _, size := range []int{1, 4096} {
		if n, want := checkParts(t, "no headings", src.String(), size), src.Len()/max(size, 400)/2; n < want {
			t.Errorf("%d parts at %d bytes a piece of %d bytes without headings, want %d or more", n, size, src.Len(), want)
		}
	}
}
