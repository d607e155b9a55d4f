package ocr

import (
	"cmp"
	"slices"
)

// readingOrder returns the indices of boxes in reading order for a left-to-right script, by
// recursive XY-cut: boxes that horizontal bands of white space separate are read top to
// bottom, and boxes within a band that vertical bands separate, left to right, each part then
// ordered the same way, so that the columns of a page are read one after the other. Bands
// that line up across two columns (their paragraphs happen to start at the same height) are
// kept together, so that each column is still read whole; a title, footer or page number
// between or under the columns stays a band of its own. Boxes that overlap in both directions
// are read by their top edge, then their left edge. Ties keep the input order, so the result
// is deterministic.
func readingOrder(boxes []box) []int {
	idx := make([]int, len(boxes))
	for i := range idx {
		idx[i] = i
	}
	return xyCut(boxes, idx, true)
}

func xyCut(boxes []box, idx []int, horizontal bool) []int {
	if len(idx) <= 1 {
		return idx
	}
	groups := cut(boxes, idx, horizontal)
	if len(groups) == 1 {
		horizontal = !horizontal
		groups = cut(boxes, idx, horizontal)
		if len(groups) == 1 {
			slices.SortStableFunc(idx, func(a, b int) int {
				return cmp.Or(cmp.Compare(boxes[a].y0, boxes[b].y0), cmp.Compare(boxes[a].x0, boxes[b].x0))
			})
			return idx
		}
	}
	out := make([]int, 0, len(idx))
	for _, g := range groups {
		out = append(out, xyCut(boxes, g, !horizontal)...)
	}
	return out
}

// cut splits idx into bands along y (horizontal) or x. Consecutive horizontal bands that are
// each split into columns, and still are together, are kept together.
func cut(boxes []box, idx []int, horizontal bool) [][]int {
	groups := bands(boxes, idx, horizontal)
	if !horizontal || len(groups) == 1 {
		return groups
	}
	columns := func(g []int) bool { return len(bands(boxes, g, false)) > 1 }
	merged := [][]int{groups[0]}
	for _, g := range groups[1:] {
		last := merged[len(merged)-1]
		if both := append(slices.Clone(last), g...); columns(last) && columns(g) && columns(both) {
			merged[len(merged)-1] = both
			continue
		}
		merged = append(merged, g)
	}
	return merged
}

// bands splits idx into groups whose extents along y (horizontal) or x do not overlap, in
// increasing order of position.
func bands(boxes []box, idx []int, horizontal bool) [][]int {
	lo := func(i int) int { return boxes[i].x0 }
	hi := func(i int) int { return boxes[i].x1 }
	if horizontal {
		lo = func(i int) int { return boxes[i].y0 }
		hi = func(i int) int { return boxes[i].y1 }
	}
	sorted := slices.Clone(idx)
	slices.SortStableFunc(sorted, func(a, b int) int { return cmp.Compare(lo(a), lo(b)) })
	var groups [][]int
	end := 0
	for k, i := range sorted {
		if k == 0 || lo(i) >= end {
			groups = append(groups, []int{i})
			end = hi(i)
			continue
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], i)
		end = max(end, hi(i))
	}
	return groups
}
