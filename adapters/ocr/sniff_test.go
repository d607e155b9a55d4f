package ocr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNotTSV(t *testing.T) {
	t.Parallel()
	header := strings.Join(tsvColumns[:], "\t")
	row := "5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t96.5\tHello"
	for _, tc := range []struct {
		name, head string
		want       string // a part of the reason; "" for none
	}{
		{"Tesseract's header", header + "\n" + row + "\n", ""},
		{"a header in another order", "text\tconf\tlevel\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\n", ""},
		{"a header after a BOM, ending in CRLF", "\uFEFF" + header + "\r\n", ""},
		{"a part of the header", "level\n", ""},
		{"a row without the header", row + "\n", ""},
		{"a row without its empty text", "1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\n", ""},
		{"empty", "", ""},
		{"a first line that does not end in the head", "path\tbytes", ""},
		{"a corpus manifest", "path\tbytes\tsha256\nen-md/a.md\t12\tab\n", `3 tab-separated fields, the first "path"`},
		{"a row of a level ReadTSV refuses", "7\t1\t1\t1\t1\t1\t10\t10\t100\t30\t96.5\tHello\n", ""},
		{"a row with too many fields", "5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t96.5\tHello\tworld\n", `13 tab-separated fields, the first "5"`},
		{"a spreadsheet", "name\tscore\nada\t3\n", "neither Tesseract's TSV header (level, page_num, …, text) nor one of its rows"},
		{"blank lines before the header", "\n \t\r\n" + header + "\n", ""},
		{"blank lines before a manifest", "\n\npath\tbytes\n", `2 tab-separated fields, the first "path"`},
		{"a long first field", strings.Repeat("é", 30) + "\tx\n", `the first "` + strings.Repeat("é", 20) + `…"`},
	} {
		got := NotTSV([]byte(tc.head))
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: NotTSV(%q) = %q, want %q", tc.name, tc.head, got, tc.want)
		}
	}
}

// Every Tesseract TSV the tests read may be TSV.
func TestNotTSVTakesTesseractsOutput(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.tsv"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/*.tsv: %v", err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if why := NotTSV(src); why != "" {
			t.Errorf("%s: NotTSV = %q, want \"\"", p, why)
		}
	}
}

// FuzzNotTSV checks that NotTSV leaves out only what ParseTSV refuses: a walk that trusts it
// loses no document.
func FuzzNotTSV(f *testing.F) {
	header := strings.Join(tsvColumns[:], "\t")
	for _, s := range []string{header + "\n5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t96.5\tHello\n", "path\tbytes\n", "\n\n", "level\n", "1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\n", "\uFEFF\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		why := NotTSV(src)
		if why == "" {
			return
		}
		if doc, err := ParseTSV(src, Options{ID: "fuzz"}); err == nil {
			t.Fatalf("NotTSV(%q) = %q, but ParseTSV reads it into %d blocks", src, why, len(doc.Blocks))
		}
	})
}
