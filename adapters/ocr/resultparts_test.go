package ocr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkPartsAsWhole checks that ParseJSONParts of src, its blocks gathered from its parts,
// makes the document ReadJSON makes, or fails with the same error, at partBytes of 1 (every
// result read a region at a time), 64 and the default, with and without a MinConfidence; and
// that the parts hold at least partBytes of text each but the last.
func checkPartsAsWhole(t *testing.T, src string) {
	t.Helper()
	for _, minConf := range []float64{0, 0.5} {
		opts := Options{ID: "r.json", MinConfidence: minConf}
		want, wantErr := ReadJSON(strings.NewReader(src), opts)
		for _, size := range []int{1, 64, 0} {
			doc, parts, err := ParseJSONParts([]byte(src), opts, size)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("part bytes %d, MinConfidence %v: error %v, ReadJSON's %v", size, minConf, err, wantErr)
			}
			if err != nil {
				continue
			}
			if doc.Blocks != nil {
				t.Fatalf("part bytes %d: the document holds %d blocks; they come in parts", size, len(doc.Blocks))
			}
			var sizes []int
			for p, err := range parts {
				if err != nil {
					t.Fatalf("part bytes %d: a part: %v", size, err)
				}
				n := 0
				for _, b := range p.Blocks {
					n += len(b.Text)
				}
				sizes = append(sizes, n)
				doc.Blocks = append(doc.Blocks, p.Blocks...)
			}
			if !cmp.Equal(want, doc) {
				t.Fatalf("part bytes %d, MinConfidence %v: the parts differ from ReadJSON's document:\n%s", size, minConf, cmp.Diff(want, doc))
			}
			for k, n := range sizes {
				if least := max(size, 1); k < len(sizes)-1 && n < least && len(src) > 4*least {
					t.Fatalf("part bytes %d: part %d of %v holds %d bytes of text", size, k, sizes, n)
				}
			}
		}
	}
}

func TestParseJSONPartsIsReadJSON(t *testing.T) {
	srcs := map[string]string{}
	for _, tc := range jsonCases {
		srcs[tc.name] = tc.src
	}
	for _, tc := range jsonErrorCases {
		srcs[tc.name] = tc.src
	}
	for name, src := range map[string]string{
		"a field named twice is read whole":                    `{"regions": [{"text": "first"}], "regions": [{"text": "last"}]}`,
		"a field spelt otherwise is read whole":                `{"Regions": [{"text": "Title", "kind": "heading"}], "ENGINE": "e"}`,
		"the engine after the regions names them":              `{"regions": [{"text": "a"}, {"text": "b", "engine": "own"}], "engine": "late"}`,
		"pages after the regions":                              `{"regions": [{"text": "a", "page": 2}], "pages": [{"number": 2, "width": 10, "height": 20}]}`,
		"a bad page after the regions":                         `{"regions": [{"text": "a"}], "pages": [{"number": -1}]}`,
		"a bad region after a good one":                        `{"regions": [{"text": "a"}, {"text": "b", "confidence": 7}]}`,
		"a title from the first level-1 heading kept":          `{"regions": [{"text": "low", "kind": "heading", "confidence": 0.1}, {"text": "Sub", "kind": "heading", "level": 2}, {"text": "Top", "kind": "heading"}]}`,
		"null regions":                                         `{"engine": null, "pages": null, "regions": null}`,
		"regions that are not a list":                          `{"regions": {"text": "a"}}`,
		"data after the object":                                `{"regions": []} {}`,
		"an unknown field in a region":                         `{"regions": [{"text": "a", "confidnce": 0.5}]}`,
		"no regions field":                                     `{"engine": "e"}`,
		"many regions, blank ones and dropped ones among them": manyRegions(200),
	} {
		srcs[name] = src
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) { checkPartsAsWhole(t, src) })
	}
}

// manyRegions returns a result of n regions over n/10 pages, some blank, some of low
// confidence, some headings.
func manyRegions(n int) string {
	var sb strings.Builder
	sb.WriteString(`{"engine": "test 1", "pages": [`)
	for p := 1; p <= n/10; p++ {
		if p > 1 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"number": %d, "width": 1000, "height": 1400}`, p)
	}
	sb.WriteString(`], "regions": [`)
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		text, kind := fmt.Sprintf("Region %d says something about page %d.", i, i/10+1), ""
		switch {
		case i%17 == 0:
			text = "   "
		case i%10 == 0:
			kind = `, "kind": "heading", "level": 2`
		}
		fmt.Fprintf(&sb, `{"text": %q, "bbox": [10, %d, 900, %d], "confidence": %.2f, "page": %d%s}`, text, i%10*100, i%10*100+80, float64(i%7)/6, i/10+1, kind)
	}
	sb.WriteString("]}")
	return sb.String()
}

// TestParseJSONPartsReadsARegionAtATime: a result of many regions comes in many parts of
// about partBytes each, with the metadata on the Document before any part is read.
func TestParseJSONPartsReadsARegionAtATime(t *testing.T) {
	src := manyRegions(2000)
	doc, parts, err := ParseJSONParts([]byte(src), Options{ID: "r.json", MinConfidence: 0.5}, 1024)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Metadata[MetaPages] == nil || doc.Metadata[MetaDropped] == nil {
		t.Fatalf("the document's metadata before its parts: %v", doc.Metadata)
	}
	n, text := 0, 0
	for p, err := range parts {
		if err != nil {
			t.Fatal(err)
		}
		n++
		for _, b := range p.Blocks {
			text += len(b.Text)
		}
	}
	if n < 10 || n < text/(2*1024) {
		t.Errorf("%d parts of %d bytes of text at 1 KiB a part", n, text)
	}
	stopped := 0
	for range parts {
		stopped++
		break
	}
	if stopped != 1 {
		t.Errorf("breaking out of parts read %d parts", stopped)
	}
}
