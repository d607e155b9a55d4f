package ocr

import (
	"errors"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestFormatOf(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"page.tsv":       FormatTSV,
		"scan/PAGE.HOCR": FormatHOCR,
		"regions.json":   "",
		"notes.md":       "",
		"no-extension":   "",
	} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	inputs := map[string]string{
		FormatJSON: `{"regions": [{"text": "Hello world"}]}`,
		FormatTSV:  newTSV().line(1, 1, 1, 1, 10, 100, 46, 90, "Hello world").String(),
		FormatHOCR: `<div class="ocr_page"><span class="ocrx_word">Hello</span> <span class="ocrx_word">world</span></div>`,
	}
	for _, format := range Formats() {
		t.Run("reads "+format+" with the reader of that format", func(t *testing.T) {
			t.Parallel()
			doc, err := Read(strings.NewReader(inputs[format]), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Blocks) != 1 || doc.Blocks[0].Text != "Hello world" {
				t.Errorf("blocks %+v, want one block holding %q", doc.Blocks, "Hello world")
			}
		})
	}
	t.Run("rejects an unknown format with sdk.ErrUnsupported", func(t *testing.T) {
		t.Parallel()
		if _, err := Read(strings.NewReader(""), "alto", Options{}); !errors.Is(err, sdk.ErrUnsupported) {
			t.Errorf("error %v, want sdk.ErrUnsupported", err)
		}
	})
}
