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

// maxColumnWords is the most words per line, on average, of a block that may be one column of
// a table: table cells are short, while the lines of a column of prose hold five words or more.
const maxColumnWords = 3

// mergeColumns joins blocks that Tesseract cut out of one table — it sometimes makes a block
// of each column, or of each group of columns, when the gaps between them are wide. Blocks side
// by side whose short lines line up row for row are merged, row by row, into one block when the
// merged rows read as a table (findTable) from the first row to the last; other blocks are
// returned as they are, in their order, a merged block at the place of its first member.
func mergeColumns(blocks []*wblock, gap, body float64) []*wblock {
	group := make([]int, len(blocks)) // union-find parents
	for i := range group {
		group[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	merged := false
	for i := range blocks {
		for j := i + 1; j < len(blocks); j++ {
			if sideBySide(blocks[i], blocks[j]) {
				group[find(j)] = find(i)
				merged = true
			}
		}
	}
	if !merged {
		return blocks
	}
	members := map[int][]int{}
	for i := range blocks {
		members[find(i)] = append(members[find(i)], i)
	}
	replaced := map[int]*wblock{} // first member → merged block
	skip := map[int]bool{}
	for _, m := range members {
		if len(m) < 2 {
			continue
		}
		rows := mergeRows(blocks, m)
		t, ok := findTable(rows, gap, body)
		if !ok || t.first != 0 || t.last != lastWithWords(rows) {
			continue
		}
		wb := &wblock{paras: [][]*wline{rows}}
		for _, k := range m {
			wb.box = wb.box.union(blocks[k].box)
			skip[k] = true
		}
		replaced[m[0]] = wb
	}
	out := make([]*wblock, 0, len(blocks))
	for i, b := range blocks {
		switch {
		case replaced[i] != nil:
			out = append(out, replaced[i])
		case !skip[i]:
			out = append(out, b)
		}
	}
	return out
}

func lastWithWords(lines []*wline) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if len(lines[i].words) > 0 {
			return i
		}
	}
	return -1
}

// wordLines returns a block's lines that keep words.
func wordLines(b *wblock) []*wline {
	var out []*wline
	for _, p := range b.paras {
		for _, l := range p {
			if len(l.words) > 0 {
				out = append(out, l)
			}
		}
	}
	return out
}

// sideBySide reports whether a and b could be columns of one table: horizontally apart,
// overlapping vertically, at least two short lines each, and most lines of each in line with a
// line of the other.
func sideBySide(a, b *wblock) bool {
	if a.box.x1 >= b.box.x0 && b.box.x1 >= a.box.x0 {
		return false // they overlap horizontally
	}
	if yOverlap(a.box, b.box)*2 < min(a.box.height(), b.box.height()) {
		return false
	}
	la, lb := wordLines(a), wordLines(b)
	if len(la) < 2 || len(lb) < 2 || !shortLines(la) || !shortLines(lb) {
		return false
	}
	return aligned(la, lb) && aligned(lb, la)
}

func shortLines(lines []*wline) bool {
	words := 0
	for _, l := range lines {
		words += len(l.words)
	}
	return words <= maxColumnWords*len(lines)
}

// aligned reports whether at least 80% of the lines of a share a row with a line of b. It
// looks only at the lines of b that start near each line of a, so it takes time proportional
// to the lines, not to their product.
func aligned(a, b []*wline) bool {
	sorted := slices.Clone(b)
	slices.SortStableFunc(sorted, func(x, y *wline) int { return cmp.Compare(x.box.y0, y.box.y0) })
	tallest := 0
	for _, l := range b {
		tallest = max(tallest, l.box.height())
	}
	n := 0
	for _, la := range a {
		i, _ := slices.BinarySearchFunc(sorted, la.box.y0-tallest, func(l *wline, y int) int { return cmp.Compare(l.box.y0, y) })
		for ; i < len(sorted) && sorted[i].box.y0 < la.box.y1; i++ {
			if sameRow(la.box, sorted[i].box) {
				n++
				break
			}
		}
	}
	return n*5 >= len(a)*4
}

// sameRow reports whether two line boxes overlap vertically by half the shorter one or more.
func sameRow(a, b box) bool {
	return yOverlap(a, b)*2 >= min(a.height(), b.height()) && yOverlap(a, b) > 0
}

func yOverlap(a, b box) int { return max(0, min(a.y1, b.y1)-max(a.y0, b.y0)) }

// mergeRows joins the lines of blocks m into rows: lines that share a row become one line with
// their words left to right. Lines holding only dropped words follow the rows.
func mergeRows(blocks []*wblock, m []int) []*wline {
	var lines, empty []*wline
	for _, k := range m {
		for _, p := range blocks[k].paras {
			for _, l := range p {
				if len(l.words) > 0 {
					lines = append(lines, l)
				} else {
					empty = append(empty, l)
				}
			}
		}
	}
	slices.SortStableFunc(lines, func(a, b *wline) int { return cmp.Compare(a.box.y0, b.box.y0) })
	var rows []*wline
	var parts []int // lines merged into each row, for the mean size
	for _, l := range lines {
		if n := len(rows); n > 0 && sameRow(rows[n-1].box, l.box) {
			r := rows[n-1]
			r.words = append(r.words, l.words...)
			r.dropped = append(r.dropped, l.dropped...)
			r.box = r.box.union(l.box)
			r.size += l.size
			parts[n-1]++
			continue
		}
		c := *l
		c.words = slices.Clone(l.words)
		c.dropped = slices.Clone(l.dropped)
		rows = append(rows, &c)
		parts = append(parts, 1)
	}
	for i, r := range rows {
		r.size /= float64(parts[i])
		slices.SortStableFunc(r.words, func(a, b word) int { return cmp.Compare(a.box.x0, b.box.x0) })
	}
	return append(rows, empty...)
}
