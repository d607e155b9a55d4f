package markdown

import (
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmarkTables is newParser with goldmark's own table paragraph transformer, which makes a
// node for every row and cell: the reference tableTransformer is held to.
func goldmarkTables() parser.Parser { return newParserWith(extension.NewTableParagraphTransformer()) }

// blockTree writes the block structure the builder reads: every block node's kind, position
// and lines, and of a table its alignments, its header's cells and its body row count (not
// its body rows' nodes, which tableTransformer does not make).
func blockTree(root ast.Node) string {
	var sb strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		fmt.Fprintf(&sb, "%s%s pos=%d", strings.Repeat(" ", depth), n.Kind(), n.Pos())
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				fmt.Fprintf(&sb, " [%d,%d)", seg.Start, seg.Stop)
			}
		}
		sb.WriteString("\n")
		if t, ok := n.(*extast.Table); ok {
			fmt.Fprintf(&sb, "%s  alignments=%v body rows=%d\n", strings.Repeat(" ", depth), t.Alignments, bodyRows(t))
			if h := t.FirstChild(); h != nil {
				walk(h, depth+1)
			}
			return
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Type() == ast.TypeBlock || c.Kind() == extast.KindTableCell {
				walk(c, depth+1)
			}
		}
	}
	walk(root, 0)
	return sb.String()
}

// checkTables fails when tableTransformer and goldmark's transformer give src different block
// structures.
func checkTables(t *testing.T, src string) {
	t.Helper()
	want := blockTree(goldmarkTables().Parse(text.NewReader([]byte(src))))
	got := blockTree(newParser().Parse(text.NewReader([]byte(src))))
	if got != want {
		t.Fatalf("block structure of %q\ngoldmark's tables:\n%s\ntableTransformer:\n%s", src, want, got)
	}
}

var tableSeeds = []string{
	"| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n",
	"text before\n| a | b |\n| - | - |\n| 1 | 2 |\n\nafter\n",
	"| a | b |\n| - |\n| 1 | 2 |\n",                   // a delimiter row whose header does not match: no table
	"| a |\n---\n",                                    // a setext heading, not a table
	"a | b\n-- | --\nnot | a | row | match\n",         // body rows of any width
	"- item\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n", // in a list
	"> | a |\n> |---|\n> | x |\n",                     // in a quote
	"| `a|b` | c |\n|---|---|\n| \\| | d |\n",         // pipes in code and escaped
	"x\ny\n| a | b |\n|:--|--:|\n",                    // no body
	"| a |\n|---|\n| b |\n| c |\n\n| d |\n|---|\n",    // two tables
	"|---|\n|---|\n",
	"    | a |\n    |---|\n",
}

// TestTableTransformerFindsGoldmarksTables holds tableTransformer to goldmark's transformer
// on the seeds, and checks that it makes no nodes for body rows.
func TestTableTransformerFindsGoldmarksTables(t *testing.T) {
	for _, src := range tableSeeds {
		checkTables(t, src)
	}
	src := "| a | b |\n|---|---|\n" + strings.Repeat("| 1 | 2 |\n", 1000)
	doc := newParser().Parse(text.NewReader([]byte(src)))
	table, ok := doc.FirstChild().(*extast.Table)
	if !ok {
		t.Fatalf("no table: %s", blockTree(doc))
	}
	if n, rows := table.ChildCount(), bodyRows(table); n != 1 || rows != 1000 {
		t.Errorf("the table has %d child nodes and %d body rows; want the header alone and 1000", n, rows)
	}
}

// FuzzTableTransformer holds tableTransformer to goldmark's transformer on arbitrary input.
func FuzzTableTransformer(f *testing.F) {
	for _, s := range tableSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkTables(t, src)
	})
}
