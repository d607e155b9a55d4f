// Command heading-eval writes a heading-rich evaluation set in Chroma's format, its questions
// generated from the documents' headings with exact offsets (bench.HeadingQuestions), so that
// nobody types an offset by hand.
//
//	go run ./tools/heading-eval -nodejs CORPUS -out DIR   # the Node.js API set, from the corpus build-corpus.sh writes
//	go run ./tools/heading-eval -shipped                  # regenerate bench/headings/questions_df.csv
//
// The Node.js set is errors.md, cli.md and deprecations.md of CORPUS/en-md/nodejs-api with
// bench.NodeJSRules; it is not ours to commit, so it goes to DIR (outside the repository).
// The shipped set's documents, bench/headings/corpora/*.md, were written for chunkkit; its
// questions come from bench.ShippedHeadingRules.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chunkkit/chunkkit/bench"
)

func main() {
	nodejs := flag.String("nodejs", "", "`CORPUS` folder built by ../shared/tools/build-corpus.sh")
	out := flag.String("out", "", "output `DIR` of the Node.js set")
	shipped := flag.Bool("shipped", false, "regenerate the questions of bench/headings from its corpora")
	flag.Parse()
	var err error
	switch {
	case *shipped:
		err = regenerateShipped("bench/headings")
	case *nodejs != "" && *out != "":
		err = writeNodeJS(*nodejs, *out)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "heading-eval:", err)
		os.Exit(1)
	}
}

func writeNodeJS(corpus, out string) error {
	docs := map[string]string{}
	var qs []bench.Question
	for _, id := range []string{"cli", "deprecations", "errors"} {
		src, err := os.ReadFile(filepath.Join(corpus, "en-md", "nodejs-api", id+".md"))
		if err != nil {
			return err
		}
		docs[id] = string(src)
		qs = append(qs, bench.HeadingQuestions(id, string(src), bench.NodeJSRules())...)
	}
	if err := bench.WriteEvalSet(out, docs, qs); err != nil {
		return err
	}
	fmt.Printf("wrote %d questions about %d documents into %s\n", len(qs), len(docs), out)
	return nil
}

func regenerateShipped(dir string) error {
	qs, err := bench.ShippedHeadingQuestions(dir)
	if err != nil {
		return err
	}
	docs := map[string]string{}
	for _, q := range qs {
		if _, ok := docs[q.Corpus]; !ok {
			src, err := os.ReadFile(filepath.Join(dir, bench.CorporaDir, q.Corpus+".md"))
			if err != nil {
				return err
			}
			docs[q.Corpus] = string(src)
		}
	}
	if err := bench.WriteEvalSet(dir, docs, qs); err != nil {
		return err
	}
	fmt.Printf("wrote %d questions about %s into %s\n", len(qs), strings.Join(keys(docs), ", "), dir)
	return nil
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
