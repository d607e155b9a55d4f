package markdown

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// attrBodyRows is the goldmark node attribute in which tableTransformer records a table's body
// row count, since it makes no nodes for those rows.
var attrBodyRows = []byte("chunkkit-body-rows")

// tableTransformer finds GFM tables as goldmark's table paragraph transformer does, but makes
// no nodes for the rows after the delimiter row: the builder cuts a table's text from the
// source and needs only its column and body row counts, and goldmark's node per cell made a
// 50 MB table cost 2.1 GB of memory. goldmark's own transformer reads each candidate's header
// and delimiter rows (a two-line paragraph of them), so the header's cells are split as
// goldmark splits them; only the search for the delimiter row (delimiterAlignments, goldmark's
// parseDelimiter) is repeated here, because goldmark stops at a delimiter row whose header does
// not match but goes on past a line that is no delimiter row, and the two look alike from
// outside. Every line after the delimiter row is a body row, as goldmark makes it.
type tableTransformer struct{}

func (tableTransformer) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	if lines.Len() < 2 {
		return
	}
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		if delimiterAlignments(seg.Value(src)) == nil {
			continue
		}
		doc := ast.NewDocument()
		head := ast.NewParagraph()
		head.Lines().Append(lines.At(i - 1))
		head.Lines().Append(lines.At(i))
		doc.AppendChild(doc, head)
		extension.NewTableParagraphTransformer().Transform(head, reader, pc)
		table, ok := doc.LastChild().(*extast.Table)
		if !ok {
			return // the header's cells do not match the delimiter row: goldmark stops here
		}
		doc.RemoveChild(doc, table)
		table.SetPos(node.Pos()) // the paragraph's, as goldmark sets it
		table.SetAttribute(attrBodyRows, lines.Len()-i-1)
		node.Lines().SetSliced(0, i-1)
		node.Parent().InsertAfter(node.Parent(), node, table)
		if node.Lines().Len() == 0 {
			node.Parent().RemoveChild(node.Parent(), node)
		} else {
			last := node.Lines().At(i - 2)
			last.Stop-- // the paragraph's last newline, as goldmark trims it
			node.Lines().Set(i-2, last)
		}
		return
	}
}

// bodyRows returns the body row count of table n.
func bodyRows(n *extast.Table) int {
	if v, ok := n.AttributeString(string(attrBodyRows)); ok {
		return v.(int)
	}
	return n.ChildCount() - 1
}

var (
	tableDelimLeft   = regexp.MustCompile(`^\s*\:\-+\s*$`)
	tableDelimRight  = regexp.MustCompile(`^\s*\-+\:\s*$`)
	tableDelimCenter = regexp.MustCompile(`^\s*\:\-+\:\s*$`)
	tableDelimNone   = regexp.MustCompile(`^\s*\-+\s*$`)
)

// delimiterAlignments returns the alignments of line as a GFM table's delimiter row, or nil
// when it is none: goldmark's extension.tableParagraphTransformer.parseDelimiter and
// isTableDelim (goldmark v1.8.7, MIT licence, Copyright (c) 2019 Yusuke Inuzuka).
func delimiterAlignments(line []byte) []extast.Alignment {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return nil
	}
	allSep := true
	for _, b := range line {
		if b != '-' {
			allSep = false
		}
		if !(util.IsSpace(b) || b == '-' || b == '|' || b == ':') {
			return nil
		}
	}
	if allSep {
		return nil
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	var alignments []extast.Alignment
	for _, col := range cols {
		switch {
		case tableDelimLeft.Match(col):
			alignments = append(alignments, extast.AlignLeft)
		case tableDelimRight.Match(col):
			alignments = append(alignments, extast.AlignRight)
		case tableDelimCenter.Match(col):
			alignments = append(alignments, extast.AlignCenter)
		case tableDelimNone.Match(col):
			alignments = append(alignments, extast.AlignNone)
		default:
			return nil
		}
	}
	return alignments
}
