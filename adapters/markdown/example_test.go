package markdown_test

import (
	"fmt"
	"log"

	"github.com/chunkkit/chunkkit/adapters/markdown"
)

func Example() {
	src := []byte(`---
title: Install guide
---
# Install

Run the installer:

` + "```sh\n./install.sh --prefix /opt\n```" + `

- Linux
- macOS

| OS    | Supported |
|-------|:---------:|
| Linux | yes       |
`)
	doc, err := markdown.Parse(src, markdown.Options{ID: "install.md"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("title %q (front matter %q, field %q)\n", doc.Title, doc.Metadata[markdown.MetaFrontMatter], doc.Metadata["title"])
	for _, b := range doc.Blocks {
		fmt.Printf("line %d %s: %q\n", b.Attrs[markdown.AttrLine], b.Kind, b.Text)
	}
	// Output:
	// title "Install guide" (front matter "title: Install guide\n", field "Install guide")
	// line 4 heading: "Install"
	// line 6 paragraph: "Run the installer:"
	// line 8 code: "```sh\n./install.sh --prefix /opt\n```"
	// line 12 list: "- Linux"
	// line 13 list: "- macOS"
	// line 15 table: "| OS    | Supported |\n|-------|:---------:|\n| Linux | yes       |"
}

func ExampleParseText() {
	doc, err := markdown.ParseText([]byte("First paragraph,\nstill the first.\n\nSecond.\n"), markdown.Options{ID: "notes.txt"})
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range doc.Blocks {
		fmt.Printf("line %d %s: %q\n", b.Attrs[markdown.AttrLine], b.Kind, b.Text)
	}
	// Output:
	// line 1 paragraph: "First paragraph,\nstill the first."
	// line 4 paragraph: "Second."
}
