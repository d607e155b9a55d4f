// Command assemble writes the two tokenizer.json files that plugins/hftokenizer/reffiles
// builds itself, gpt2.json and bert-base-uncased.json, into a directory, for the node scripts
// beside it (generate.mjs, bench.mjs):
//
//	go run ./tools/hf-golden/assemble DIR
//
// It prints the path of each file written, one a line.
package main

import (
	"fmt"
	"os"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./tools/hf-golden/assemble DIR")
		os.Exit(2)
	}
	files, err := reffiles.WriteAssembled(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "assemble:", err)
		os.Exit(1)
	}
	for _, f := range files {
		fmt.Println(f.Path)
	}
}
