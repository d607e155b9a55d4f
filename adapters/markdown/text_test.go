package markdown

import (
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/sdk"
)

// textCases are plain-text inputs with the blocks ParseText must produce. FuzzParse is seeded
// from them too.
var textCases = []struct {
	name string
	src  string
	want []sdk.Block
}{
	{name: "empty input gives no blocks", src: "", want: nil},
	{name: "blank lines only give no blocks", src: "\n \n\t\n", want: nil},
	{
		name: "runs of non-blank lines are paragraphs",
		src:  "one\ntwo\n\n\nthree\n",
		want: []sdk.Block{para(1, "one\ntwo"), para(5, "three")},
	},
	{
		name: "a line of spaces separates paragraphs",
		src:  "a\n   \nb",
		want: []sdk.Block{para(1, "a"), para(3, "b")},
	},
	{
		name: "Markdown is not interpreted",
		src:  "# not a heading\n- nor a list\n\n---\n",
		want: []sdk.Block{para(1, "# not a heading\n- nor a list"), para(4, "---")},
	},
	{
		name: "indentation of the first line is removed from the run",
		src:  "    indented\n      more\n  less\n",
		want: []sdk.Block{para(1, "indented\n  more\nless")},
	},
	{
		name: "CRLF line endings become LF",
		src:  "a\r\nb\r\n\r\nc\r\n",
		want: []sdk.Block{para(1, "a\nb"), para(4, "c")},
	},
	{
		name: "CJK and emoji text is kept",
		src:  "日本語の文。\n\n😀 emoji 👍🏽",
		want: []sdk.Block{para(1, "日本語の文。"), para(3, "😀 emoji 👍🏽")},
	},
}

func TestParseText(t *testing.T) {
	t.Parallel()
	for _, tc := range textCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := ParseText([]byte(tc.src), Options{ID: "t", Title: "Given"})
			if err != nil {
				t.Fatalf("ParseText: %v", err)
			}
			if diff := cmp.Diff(tc.want, doc.Blocks, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			if doc.ID != "t" || doc.Title != "Given" || doc.Metadata != nil {
				t.Errorf("document ID %q title %q metadata %v, want \"t\" \"Given\" nil", doc.ID, doc.Title, doc.Metadata)
			}
			checkDocument(t, tc.src, doc, false)
		})
	}
}

// TestParseTextPartsIsParseText cuts plain texts into pieces as small as ParseTextParts makes
// them and of a few kilobytes, and holds the parts joined to ParseText: the same blocks,
// attributes, lines and source map.
func TestParseTextPartsIsParseText(t *testing.T) {
	t.Parallel()
	sources := map[string]string{}
	for _, tc := range textCases {
		sources["case "+tc.name] = tc.src
	}
	for name, src := range partSources(t) {
		sources[name] = src
	}
	sources["blank lines of spaces and CRLF"] = strings.Repeat("a line\r\n  \r\n\r\nb\n\t\n", 500)
	sources["no line end at the end"] = "one\n\ntwo"
	cut := 0
	for name, src := range sources {
		for _, size := range []int{1, 4096, -1, 0} {
			if n := checkTextParts(t, name, src, size); size == 1 {
				cut += n - 1
			}
		}
	}
	if cut < 1000 {
		t.Fatalf("ParseTextParts cut %d times in all, want the texts cut at many blank lines", cut)
	}
}

// checkTextParts holds ParseTextParts, its parts joined, to ParseText, and returns how many
// parts it made.
func checkTextParts(t testing.TB, name, src string, size int) int {
	t.Helper()
	want, werr := ParseText([]byte(src), Options{ID: "doc", Title: "T"})
	doc, parts, gerr := ParseTextParts([]byte(src), Options{ID: "doc", Title: "T"}, size)
	if werr != nil || gerr != nil {
		if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
			t.Fatalf("%s: ParseText error %v, ParseTextParts error %v", name, werr, gerr)
		}
		return 0
	}
	if len(want.Source.Segments) == 0 {
		want.Source.Segments = nil
	}
	doc.Blocks, doc.Source = []sdk.Block{}, &sdk.SourceMap{}
	n := 0
	for part, err := range parts {
		if err != nil {
			t.Fatal(err)
		}
		n++
		doc.Blocks = append(doc.Blocks, part.Blocks...)
		doc.Source.Segments = append(doc.Source.Segments, part.Source.Segments...)
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Fatalf("%s: ParseTextParts at %d bytes a piece differs from ParseText (-ParseText +ParseTextParts):\n%s", name, size, diff)
	}
	return n
}

func TestParseTextPartsReportsBadUTF8(t *testing.T) {
	t.Parallel()
	_, _, err := ParseTextParts([]byte("ok\n\n\xff"), Options{ID: "bad.txt"}, 1)
	want := parseTextErr(t, "ok\n\n\xff")
	if err == nil || err.Error() != want {
		t.Fatalf("ParseTextParts error %v, want ParseText's %q", err, want)
	}
}

// ParseTextErr returns ParseText's error for src.
func parseTextErr(t *testing.T, src string) string {
	t.Helper()
	_, err := ParseText([]byte(src), Options{ID: "bad.txt"})
	if err == nil {
		t.Fatal("ParseText took bad UTF-8")
	}
	return err.Error()
}

// TestDedent checks what dedent cuts and where each line is left starting, and that a block
// with nothing to cut is the text it was given, not a copy (a 49 MB paragraph was copied once
// more for nothing).
func TestDedent(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		starts   []int
	}{
		{"one line  ", "one line", []int{0}},
		{"  one line", "one line", []int{2}},
		{"a\nb\nc\n\n", "a\nb\nc", []int{0, 2, 4}},
		{"  a\n    b\n c", "a\n  b\nc", []int{2, 6, 11}},
		{"a\n  b", "a\n  b", []int{0, 2}},
	} {
		got, starts := dedent(tc.in)
		if got != tc.want || !slices.Equal(starts, tc.starts) {
			t.Errorf("dedent(%q) = %q, %v; want %q, %v", tc.in, got, starts, tc.want, tc.starts)
		}
	}
	s := strings.Repeat("a line at the margin\n", 1000)
	if got, _ := dedent(s); unsafe.StringData(got) != unsafe.StringData(s) {
		t.Errorf("dedent copied a block with nothing to cut")
	}
}
