package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
)

const usage = `chunkkit turns documents into retrieval-ready chunks.

Usage:
  chunkkit chunk FILE|DIR|- ... [flags]
                                      chunk documents: files, directories (recursively),
                                      standard input, --from jsonl streams; -j workers
                                      (chunkkit chunk -h for flags)
  chunkkit count [--tokenizer SPEC]   count the tokens of standard input (--jsonl: one per line)
  chunkkit compat doc2mark FILE.json  doc2mark's chunk_content, byte-exact (--config JSON)
  chunkkit bench [flags] [CORPUS]     compare strategies and tokenizers (chunkkit bench -h)
  chunkkit plugins list|verify        show and check the installed plugins
  chunkkit conformance --tokenizer SPEC
                                      check a tokenizer against the conformance kit
  chunkkit help                       show this text

Tokenizer specs: words, runes, tiktoken:cl100k_base (the default, through the plugin),
tiktoken:o200k_base, plugin:NAME[:ARG].

See docs/reference/cli.md.
`

// main runs the command line. SIGINT or SIGTERM cancels the work: a command writes what is
// done, stops its plugins and exits 128 + the signal's number (130, 143), as shells expect. A
// second signal exits at once.
func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var caught atomic.Int32
	go func() {
		s := <-sigs
		caught.Store(int32(signalNumber(s)))
		cancel()
		s = <-sigs
		os.Exit(128 + signalNumber(s))
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if n := caught.Load(); n != 0 {
		code = 128 + int(n)
	}
	os.Exit(code)
}

func signalNumber(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return int(n)
	}
	return 2 // os.Interrupt where it is not a syscall.Signal
}

// errUsage marks a command line that cannot be run; the message has been printed already.
var errUsage = errors.New("usage")

// run executes one command line and returns the exit code: 0 on success, 1 when the work
// failed, 2 when the command line is wrong.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "chunk":
		err = chunkCmd(ctx, args[1:], stdin, stdout, stderr)
	case "count":
		err = countCmd(ctx, args[1:], stdin, stdout, stderr)
	case "compat":
		err = compatCmd(ctx, args[1:], stdout, stderr)
	case "bench":
		err = benchCmd(ctx, args[1:], stdout, stderr)
	case "plugins":
		err = pluginsCmd(ctx, args[1:], stdout, stderr)
	case "conformance":
		err = conformanceCmd(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "chunkkit: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		msg := err.Error()
		if !strings.HasPrefix(msg, "chunkkit: ") {
			msg = "chunkkit: " + msg
		}
		fmt.Fprintln(stderr, msg)
		return 1
	}
}

// parseInterspersed parses flags that may come before, between or after positional
// arguments, and returns the positional ones. A bad flag (already reported by fs) gives
// errUsage; -h gives flag.ErrHelp.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err == flag.ErrHelp {
			return nil, err
		} else if err != nil {
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
