package doc2mark_test

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
)

func Example() {
	src := []byte(`[
	  {"type": "text:title", "content": "Report", "page": 1},
	  {"type": "text:normal", "content": "Revenue grew by 15% [^1].", "page": 1},
	  {"type": "text:section", "content": "Costs", "page": 2},
	  {"type": "text:normal", "content": "Costs fell.", "page": 2},
	  {"type": "text:footnote", "content": "[^1]: Internal data.", "page": 2}
	]`)
	items, err := doc2mark.ParseItems(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := doc2mark.ParseConfig(`{"max_chunk_size": 1000, "overlap": 0}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	chunks, err := doc2mark.ChunkContent(context.Background(), items, cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range chunks {
		fmt.Printf("%d %q %v pages %d-%d\n", c.ChunkIndex, c.Content, c.SectionHierarchy, *c.PageStart, *c.PageEnd)
	}
	// Output:
	// 0 "# Report\n\nRevenue grew by 15% [^1].\n\n[^1]: Internal data." [Report] pages 1-1
	// 1 "## Costs\n\nCosts fell." [Report Costs] pages 2-2
}

func ExampleParse() {
	doc, err := doc2mark.Parse([]byte(`{"pages": 2, "content": [
	  {"type": "text:section", "content": "Scope", "level": 3, "page": 2},
	  {"type": "text:footnote", "content": "[^a]: A note."}
	]}`), doc2mark.Options{ID: "report"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range doc.Blocks {
		fmt.Println(b.Kind, b.Level, b.Page, b.Attrs[doc2mark.AttrSourceType], b.Attrs[doc2mark.AttrFootnoteLabel])
	}
	fmt.Println(doc.Metadata[doc2mark.MetaPages])
	_, err = doc2mark.Parse([]byte(`[{"type": "table", "content": [["a", "b"]]}]`), doc2mark.Options{ID: "bad.json"})
	fmt.Println(err)
	// Output:
	// heading 3 2 text:section <nil>
	// footnote 0 0 text:footnote a
	// 2
	// chunkkit: invalid input: document "bad.json" field item[0].content at byte 30: want a string, got a list (line 1, column 31)
}

func ExampleCompat() {
	out, err := doc2mark.Compat(context.Background(),
		[]byte(`[{"type": "text:normal", "content": "hello"}]`), `{"max_chunk_size": 100}`, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// [
	//   {
	//     "content": "hello",
	//     "section_title": null,
	//     "section_hierarchy": [],
	//     "page_start": null,
	//     "page_end": null,
	//     "content_types": [
	//       "text:normal"
	//     ],
	//     "chunk_index": 0
	//   }
	// ]
}
