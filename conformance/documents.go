package conformance

import (
	"fmt"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// Case is one built-in document for chunkers: a name that reads as the subject of a sentence
// ("a document with nested headings") and the document. A document that fails
// sdk.Document.Validate must be rejected with an error matching sdk.ErrInvalidInput.
type Case struct {
	Name string
	Doc  *sdk.Document
}

// Documents returns the built-in documents Chunker runs: nested and skipped heading levels,
// empty sections, a 20,000-word paragraph without punctuation, a table of 2,000 rows, a
// fenced code block of 3,000 lines, long Chinese and Japanese text, emoji sequences,
// white-space-only blocks, an empty document, a document of headings only, one 50,000-byte
// word, mixed block kinds with pages, and a block of invalid UTF-8.
//
// Every call builds new documents, so callers may keep or change them; fuzz targets seed
// their corpus from them. Their TenantID and CorpusID are "doc-tenant" and "doc-corpus", so a
// Request naming others shows whether a chunker prefers the request's.
func Documents() []Case {
	return []Case{
		{"a document with nested headings", doc("nested-headings",
			heading(1, "User guide"),
			para("This guide explains how to install and use the tool. Read it once."),
			heading(2, "Installation"),
			para("Download the archive for your platform and unpack it anywhere."),
			heading(3, "From source"),
			para("Clone the repository. Run the build. Copy the binary onto your PATH."),
			block(sdk.KindList, "- a Go toolchain\n- make\n- git"),
			heading(2, "Usage"),
			para("Run the tool with a file name. It prints the chunks it made."),
		)},
		{"a document that skips heading levels", doc("skipped-levels",
			heading(1, "Top"),
			para("Under the top heading."),
			heading(3, "Deep without a middle"),
			para("Under a third-level heading whose parent is a first-level one."),
			heading(2, "Middle after deep"),
			para("Back to the second level."),
			heading(4, "Deeper still"),
			para("Fourth level under the second."),
		)},
		{"a document with empty sections", doc("empty-sections",
			heading(1, "Chapter"),
			heading(2, "Empty section"),
			heading(2, "Another empty section"),
			heading(2, "Full section"),
			para("Only this section has a body."),
			heading(2, "Empty at the end"),
		)},
		{"a document with a 20,000-word paragraph without punctuation", doc("long-paragraph",
			heading(1, "Run-on"),
			para(runOnWords(20_000)),
		)},
		{"a document with a table of 2,000 rows", doc("giant-table",
			heading(1, "Measurements"),
			para("The table below lists every measurement."),
			block(sdk.KindTable, pipeTable(2_000)),
			para("That was the whole table."),
		)},
		{"a document with a fenced code block of 3,000 lines", doc("big-code",
			heading(1, "Listing"),
			block(sdk.KindCode, codeBlock(3_000)),
			para("The listing ends here."),
		)},
		{"a document of long Chinese and Japanese text", doc("cjk",
			heading(1, "多言語テキスト"),
			para(strings.Repeat("自然语言处理是人工智能的一个重要分支。它研究如何让计算机理解和生成人类语言。分词对于中文来说尤其重要，因为句子中没有空格。", 60)),
			heading(2, "日本語"),
			para(strings.Repeat("日本語の文章には単語の間に空白がありません。そのため、分割にはひと工夫が必要です。ひらがな、カタカナ、漢字が混ざっています。", 60)),
		)},
		{"a document of emoji sequences", doc("emoji",
			para("Emoji with modifiers: 👍🏽 👍🏿 and families 👩\u200d👩\u200d👧\u200d👦 and flags 🏳\ufe0f\u200d🌈 🇯🇵."),
			para(strings.Repeat("👩\u200d👩\u200d👧\u200d👦👍🏽🏳\ufe0f\u200d🌈❤\ufe0f", 300)),
			para(strings.Repeat("party 🎉 time ", 200)),
		)},
		{"a document with white-space-only blocks", doc("whitespace-blocks",
			para("Before the blank blocks."),
			para(" "),
			para("\n\t"),
			block(sdk.KindCode, "   \n   "),
			para("After the blank blocks."),
			para("  \t "),
		)},
		{"an empty document", doc("empty")},
		{"a document of headings only", doc("only-headings",
			heading(1, "One"),
			heading(2, "One point one"),
			heading(3, "One point one point one"),
			heading(2, "One point two"),
			heading(1, "Two"),
		)},
		{"a document with one 50,000-byte word", doc("long-word",
			para("Before the word."),
			para(strings.Repeat("x", 50_000)),
			para("After the word."),
		)},
		{"a document of mixed block kinds with pages", doc("mixed-pages",
			onPage(1, block(sdk.KindPageHeader, "ACME report — page 1")),
			onPage(1, heading(1, "Quarterly report")),
			onPage(1, para("Revenue grew in every region. Costs did not.")),
			onPage(2, block(sdk.KindTable, "| region | revenue |\n|---|---|\n| north | 10 |\n| south | 12 |")),
			onPage(2, block(sdk.KindCaption, "Table 1: revenue by region.")),
			onPage(2, block(sdk.KindList, "1. hire\n2. build\n3. ship")),
			block(sdk.KindCode, "```\nmake report\n```"),
			onPage(3, heading(2, "Outlook")),
			onPage(3, block(sdk.KindQuote, "> We expect more of the same.")),
			onPage(3, block(sdk.KindImage, "[figure: a rising line]")),
			onPage(3, block("sidebar", "A block of a kind no chunker knows is prose. <|endoftext|> is text too.")),
			onPage(4, block(sdk.KindFootnote, "[1] Figures are unaudited.")),
			onPage(4, block(sdk.KindPageFooter, "Confidential — 4")),
		)},
		{"a document with a block of invalid UTF-8", doc("invalid-utf8",
			para("A good block."),
			para("ok \xff bad"),
		)},
	}
}

func doc(id string, blocks ...sdk.Block) *sdk.Document {
	return &sdk.Document{
		ID:       id,
		TenantID: "doc-tenant",
		CorpusID: "doc-corpus",
		Title:    id,
		Blocks:   blocks,
	}
}

func block(kind sdk.BlockKind, text string) sdk.Block {
	return sdk.Block{Kind: kind, Text: text}
}

func heading(level int, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindHeading, Text: text, Level: level}
}

func para(text string) sdk.Block { return block(sdk.KindParagraph, text) }

func onPage(page int, b sdk.Block) sdk.Block {
	b.Page = page
	b.Attrs = map[string]any{"source": "conformance", "confidence": 0.9}
	return b
}

// runOnWords returns n words joined by single spaces, without punctuation.
func runOnWords(n int) string {
	words := []string{"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor"}
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(words[(i*7+i/12)%len(words)])
	}
	return sb.String()
}

// pipeTable returns a GitHub-flavoured Markdown table with a header and rows rows.
func pipeTable(rows int) string {
	var sb strings.Builder
	sb.WriteString("| id | name | value |\n|---|---|---|")
	for i := range rows {
		fmt.Fprintf(&sb, "\n| %d | item %d | %d.%02d |", i+1, i+1, i*37%1000, i%100)
	}
	return sb.String()
}

// codeBlock returns a fenced Go code block of lines lines, with a blank line now and then.
func codeBlock(lines int) string {
	var sb strings.Builder
	sb.WriteString("```go")
	for i := range lines {
		switch {
		case i%50 == 49:
			sb.WriteString("\n")
		default:
			fmt.Fprintf(&sb, "\n\tv%d := compute(v%d, %d) // step %d", i, max(i-1, 0), i*3, i)
		}
	}
	sb.WriteString("\n```")
	return sb.String()
}
