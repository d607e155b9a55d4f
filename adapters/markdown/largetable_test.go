package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestParsePartsReadsALargeTableWithoutParsingItsRows builds tables larger than largePiece
// pieces in many shapes and holds ParseParts, its parts joined, to Parse, at several piece
// sizes; and checks that the shapes whose rows nothing but the table can hold were read by
// largeTable (goldmark never saw their body), and that the others were not.
func TestParsePartsReadsALargeTableWithoutParsingItsRows(t *testing.T) {
	t.Parallel()
	rows := func(n int, row func(i int) string) string {
		var sb strings.Builder
		for i := range n {
			sb.WriteString(row(i))
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	pipe := func(i int) string { return fmt.Sprintf("| %d | text of row %d |", i, i) }
	table := "| # | text |\n|---:|---|\n" + rows(400, pipe)
	for _, tc := range []struct {
		name string
		src  string
		fast bool // read by largeTable
	}{
		{"then a paragraph", "# T\n\nBefore.\n\n" + table + "\nAfter the table.\n", true},
		{"at the end", "# T\n\n" + table, true},
		{"at the end without a line end", "# T\n\n" + strings.TrimSuffix(table, "\n"), true},
		{"then blank lines and a heading", table + "\n\n  \n# Next\n\ntext\n", true},
		{"then a list", table + "\n- item\n- item\n", true},
		{"then indented code", table + "\n    code\n", true},
		{"rows with trailing spaces", "| a | b |\n|---|---|\n" + rows(400, func(i int) string { return pipe(i) + "   " }) + "\nx\n", true},
		{"rows indented up to three spaces", "| a | b |\n|---|---|\n" + rows(400, func(i int) string { return strings.Repeat(" ", i%4) + pipe(i) }) + "\nx\n", true},
		{"after paragraph lines", "Some text\nmore text\n" + table + "\nx\n", true},
		{"a header without pipes", "a | b\n--- | ---\n" + rows(400, pipe) + "\nx\n", true},
		{"rows in code spans and escapes", "| a | b |\n|---|---|\n" + rows(400, func(i int) string { return fmt.Sprintf("| `x|y` %d | \\| |", i) }) + "\n", true},
		{"two tables", table + "\n" + table + "\nend\n", true},
		{"rows without leading pipes later", table + rows(50, func(i int) string { return fmt.Sprintf("%d | plain", i) }) + "\nx\n", true},
		{"no pipes at the ends of any row", "a | b\n--- | ---\n" + rows(400, func(i int) string { return fmt.Sprintf("cell %d | text", i) }) + "\nx\n", true},
		{"rows that are a number, or a word", table + rows(50, func(i int) string { return []string{"12", "word", "12 | x", "a\tb"}[i%4] }) + "\nx\n", true},
		{"a row that opens a list", table + "- a | b\n" + rows(10, pipe) + "\nx\n", false},
		{"a row that opens an ordered list", table + "1. a | b\n" + rows(10, pipe) + "\nx\n", false},
		{"a row that opens an ordered list at another number", table + "7) a | b\n" + rows(10, pipe) + "\nx\n", false},
		{"a row that opens a fence", table + "``` | b\n" + rows(10, pipe) + "\nx\n", false},
		{"a row that opens a quote", table + "> a | b\n" + rows(10, pipe) + "\nx\n", false},
		{"a row that opens HTML", table + "<div> | b\n" + rows(10, pipe) + "\nx\n", false},
		{"a thematic break after the rows", table + "***\n\nx\n", false},
		{"a setext underline of = after the rows", table + "===\n\nx\n", false},
		{"a row indented with a tab", table + "\t| a | b |\n" + rows(10, pipe) + "\nx\n", false},
		{"a setext underline after the rows", table + "---\n\nx\n", false},
		{"a heading right after the rows", table + "# H\n\nx\n", false},
		{"a row indented four spaces", table + "    | indented | row |\n" + rows(10, pipe) + "\nx\n", false},
		{"in a block quote", "> | a | b |\n> |---|---|\n" + rows(400, func(i int) string { return "> " + pipe(i) }) + "\nx\n", false},
		{"in a list item", "- | a | b |\n  |---|---|\n" + rows(400, func(i int) string { return "  " + pipe(i) }) + "\nx\n", false},
		{"not a table", "| a | b |\n| c | d |\n" + rows(400, pipe) + "\nx\n", false},
		{"CRLF", strings.ReplaceAll("# T\n\n"+table+"\nAfter.\n", "\n", "\r\n"), true},
	} {
		for _, size := range []int{16, 64, 256} {
			checkParts(t, tc.name, tc.src, size)
			norm, _ := normalize([]byte(tc.src))
			p := &piecer{body: norm, size: size, line: 1}
			for !p.done() {
				p.next()
			}
			if fast := p.tables > 0; fast != tc.fast {
				t.Errorf("%s at %d bytes a piece: read by largeTable %v (%d tables), want %v", tc.name, size, fast, p.tables, tc.fast)
			}
		}
	}
}

// TestParsePartsReadsTablesFollowedByAnyLine holds ParseParts to Parse on large tables whose
// body runs into lines of every kind a paragraph may meet — ones that open a block and ones
// that only continue it — drawn at random, so that a line isRow takes for a row but goldmark
// reads otherwise shows as a difference.
func TestParsePartsReadsTablesFollowedByAnyLine(t *testing.T) {
	t.Parallel()
	lines := []string{
		"| a | b |", "a | b", "12 | x", "12", "word", "1. x", "1) x", "2. x", "- x", "-", "+ x", "* x",
		"# x", "#x", "####### x", "> x", "```", "~~~", "<div>", "<span>", "***", "---", "===", "_ _ _",
		"    x", "\tx", "   | x", "", "  ", "[a]: /u", "\\| x", "`x` | y", "= x", "0 | y",
	}
	r := rand.New(rand.NewPCG(5, 9))
	for range 300 {
		var sb strings.Builder
		sb.WriteString("h | i\n--- | ---\n")
		for i := range 40 + r.IntN(40) {
			fmt.Fprintf(&sb, "row %d | text\n", i)
		}
		for range 1 + r.IntN(6) {
			sb.WriteString(lines[r.IntN(len(lines))])
			sb.WriteByte('\n')
		}
		sb.WriteString("tail | x\n")
		checkParts(t, "table then any line", sb.String(), 1+r.IntN(64))
	}
}
