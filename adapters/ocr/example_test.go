package ocr_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/chunkkit/chunkkit/adapters/ocr"
	"github.com/chunkkit/chunkkit/sdk"
)

func ExampleReadJSON() {
	src := `{
  "engine": "my-ocr 2.1",
  "pages": [{"number": 1, "width": 2480, "height": 3508}],
  "regions": [
    {"text": "Quarterly report", "bbox": [120, 80, 1400, 160], "confidence": 0.97, "page": 1, "kind": "heading"},
    {"text": "Sales rose in every region.", "bbox": [120, 200, 2300, 260], "confidence": 0.91, "page": 1}
  ]
}`
	doc, err := ocr.ReadJSON(strings.NewReader(src), ocr.Options{ID: "report.json"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("title %q\n", doc.Title)
	for _, b := range doc.Blocks {
		fmt.Printf("page %d %s %q engine %v confidence %v bbox %v\n", b.Page, b.Kind, b.Text,
			b.Attrs[ocr.AttrEngine], b.Attrs[ocr.AttrConfidence], b.Attrs[ocr.AttrBBox])
	}
	// Output:
	// title "Quarterly report"
	// page 1 heading "Quarterly report" engine my-ocr 2.1 confidence 0.97 bbox [120 80 1400 160]
	// page 1 paragraph "Sales rose in every region." engine my-ocr 2.1 confidence 0.91 bbox [120 200 2300 260]
}

func ExampleFromResult() {
	res := &ocr.Result{
		Engine: "my-ocr 2.1",
		Regions: []ocr.Region{
			{Text: "Invoice 2024-117", Kind: sdk.KindHeading, Page: 1, Confidence: new(0.98)},
			{Text: "Total due: 1,240.00 EUR", Page: 1, BBox: &ocr.BBox{100, 900, 1200, 960}, Confidence: new(0.88)},
			{Text: "illegible stamp", Page: 1, Confidence: new(0.31)},
		},
	}
	doc, err := ocr.FromResult(res, ocr.Options{ID: "invoice", MinConfidence: 0.5})
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range doc.Blocks {
		fmt.Printf("%s %q\n", b.Kind, b.Text)
	}
	fmt.Println("dropped:", doc.Metadata[ocr.MetaDropped].(sdk.PageEntries).Entries)
	// Output:
	// heading "Invoice 2024-117"
	// paragraph "Total due: 1,240.00 EUR"
	// dropped: [map[ocr_confidence:0.31 page:1 text:illegible stamp]]
}

func ExampleReadTSV() {
	// Two lines of Tesseract TSV output (tesseract page.png out tsv), trimmed to the word rows:
	// a heading in 20 pt type and a line of 11 pt body text.
	src := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"5\t1\t1\t1\t1\t1\t150\t150\t330\t62\t96.5\tFindings\n" +
		"5\t1\t2\t1\t1\t1\t150\t300\t200\t34\t95.1\tNitrate\n" +
		"5\t1\t2\t1\t1\t2\t366\t311\t66\t34\t-1\tfell\n" +
		"5\t1\t2\t1\t1\t3\t446\t300\t40\t34\t91.0\tat\n" +
		"5\t1\t2\t1\t1\t4\t500\t300\t140\t45\t92.4\teight\n" +
		"5\t1\t2\t1\t1\t5\t654\t300\t120\t34\t90.2\tsites.\n"
	doc, err := ocr.ReadTSV(strings.NewReader(src), ocr.Options{ID: "page.tsv"})
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range doc.Blocks {
		fmt.Printf("%s %d %q confidence %v bbox %v\n", b.Kind, b.Level, b.Text, b.Attrs[ocr.AttrConfidence], b.Attrs[ocr.AttrBBox])
	}
	// Output:
	// heading 1 "Findings" confidence 0.965 bbox [150 150 480 212]
	// paragraph 0 "Nitrate fell at eight sites." confidence 0.9218 bbox [150 300 774 345]
}
