package ocr

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadingOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		boxes []box
		want  []int
	}{
		{"no boxes give no order", nil, []int{}},
		{"a column is read top to bottom", []box{{0, 300, 100, 400}, {0, 0, 100, 100}, {0, 150, 100, 250}}, []int{1, 2, 0}},
		{"two columns under a title are read column by column, even when their paragraphs line up", []box{
			{600, 200, 1000, 300}, // right, top
			{0, 200, 400, 300},    // left, top
			{0, 0, 1000, 100},     // title across
			{600, 350, 1000, 450}, // right, bottom
			{0, 350, 400, 450},    // left, bottom
			{0, 500, 1000, 600},   // footer across
		}, []int{2, 1, 4, 0, 3, 5}},
		{"a page number centred under two columns comes after both", []box{
			{1100, 100, 1950, 800}, // right column
			{1030, 900, 1070, 950}, // page number, in line with the gutter
			{150, 100, 800, 800},   // left column
		}, []int{2, 0, 1}},
		{"a column of paragraphs beside a page number is read top to bottom", []box{
			{150, 900, 1900, 1000},   // paragraph 3
			{150, 100, 1900, 500},    // paragraph 1
			{150, 550, 1900, 850},    // paragraph 2
			{1800, 1100, 1900, 1150}, // page number
		}, []int{1, 2, 0, 3}},
		{"boxes overlapping both ways are read by top, then left edge", []box{{50, 10, 200, 100}, {0, 10, 150, 100}, {0, 0, 300, 50}}, []int{2, 1, 0}},
		{"equal boxes keep their input order", []box{{0, 0, 10, 10}, {0, 0, 10, 10}}, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, readingOrder(tc.boxes)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
