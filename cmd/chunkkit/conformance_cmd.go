package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/chunkkit/chunkkit/conformance"
)

// conformanceCmd runs the conformance kit's laws against a counter or splitter by spec and
// prints one line per law. It fails when any law fails.
func conformanceCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("chunkkit conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tokenizer := fs.String("tokenizer", "", "tokenizer spec to check: "+tokenizerHelp)
	splitter := fs.String("splitter", "", "sentence splitter spec to check (rules, or plugin:NAME[:ARG])")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: chunkkit conformance --tokenizer SPEC | --splitter SPEC\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 1 && *tokenizer == "" && *splitter == "" {
		*tokenizer = pos[0] // chunkkit conformance SPEC
	} else if len(pos) != 0 || (*tokenizer == "") == (*splitter == "") {
		fs.Usage()
		return errUsage
	}
	var p plugins
	defer p.Close()
	var results []conformance.Result
	spec := *tokenizer
	start := time.Now()
	if spec != "" {
		tc, err := p.tokenCounter(ctx, spec)
		if err != nil {
			return err
		}
		results = conformance.CheckTokenCounter(ctx, tc)
	} else {
		spec = *splitter
		s, err := p.sentenceSplitter(ctx, spec)
		if err != nil {
			return err
		}
		results = conformance.CheckSentenceSplitter(ctx, s)
	}
	failed := 0
	fmt.Fprintf(stdout, "conformance of %s\n", spec)
	for _, r := range results {
		if r.Err != nil {
			failed++
			fmt.Fprintf(stdout, "FAIL  %s\n      %v\n", r.Law, r.Err)
			continue
		}
		fmt.Fprintf(stdout, "ok    %s (%s)\n", r.Law, r.Took.Round(time.Millisecond))
	}
	fmt.Fprintf(stdout, "%d laws, %d failed, in %s\n", len(results), failed, time.Since(start).Round(time.Millisecond))
	if failed > 0 {
		return fmt.Errorf("%s broke %d of %d laws", spec, failed, len(results))
	}
	return nil
}
