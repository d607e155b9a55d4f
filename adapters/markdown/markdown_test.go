package markdown

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/sdk"
)

// at returns block attributes holding the source line and the key-value pairs kv.
func at(line int, kv ...any) map[string]any {
	m := map[string]any{AttrLine: line}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func heading(level, line int, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindHeading, Level: level, Text: text, Attrs: at(line)}
}

func para(line int, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindParagraph, Text: text, Attrs: at(line)}
}

func item(line int, ordered bool, marker, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindList, Text: text, Attrs: at(line, AttrOrdered, ordered, AttrMarker, marker)}
}

// parseCases are Markdown inputs with the blocks Parse must produce. FuzzParse is seeded from
// them, and every one is checked for lost words.
var parseCases = []struct {
	name string
	src  string
	want []sdk.Block
}{
	{
		name: "empty input gives no blocks",
		src:  "",
		want: nil,
	},
	{
		name: "white space only gives no blocks",
		src:  "  \n\t\n\n   ",
		want: nil,
	},
	{
		name: "nested ATX headings keep their levels and inline markup",
		src:  "# Guide\n\n## Install `go`\n\n### On *Linux* ###\n\ntext\n",
		want: []sdk.Block{
			heading(1, 1, "Guide"),
			heading(2, 3, "Install `go`"),
			heading(3, 5, "On *Linux*"),
			para(7, "text"),
		},
	},
	{
		name: "skipped heading levels are kept as written",
		src:  "# One\n#### Four\n###### Six\n####### seven hashes is a paragraph",
		want: []sdk.Block{
			heading(1, 1, "One"),
			heading(4, 2, "Four"),
			heading(6, 3, "Six"),
			para(4, "####### seven hashes is a paragraph"),
		},
	},
	{
		name: "setext headings lose their underline and keep every content line",
		src:  "Title\n=====\n\nSub\ntitle\n---\nbody\n",
		want: []sdk.Block{
			heading(1, 1, "Title"),
			heading(2, 4, "Sub\ntitle"),
			para(7, "body"),
		},
	},
	{
		name: "an empty ATX heading is dropped",
		src:  "#\n\n## ##\n\ntext",
		want: []sdk.Block{para(5, "text")},
	},
	{
		name: "paragraph lines are joined as in the source",
		src:  "  first line\n  second *line*\nthird  \n\nnext",
		want: []sdk.Block{
			para(1, "first line\nsecond *line*\nthird"),
			para(5, "next"),
		},
	},
	{
		name: "each top-level bullet item is a block with its nested items",
		src:  "- one\n- two\n  - two.a\n    - two.a.i\n- three\n  continued\n",
		want: []sdk.Block{
			item(1, false, "-", "- one"),
			item(2, false, "-", "- two\n  - two.a\n    - two.a.i"),
			item(5, false, "-", "- three\n  continued"),
		},
	},
	{
		name: "ordered list items keep their numbers and the delimiter is the marker",
		src:  "1. first\n2. second\n   1) nested\n\n10) other list\n",
		want: []sdk.Block{
			item(1, true, ".", "1. first"),
			item(2, true, ".", "2. second\n   1) nested"),
			item(5, true, ")", "10) other list"),
		},
	},
	{
		name: "an indented list is dedented consistently",
		src:  "  * a\n    * b\n  * c\n",
		want: []sdk.Block{
			item(1, false, "*", "* a\n  * b"),
			item(3, false, "*", "* c"),
		},
	},
	{
		name: "loose list items keep their inner blank lines",
		src:  "+ a\n\n  more a\n\n+ b\n",
		want: []sdk.Block{
			item(1, false, "+", "+ a\n\n  more a"),
			item(5, false, "+", "+ b"),
		},
	},
	{
		name: "a fenced code block keeps its fences and names its language",
		src:  "```go\nfunc main() {}\n```\n\n~~~\nplain\n~~~\n",
		want: []sdk.Block{
			{Kind: sdk.KindCode, Text: "```go\nfunc main() {}\n```", Attrs: at(1, AttrLanguage, "go")},
			{Kind: sdk.KindCode, Text: "~~~\nplain\n~~~", Attrs: at(5)},
		},
	},
	{
		name: "an indented fence is dedented by its own indentation",
		src:  "  ```python title=x\n  def f():\n      pass\n  ```",
		want: []sdk.Block{
			{Kind: sdk.KindCode, Text: "```python title=x\ndef f():\n    pass\n```", Attrs: at(1, AttrLanguage, "python")},
		},
	},
	{
		name: "an unclosed fence runs to the end of the document",
		src:  "```\ncode\n\n# not a heading\n",
		want: []sdk.Block{
			{Kind: sdk.KindCode, Text: "```\ncode\n\n# not a heading", Attrs: at(1)},
		},
	},
	{
		name: "indented code keeps its indentation so it stays code",
		src:  "para\n\n    x := 1\n\n      y := 2\n\nafter",
		want: []sdk.Block{
			para(1, "para"),
			{Kind: sdk.KindCode, Text: "    x := 1\n\n      y := 2", Attrs: at(3)},
			para(7, "after"),
		},
	},
	{
		name: "a table keeps its rows exactly, alignment row, escaped pipes and inline code included",
		src:  "| Name | Value |\n|:-----|------:|\n| a \\| b | `x|y` |\n| **c** | 2 |\n",
		want: []sdk.Block{
			{Kind: sdk.KindTable, Text: "| Name | Value |\n|:-----|------:|\n| a \\| b | `x|y` |\n| **c** | 2 |",
				Attrs: at(1, AttrColumns, 2, AttrRows, 2)},
		},
	},
	{
		name: "a table without outer pipes after a paragraph line is its own block",
		src:  "Intro line\na | b | c\n--|:-:|--\n1 | 2 | 3\n\nafter",
		want: []sdk.Block{
			para(1, "Intro line"),
			{Kind: sdk.KindTable, Text: "a | b | c\n--|:-:|--\n1 | 2 | 3", Attrs: at(2, AttrColumns, 3, AttrRows, 1)},
			para(6, "after"),
		},
	},
	{
		name: "a header-only table has no body rows",
		src:  "| h |\n|---|",
		want: []sdk.Block{
			{Kind: sdk.KindTable, Text: "| h |\n|---|", Attrs: at(1, AttrColumns, 1, AttrRows, 0)},
		},
	},
	{
		name: "a block quote keeps its markers, nested content and lazy lines",
		src:  "> # Quoted heading\n> text\nlazy line\n>\n> > nested\n\nafter",
		want: []sdk.Block{
			{Kind: sdk.KindQuote, Text: "> # Quoted heading\n> text\nlazy line\n>\n> > nested", Attrs: at(1)},
			para(7, "after"),
		},
	},
	{
		name: "an HTML block is a paragraph marked as HTML",
		src:  "<div class=\"note\">\n  <p>Hi</p>\n</div>\n\n<!-- a comment -->\n\ntext",
		want: []sdk.Block{
			{Kind: sdk.KindParagraph, Text: "<div class=\"note\">\n  <p>Hi</p>\n</div>", Attrs: at(1, AttrHTML, true)},
			{Kind: sdk.KindParagraph, Text: "<!-- a comment -->", Attrs: at(5, AttrHTML, true)},
			para(7, "text"),
		},
	},
	{
		name: "thematic breaks are dropped",
		src:  "above\n\n---\n\n* * *\n___\nbelow",
		want: []sdk.Block{para(1, "above"), para(7, "below")},
	},
	{
		name: "a run of link reference definitions is one paragraph",
		src:  "See [docs][1].\n\n[1]: https://example.com/docs \"Docs\"\n[2]: <https://example.com/two>\n\n[3]: /three\n",
		want: []sdk.Block{
			para(1, "See [docs][1]."),
			{Kind: sdk.KindParagraph, Text: "[1]: https://example.com/docs \"Docs\"\n[2]: <https://example.com/two>\n\n[3]: /three",
				Attrs: at(3, AttrLinkDefinitions, true)},
		},
	},
	{
		name: "link definitions that open a paragraph are split from it",
		src:  "[a]: /url\nThen text.",
		want: []sdk.Block{
			{Kind: sdk.KindParagraph, Text: "[a]: /url", Attrs: at(1, AttrLinkDefinitions, true)},
			para(2, "Then text."),
		},
	},
	{
		name: "a paragraph that starts with a footnote definition is a footnote block",
		src:  "Claim.[^1] Other.[^n]\n\n[^1]: A note\nthat goes on.\n\n    Indented more.\n\n[^n]: https://example.com/n\n\n[^a b]: no label\n\nText [^2]: not at the start",
		want: []sdk.Block{
			para(1, "Claim.[^1] Other.[^n]"),
			{Kind: sdk.KindFootnote, Text: "[^1]: A note\nthat goes on.", Attrs: at(3, AttrFootnoteLabel, "1")},
			{Kind: sdk.KindCode, Text: "    Indented more.", Attrs: at(6)},
			{Kind: sdk.KindFootnote, Text: "[^n]: https://example.com/n", Attrs: at(8, AttrLinkDefinitions, true, AttrFootnoteLabel, "n")},
			para(10, "[^a b]: no label"),
			para(12, "Text [^2]: not at the start"),
		},
	},
	{
		name: "footnotes of one word are blocks of their own, with their lazy continuation lines",
		src:  "[^1]: one\n\n[^2]: https://example.com/two\n[^3]: three\nmore of three\n\n[x]: /url\n\n[^4]: four\n[y]: /y\n\nText.",
		want: []sdk.Block{
			{Kind: sdk.KindFootnote, Text: "[^1]: one", Attrs: at(1, AttrLinkDefinitions, true, AttrFootnoteLabel, "1")},
			{Kind: sdk.KindFootnote, Text: "[^2]: https://example.com/two", Attrs: at(3, AttrLinkDefinitions, true, AttrFootnoteLabel, "2")},
			{Kind: sdk.KindFootnote, Text: "[^3]: three\nmore of three", Attrs: at(4, AttrLinkDefinitions, true, AttrFootnoteLabel, "3")},
			{Kind: sdk.KindParagraph, Text: "[x]: /url", Attrs: at(7, AttrLinkDefinitions, true)},
			{Kind: sdk.KindFootnote, Text: "[^4]: four", Attrs: at(9, AttrLinkDefinitions, true, AttrFootnoteLabel, "4")},
			{Kind: sdk.KindParagraph, Text: "[y]: /y", Attrs: at(10, AttrLinkDefinitions, true)},
			para(12, "Text."),
		},
	},
	{
		name: "CJK and emoji text is kept byte for byte",
		src:  "# 日本語の見出し 🚀\n\n中文段落，包含标点。😀👍🏽\n\n- 한국어 항목\n",
		want: []sdk.Block{
			heading(1, 1, "日本語の見出し 🚀"),
			para(3, "中文段落，包含标点。😀👍🏽"),
			item(5, false, "-", "- 한국어 항목"),
		},
	},
	{
		name: "CRLF and lone CR line endings become LF",
		src:  "# Title\r\n\r\nline one\r\nline two\rline three\r\n\r\n```\r\ncode\r\n```\r\n",
		want: []sdk.Block{
			heading(1, 1, "Title"),
			para(3, "line one\nline two\nline three"),
			{Kind: sdk.KindCode, Text: "```\ncode\n```", Attrs: at(7)},
		},
	},
	{
		name: "front matter is not a block and line numbers still count it",
		src:  "---\ntitle: Doc\ntags: [a, b]\n---\n# Heading\n",
		want: []sdk.Block{heading(1, 5, "Heading")},
	},
	{
		name: "front matter may be empty and may close with \"...\", which is not a word of the text",
		src:  "---\n...\nbody ...\n\n---\n---\n",
		want: []sdk.Block{para(3, "body ...")},
	},
	{
		name: "a leading thematic break followed by a blank line is not front matter",
		src:  "---\n\ntext\n\n---\n\nmore",
		want: []sdk.Block{para(3, "text"), para(7, "more")},
	},
	{
		name: "nesting deeper than goldmark is shown stays in its top-level block",
		src:  strings.Repeat("> ", 40) + "deep\n" + strings.Repeat("  ", 70) + "- far\n\nafter",
		want: []sdk.Block{
			{Kind: sdk.KindQuote, Text: strings.Repeat("> ", 40) + "deep\n" + strings.Repeat("  ", 70) + "- far", Attrs: at(1)},
			para(4, "after"),
		},
	},
	{
		name: "a long thematic break is still dropped",
		src:  "above\n\n" + strings.Repeat("- ", 40) + "\n\nbelow",
		want: []sdk.Block{para(1, "above"), para(5, "below")},
	},
	{
		name: "a hundred link definitions before a paragraph are one block",
		src:  strings.Repeat("[x]: /u\n", 100) + "text",
		want: []sdk.Block{
			{Kind: sdk.KindParagraph, Text: strings.Repeat("[x]: /u\n", 99) + "[x]: /u", Attrs: at(1, AttrLinkDefinitions, true)},
			para(101, "text"),
		},
	},
	{
		name: "link definitions with titles on their own lines span windows of lines",
		src:  strings.Repeat("[x]: /u\n'title'\n", 40) + "text",
		want: []sdk.Block{
			{Kind: sdk.KindParagraph, Text: strings.Repeat("[x]: /u\n'title'\n", 39) + "[x]: /u\n'title'", Attrs: at(1, AttrLinkDefinitions, true)},
			para(81, "text"),
		},
	},
	{
		name: "a byte order mark is dropped",
		src:  "\uFEFF# Title\n",
		want: []sdk.Block{heading(1, 1, "Title")},
	},
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := Parse([]byte(tc.src), Options{ID: "doc"})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tc.want, doc.Blocks, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			checkDocument(t, tc.src, doc, true)
		})
	}
}

func TestParseDocumentFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		opts Options
		want sdk.Document
	}{
		{
			name: "options reach the document and the first level-1 heading is the title",
			src:  "## Intro\n\n# First\n\n# Second\n",
			opts: Options{ID: "d1", TenantID: "t1", CorpusID: "c1"},
			want: sdk.Document{ID: "d1", TenantID: "t1", CorpusID: "c1", Title: "First"},
		},
		{
			name: "a title given in the options wins over the headings",
			src:  "# Heading\n",
			opts: Options{ID: "d2", Title: "Given"},
			want: sdk.Document{ID: "d2", Title: "Given"},
		},
		{
			name: "a document without a level-1 heading has no title",
			src:  "## Two\n\n> # quoted headings are not titles\n",
			opts: Options{ID: "d3"},
			want: sdk.Document{ID: "d3"},
		},
		{
			name: "front matter is kept raw in the metadata, its fields beside it, and its title is the title",
			src:  "---\r\ntitle: \"Doc\"\r\nlist:\r\n  - a\r\n...\r\n# Heading\r\nbody",
			opts: Options{ID: "d4"},
			want: sdk.Document{ID: "d4", Title: "Doc", Metadata: map[string]any{
				MetaFrontMatter: "title: \"Doc\"\nlist:\n  - a\n", "title": "Doc", "list": []any{"a"}}},
		},
		{
			name: "a title in the options wins over the front matter's",
			src:  "---\ntitle: Doc\ndescription: What it is.\n---\nbody",
			opts: Options{ID: "d6", Title: "Given"},
			want: sdk.Document{ID: "d6", Title: "Given", Metadata: map[string]any{
				MetaFrontMatter: "title: Doc\ndescription: What it is.\n", "title": "Doc", "description": "What it is."}},
		},
		{
			name: "front matter that is not a YAML mapping is kept raw only, and the first heading is the title",
			src:  "---\njust: [unclosed\n---\n# Heading\n",
			opts: Options{ID: "d7"},
			want: sdk.Document{ID: "d7", Title: "Heading", Metadata: map[string]any{MetaFrontMatter: "just: [unclosed\n"}},
		},
		{
			name: "an unclosed front matter block is ordinary Markdown",
			src:  "---\ntitle: x\n",
			opts: Options{ID: "d5"},
			want: sdk.Document{ID: "d5"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := Parse([]byte(tc.src), tc.opts)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tc.want, *doc, cmpopts.IgnoreFields(sdk.Document{}, "Blocks", "Source", "Footnotes")); diff != "" {
				t.Errorf("document (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInvalidUTF8(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		src        string
		wantOffset int
		wantWhere  string
	}{
		{name: "a bad byte on the first line is found", src: "ab\xffc", wantOffset: 2, wantWhere: "line 1, column 3"},
		{name: "a truncated rune on a later line is found", src: "ok\r\nfine\n# h\xe6\x97", wantOffset: 12, wantWhere: "line 3, column 4"},
		{name: "a bad byte after multi-byte runes counts columns in bytes", src: "x\n日本\x80", wantOffset: 8, wantWhere: "line 2, column 7"},
	}
	parsers := map[string]func([]byte, Options) (*sdk.Document, error){"Parse": Parse, "ParseText": ParseText}
	for _, tc := range tests {
		for name, parse := range parsers {
			t.Run(name+": "+tc.name, func(t *testing.T) {
				t.Parallel()
				doc, err := parse([]byte(tc.src), Options{ID: "bad.md"})
				if doc != nil {
					t.Errorf("got a document with the error: %+v", doc)
				}
				if !errors.Is(err, sdk.ErrInvalidInput) {
					t.Fatalf("error %v does not match sdk.ErrInvalidInput", err)
				}
				var ie *sdk.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("error %v is not an *sdk.InputError", err)
				}
				if ie.Block != -1 || ie.Offset != tc.wantOffset || ie.Document != "bad.md" {
					t.Errorf("error names document %q block %d offset %d, want \"bad.md\" -1 %d", ie.Document, ie.Block, ie.Offset, tc.wantOffset)
				}
				if !strings.Contains(err.Error(), tc.wantWhere) {
					t.Errorf("error %q does not say %q", err, tc.wantWhere)
				}
			})
		}
	}
}

func TestCRLFMatchesLF(t *testing.T) {
	t.Parallel()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lf := strings.ReplaceAll(strings.ReplaceAll(tc.src, "\r\n", "\n"), "\r", "\n")
			crlf := strings.ReplaceAll(lf, "\n", "\r\n")
			want, err := Parse([]byte(lf), Options{})
			if err != nil {
				t.Fatalf("Parse LF: %v", err)
			}
			got, err := Parse([]byte(crlf), Options{})
			if err != nil {
				t.Fatalf("Parse CRLF: %v", err)
			}
			// The source maps differ by the CRs; TestSourceMap checks them.
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(sdk.Document{}, "Source")); diff != "" {
				t.Errorf("CRLF document differs from LF (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCanonicalStartsPointAtBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := Parse([]byte(tc.src), Options{})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkCanonical(t, doc)
		})
	}
}

// checkDocument asserts what holds for every document: it validates, no block text is blank
// or holds "\r", headings have levels 1 to 6, every block has its line, the canonical offsets
// are right and no word of the source is lost. markup says src is Markdown, whose markup-only
// words may go.
func checkDocument(t *testing.T, src string, doc *sdk.Document, markup bool) {
	t.Helper()
	if err := doc.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	prevLine := 0
	for i, b := range doc.Blocks {
		if sdk.IsBlank(b.Text) {
			t.Errorf("block %d (%s) is blank: %q", i, b.Kind, b.Text)
		}
		if strings.Contains(b.Text, "\r") {
			t.Errorf("block %d (%s) holds a carriage return: %q", i, b.Kind, b.Text)
		}
		if b.Kind == sdk.KindHeading && (b.Level < 1 || b.Level > 6) {
			t.Errorf("block %d is a heading of level %d", i, b.Level)
		}
		line, ok := b.Attrs[AttrLine].(int)
		if !ok || line <= prevLine {
			t.Errorf("block %d has line %v after line %d, want a growing int", i, b.Attrs[AttrLine], prevLine)
		}
		prevLine = line
	}
	checkCanonical(t, doc)
	if lost := lostWords(src, doc, markup); len(lost) > 0 {
		t.Errorf("words of the source missing from the blocks, in order: %q", lost)
	}
}

// checkCanonical asserts that Canonical().Starts[i] points at Blocks[i].Text.
func checkCanonical(t *testing.T, doc *sdk.Document) {
	t.Helper()
	c := doc.Canonical()
	if len(c.Starts) != len(doc.Blocks) {
		t.Fatalf("%d starts for %d blocks", len(c.Starts), len(doc.Blocks))
	}
	for i, b := range doc.Blocks {
		s := c.Starts[i]
		if s < 0 || s+len(b.Text) > len(c.Text) || c.Text[s:s+len(b.Text)] != b.Text {
			t.Errorf("canonical start %d of block %d does not point at its text %q", s, i, b.Text)
		}
	}
}

// lostWords returns the words (runs of non-space) of src that are not found, in source order,
// in the document's canonical text. A front matter block, its delimiter lines included, went
// to the metadata as a whole; with markup set, words made of Markdown punctuation only
// (heading markers, underlines, breaks) may be missing.
func lostWords(src string, doc *sdk.Document, markup bool) []string {
	src = strings.TrimPrefix(src, "\uFEFF")
	if fm, ok := doc.Metadata[MetaFrontMatter].(string); ok {
		// The block is an opening "---" line, fm, and a closing "---" or "..." line. Unless
		// the source has exactly that, its words are looked for in the blocks and reported lost.
		src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
		if _, body, ok := strings.Cut(src, "\n"); ok && strings.HasPrefix(body, fm) {
			closing, rest, _ := strings.Cut(body[len(fm):], "\n")
			if c := strings.TrimRight(closing, " \t"); c == "---" || c == "..." {
				src = rest
			}
		}
	}
	canon := doc.Canonical().Text
	var lost []string
	pos := 0
	for _, w := range strings.Fields(src) {
		if markup && strings.Trim(w, "#=-*_`~>|:+") == "" {
			continue
		}
		i := strings.Index(canon[pos:], w)
		if i < 0 {
			lost = append(lost, w)
			continue
		}
		pos += i + len(w)
	}
	return lost
}
