package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestChunkReadsEveryInputFormat chunks one shipped document of each format through the
// command line and checks the blocks reached the chunks: pages where the format has them,
// provenance in metadata, and no body chunk over the budget.
func TestChunkReadsEveryInputFormat(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		contains string
		pages    bool
		bboxes   bool
	}{
		{"Tesseract TSV by its extension", []string{"../../adapters/ocr/testdata/report.tsv"}, "Quarterly Field Report", true, true},
		{"hOCR by its extension", []string{"../../adapters/ocr/testdata/table.hocr"}, "| Region | Units | Revenue |", true, true},
		{"doc2mark json_content by its extension", []string{"../../testdata/report.json"}, "Lamp and Optics", true, false},
		{"plain text when asked", []string{"../../testdata/sample.md", "--from", "txt"}, "# Harbor Light Station", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"chunk", "--format", "jsonl", "--max-tokens", "64", "--strategy", "sections"}, tc.args...)
			stdout, stderr, code := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, jsonString(tc.contains)) {
				t.Errorf("no chunk holds %q", tc.contains)
			}
			sawPage, sawBBox := false, false
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				var c struct {
					Kind       string `json:"kind"`
					TokenCount int    `json:"token_count"`
					PageStart  int    `json:"page_start"`
					PageEnd    int    `json:"page_end"`
					Metadata   struct {
						BBoxes []struct {
							Page int        `json:"page"`
							BBox [4]float64 `json:"bbox"`
						} `json:"bboxes"`
					} `json:"metadata"`
				}
				if err := json.Unmarshal([]byte(line), &c); err != nil {
					t.Fatal(err)
				}
				if c.Kind == "body" && c.TokenCount > 64 {
					t.Errorf("a body chunk of %d tokens exceeds 64", c.TokenCount)
				}
				if c.PageStart > 0 {
					sawPage = true
				}
				for _, bb := range c.Metadata.BBoxes {
					sawBBox = true
					if bb.Page < c.PageStart || bb.Page > c.PageEnd || bb.BBox[2] <= bb.BBox[0] || bb.BBox[3] <= bb.BBox[1] {
						t.Errorf("bbox %+v does not fit pages %d..%d", bb, c.PageStart, c.PageEnd)
					}
				}
			}
			if sawPage != tc.pages || sawBBox != tc.bboxes {
				t.Errorf("chunks with a page: %v, with bounding boxes: %v; want %v and %v", sawPage, sawBBox, tc.pages, tc.bboxes)
			}
		})
	}
}

// jsonString returns s as it appears inside a JSON string, without the quotes.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
