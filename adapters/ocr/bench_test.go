package ocr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

func benchRead(b *testing.B, read func(io.Reader, Options) (*sdk.Document, error), src []byte) {
	b.Helper()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := read(bytes.NewReader(src), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadTSV(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "multipage.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("two pages", func(b *testing.B) { benchRead(b, ReadTSV, src) })
	b.Run("200 synthetic pages", func(b *testing.B) { benchRead(b, ReadTSV, syntheticTSV(200)) })
}

func BenchmarkReadHOCR(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "multipage.hocr"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("two pages", func(b *testing.B) { benchRead(b, ReadHOCR, src) })
}

func BenchmarkReadJSON(b *testing.B) {
	res := Result{Engine: "bench"}
	for i := range 2000 {
		res.Regions = append(res.Regions, Region{
			Text: fmt.Sprintf("Region %d holds a sentence of ordinary length for an OCR engine to report.", i),
			BBox: &BBox{100, float64(i * 60), 2000, float64(i*60 + 50)}, Confidence: new(0.9), Page: 1 + i/40,
		})
	}
	src, err := json.Marshal(res)
	if err != nil {
		b.Fatal(err)
	}
	benchRead(b, ReadJSON, src)
}

// syntheticTSV returns pages of a heading, three paragraphs of five lines and a small table.
func syntheticTSV(pages int) []byte {
	t := newTSV()
	for p := 1; p <= pages; p++ {
		t.page(p, 2100, 3000)
		t.line(p, 1, 1, 1, 150, 200, 62, 96, fmt.Sprintf("Section %d", p))
		for k := range 3 {
			for l := range 5 {
				t.line(p, 2+k, 1, 1+l, 150, 350+k*450+l*66, 46, 95, "Water levels were lower than in the previous year at most sites")
			}
		}
		for r := range 4 {
			t.cells(p, 5, 1, 1+r, 1800+r*70, 46, 94, []int{150, 700, 1100}, []string{"North", "1,240", "18,600"})
		}
	}
	return []byte(t.String())
}
