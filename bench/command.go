package bench

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// DefaultOut is the output folder of Command when --out is not given.
const DefaultOut = "bench-out"

// Command is `chunkkit bench`: it parses args (the arguments after "bench"), runs the matrix
// with Run and prints the summary to stdout and progress to stderr. resolve resolves tokenizer
// specs that are not in-process, typically through the command's plugin host; nil allows
// in-process tokenizers only.
//
//	chunkkit bench [flags] CORPUS
//
// Flags: --eval DIR, --out DIR (default bench-out), --strategy a,b, --tokenizer a,b (or
// repeated), --max-tokens 128,256,512, --overlap 0,0.25 (fractions of the budget), --count N,
// --benchtime DURATION, -k N, --quick, --context MODE, --pack-sections, --heading-chunks,
// --peer NAME=FILE (repeatable). Errors in the arguments match sdk.ErrInvalidConfig and
// say which flag is wrong; flag.ErrHelp is returned for -h.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer, resolve func(context.Context, string) (sdk.TokenCounter, error)) error {
	fs := flag.NewFlagSet("chunkkit bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := Config{Resolve: resolve}
	var strategies, tokenizers, budgets, overlaps listFlag
	fs.StringVar(&cfg.Eval, "eval", "", "evaluation set `DIR` in the Chroma format (default: CORPUS when it is one)")
	fs.StringVar(&cfg.Out, "out", DefaultOut, "output `DIR` for bench.txt, benchstat.txt, summary.txt, report.html, report.json")
	fs.Var(&strategies, "strategy", "strategies to run, comma-separated (default: all)")
	fs.Var(&tokenizers, "tokenizer", "tokenizer specs, comma-separated or repeated; inproc:SPEC runs in-process (default: words, inproc:tiktoken:cl100k_base, and through plugins tiktoken:cl100k_base, tiktoken:cl100k_base@reference)")
	fs.Var(&budgets, "max-tokens", "budgets, comma-separated (default 128,256,512)")
	fs.Var(&overlaps, "overlap", "overlaps as fractions of the budget, comma-separated (default 0,0.25)")
	fs.IntVar(&cfg.Count, "count", 0, "measurements per cell (default 10)")
	fs.DurationVar(&cfg.BenchTime, "benchtime", 0, "least time per measurement (default 100ms; negative: one pass)")
	fs.IntVar(&cfg.K, "k", 0, "chunks retrieved per question (default 5)")
	fs.BoolVar(&cfg.Quick, "quick", false, "smoke run: budget 256, count 2, one pass, in-process tokenizers")
	var context string
	fs.StringVar(&context, "context", "", "context mode of the built-in strategies: title+path, path, title or none (default: each strategy's)")
	fs.BoolVar(&cfg.Options.PackSections, "pack-sections", false, "sections strategy: pack small sibling sections up to the budget")
	fs.BoolVar(&cfg.Options.HeadingChunks, "heading-chunks", false, "heading strategy: emit every heading as a chunk of its own")
	var peers listFlag
	fs.Var(&peers, "peer", "`NAME=FILE`: score another chunker's chunks (JSONL of {corpus, start, end, text}, code points) beside the cells; repeatable")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: chunkkit bench [flags] CORPUS\n\nBenchmarks chunking strategies × tokenizers × budgets on the documents in CORPUS; see docs/bench.md.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("bench: %w: %v", sdk.ErrInvalidConfig, err)
	}
	// Config reads a Count or K of 0 as its default: given on the command line, 0 is an error,
	// not 10 or 5.
	var zero error
	fs.Visit(func(f *flag.Flag) {
		if (f.Name == "count" || f.Name == "k") && f.Value.String() == "0" && zero == nil {
			zero = fmt.Errorf("bench: %w: --%s 0: want 1 or more (without the flag, its default)", sdk.ErrInvalidConfig, f.Name)
		}
	})
	if zero != nil {
		return zero
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("bench: %w: want one CORPUS folder, got %d arguments", sdk.ErrInvalidConfig, fs.NArg())
	}
	cfg.Corpus = fs.Arg(0)
	cfg.Options.Context = chunkers.ContextMode(context)
	for _, v := range peers {
		p, err := ParsePeer(v)
		if err != nil {
			return fmt.Errorf("bench: %w: --peer: %v", sdk.ErrInvalidConfig, err)
		}
		cfg.Peers = append(cfg.Peers, p)
	}
	cfg.Strategies, cfg.Tokenizers = strategies, tokenizers
	for _, b := range budgets {
		n, err := strconv.Atoi(b)
		if err != nil {
			return fmt.Errorf("bench: %w: --max-tokens %q: not a number", sdk.ErrInvalidConfig, b)
		}
		cfg.Budgets = append(cfg.Budgets, n)
	}
	for _, o := range overlaps {
		f, err := strconv.ParseFloat(o, 64)
		if err != nil {
			return fmt.Errorf("bench: %w: --overlap %q: not a number", sdk.ErrInvalidConfig, o)
		}
		cfg.Overlaps = append(cfg.Overlaps, f)
	}
	rep, err := Run(ctx, cfg, stdout, stderr)
	if err != nil {
		return err
	}
	if len(rep.Files) > 0 {
		fmt.Fprintf(stdout, "\nwrote %s\ncompare runs or strategies: go tool benchstat -col /strategy %s\n", strings.Join(rep.Files, ", "), rep.Files[0])
	}
	return nil
}

// listFlag is a flag of comma-separated values that may also be repeated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}
