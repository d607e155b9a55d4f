package ocr

import (
	"cmp"
	"slices"
	"strings"
)

// table is a run of lines of one block read as a table.
type table struct {
	first, last int        // the lines [first, last] of the block
	columns     int        // column count
	rows        [][]string // cells per row, the first row the header
}

// span is a horizontal extent [x0, x1].
type span struct{ x0, x1 int }

// findTable looks for a table among a block's lines: rows whose words fall into cells
// separated by gaps of at least gap times the line's font size (body when the line has none),
// with the cells of all rows lining up in the same columns. The table runs from the first to
// the last line with two cells or more; at least two such lines are needed, they must be at
// least half the run, and every one must put its cells into distinct columns. Lines of one
// cell inside the run are rows too, their cell in the column it overlaps.
func findTable(lines []*wline, gap, body float64) (table, bool) {
	cells := make([][][]word, len(lines))
	first, last, multi := -1, -1, 0
	for i, l := range lines {
		size := l.size
		if size <= 0 {
			size = body
		}
		cells[i] = splitCells(l.words, gap*size)
		if len(cells[i]) >= 2 {
			if first < 0 {
				first = i
			}
			last = i
			multi++
		}
	}
	if multi < 2 || 2*multi < last-first+1 {
		return table{}, false
	}
	var spans []span
	for _, row := range cells[first : last+1] {
		if len(row) < 2 {
			continue
		}
		for _, c := range row {
			spans = append(spans, cellSpan(c))
		}
	}
	cols := mergeSpans(spans)
	if len(cols) < 2 {
		return table{}, false
	}
	t := table{first: first, last: last, columns: len(cols)}
	for _, row := range cells[first : last+1] {
		if len(row) == 0 {
			continue // a line of dropped words only
		}
		out := make([]string, len(cols))
		prev := -1
		for _, c := range row {
			k := columnOf(cols, cellSpan(c))
			if len(row) >= 2 && k <= prev {
				return table{}, false // two cells of a row in one column: not aligned
			}
			prev = k
			text := escapeCell(joinWords(c))
			if out[k] != "" {
				text = out[k] + " " + text
			}
			out[k] = text
		}
		t.rows = append(t.rows, out)
	}
	return t, len(t.rows) >= 2
}

// splitCells groups a line's words into cells at gaps of minGap pixels or more.
func splitCells(words []word, minGap float64) [][]word {
	var cells [][]word
	for i, w := range words {
		if i == 0 || float64(w.box.x0-words[i-1].box.x1) < minGap {
			if i == 0 {
				cells = append(cells, nil)
			}
			cells[len(cells)-1] = append(cells[len(cells)-1], w)
			continue
		}
		cells = append(cells, []word{w})
	}
	return cells
}

func cellSpan(c []word) span {
	s := span{c[0].box.x0, c[0].box.x1}
	for _, w := range c[1:] {
		s.x0, s.x1 = min(s.x0, w.box.x0), max(s.x1, w.box.x1)
	}
	return s
}

// mergeSpans merges overlapping spans into columns, left to right.
func mergeSpans(spans []span) []span {
	sortSpans(spans)
	var cols []span
	for _, s := range spans {
		if n := len(cols); n > 0 && s.x0 <= cols[n-1].x1 {
			cols[n-1].x1 = max(cols[n-1].x1, s.x1)
			continue
		}
		cols = append(cols, s)
	}
	return cols
}

func sortSpans(spans []span) {
	slices.SortStableFunc(spans, func(a, b span) int { return cmp.Compare(a.x0, b.x0) })
}

// columnOf returns the column that overlaps s most, or the nearest one.
func columnOf(cols []span, s span) int {
	best, bestScore := 0, -1<<62
	for k, c := range cols {
		score := min(c.x1, s.x1) - max(c.x0, s.x0) // overlap, negative for a distance
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// render writes the table as a GitHub pipe table: the first row as header, a delimiter row,
// then the body rows, so that chunkers repeat the header on every part of a split table.
func (t table) render() string {
	var sb strings.Builder
	row := func(cells []string) {
		sb.WriteString("|")
		for _, c := range cells {
			sb.WriteString(" ")
			sb.WriteString(c)
			sb.WriteString(" |")
		}
	}
	row(t.rows[0])
	sb.WriteString("\n|")
	for range t.rows[0] {
		sb.WriteString("---|")
	}
	for _, r := range t.rows[1:] {
		sb.WriteString("\n")
		row(r)
	}
	return sb.String()
}
