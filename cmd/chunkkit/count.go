package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// countCmd counts the tokens of standard input: the whole text, or with --jsonl one JSON
// string per line, answering one count per line in one batch call.
func countCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("chunkkit count", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("tokenizer", defaultTokenizer, "tokenizer spec: "+tokenizerHelp)
	jsonl := fs.Bool("jsonl", false, "read one JSON string per line and print one count per line")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: chunkkit count [--tokenizer SPEC] [--jsonl] < input\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "chunkkit count: reads standard input; unexpected argument %q\n", pos[0])
		return errUsage
	}
	texts, err := readTexts(stdin, *jsonl)
	if err != nil {
		return err
	}
	var p plugins
	defer p.Close()
	counter, err := p.tokenCounter(ctx, *spec)
	if err != nil {
		return err
	}
	counts, err := counter.Count(ctx, texts)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	for _, c := range counts {
		fmt.Fprintln(w, c)
	}
	return w.Flush()
}

// readTexts reads the whole input as one text, or one JSON string per non-blank line.
func readTexts(r io.Reader, jsonl bool) ([]string, error) {
	if !jsonl {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		if !utf8.Valid(b) {
			return nil, fmt.Errorf("standard input: at byte %d: invalid UTF-8", sdk.InvalidUTF8At(string(b)))
		}
		return []string{string(b)}, nil
	}
	var texts []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 256<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("standard input: line %d: want a JSON string: %v", line, err)
		}
		texts = append(texts, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	return texts, nil
}
