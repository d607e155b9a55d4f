package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/chunkkit/chunkkit/beam/chunkbeam"
	"github.com/chunkkit/chunkkit/beam/internal/tmpdir"
	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

func init() {
	register.Function1x2[sdk.Chunk, string, error](chunkJSON)
	register.Function1x2[chunkbeam.DeadLetter, string, error](deadLetterJSON)
}

// options are the pipeline's own flags; Beam's (--runner, --endpoint, --environment_type, ...)
// are on the same command line.
type options struct {
	input, output, deadLetters, from, root string
	include, exclude                       stringList
	chunker                                pipeline.ChunkerConfig
	cfg                                    chunkbeam.Config
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// defineFlags defines the pipeline's flags on fs; the chunking flags are chunkkit chunk's, with
// its names, defaults and meanings (a test holds them to the command line's). The returned
// function finishes the options after fs.Parse.
func defineFlags(fs *flag.FlagSet) func() (options, error) {
	var o options
	var acl string
	var timeout time.Duration
	var pluginDirs stringList
	fs.StringVar(&o.input, "input", "", "documents to chunk: a directory (walked as chunk DIR walks it), a glob or file on a Beam file system (local, gs://), or with --from jsonl a JSONL stream of documents")
	fs.StringVar(&o.output, "output", "", "the JSONL file the chunks are written to, one chunk a line (required)")
	fs.StringVar(&o.deadLetters, "dead-letters", "", "the JSONL file the documents that failed are written to (default: OUTPUT.dead-letters.jsonl)")
	fs.StringVar(&o.from, "from", "", "input format: "+pipeline.FormatHelp()+", or jsonl for a stream of documents one JSON object a line (default: by the file's extension)")
	fs.StringVar(&o.root, "root", "", "a glob --input's document IDs are paths relative to this folder (default: the glob's folder before its first wildcard)")
	fs.Var(&o.include, "include", "DIR inputs: chunk only files matching this glob (repeatable; a pattern with / matches the path relative to DIR, one without the base name)")
	fs.Var(&o.exclude, "exclude", "DIR inputs: skip files and folders matching this glob (repeatable; as --include)")
	chunkerFlags := pipeline.ChunkerFlags(fs)
	fs.StringVar(&o.cfg.Tenant, "tenant", "", "tenant ID stamped on every chunk")
	fs.StringVar(&o.cfg.Corpus, "corpus", "", "corpus ID stamped on every chunk")
	fs.StringVar(&acl, "acl", "", "comma-separated ACL labels stamped on every chunk")
	fs.DurationVar(&timeout, "timeout", chunkbeam.DefaultTimeout, "the longest one document may take to chunk, plugin calls included (0: no limit)")
	fs.Float64Var(&o.cfg.MinConfidence, "min-confidence", 0, "OCR input: drop words below this confidence (0–1), recorded in the block's attributes")
	fs.IntVar(&o.cfg.Retries, "retries", chunkbeam.DefaultRetries, "times a document is chunked again when its plugin crashed during the call (0: never)")
	var jobs int
	fs.IntVar(&jobs, "j", 0, "documents of a bundle chunked at once, sharing the worker's plugins (0: the number of CPUs on Prism, which gives a worker one bundle at a time; 1 on other runners, which run bundles side by side)")
	fs.Var(&pluginDirs, "plugin-dir", "a directory (or manifest) the workers search for plugins before $CHUNKKIT_PLUGIN_DIR and their binary's directory (repeatable; must exist on the workers)")
	return func() (options, error) {
		o.chunker = chunkerFlags()
		switch {
		case o.input == "":
			return o, errors.New("--input is required")
		case o.output == "":
			return o, errors.New("--output is required")
		case o.chunker.MaxTokens < 1:
			return o, fmt.Errorf("--max-tokens must be 1 or more, got %d", o.chunker.MaxTokens)
		case jobs < 0:
			return o, fmt.Errorf("-j must be 0 (automatic) or more, got %d", jobs)
		case timeout < 0:
			return o, fmt.Errorf("--timeout must be 0 (no limit) or more, got %s", timeout)
		}
		if o.from != "" && o.from != "jsonl" {
			f, err := pipeline.ParseFormat(o.from)
			if err != nil {
				return o, fmt.Errorf("unknown --from %q (known: %s or jsonl)", o.from, pipeline.FormatHelp())
			}
			o.from = string(f)
		}
		if err := pipeline.ValidatePatterns(append(slices.Clone(o.include), o.exclude...)); err != nil {
			return o, err
		}
		if acl != "" {
			o.cfg.ACL = strings.Split(acl, ",")
		}
		o.cfg.Timeout = timeout
		if timeout == 0 {
			o.cfg.Timeout = -1 // chunk's 0 is no limit; Config's is the default
		}
		if o.cfg.Retries == 0 {
			o.cfg.Retries = -1
		}
		o.cfg.Workers = jobs
		if jobs <= 0 {
			o.cfg.Workers = 1
			if r := fs.Lookup("runner"); r == nil || r.Value.String() == "" || strings.EqualFold(strings.TrimSuffix(r.Value.String(), "Runner"), "prism") {
				o.cfg.Workers = runtime.GOMAXPROCS(0)
			}
		}
		o.cfg.PluginDirs = pluginDirs
		o.cfg.Chunker = o.chunker
		if o.deadLetters == "" {
			o.deadLetters = strings.TrimSuffix(o.output, ".jsonl") + ".dead-letters.jsonl"
		}
		return o, nil
	}
}

func main() {
	finish := defineFlags(flag.CommandLine)
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "Usage: chunkbeam --input DIR|GLOB|FILE.jsonl --output FILE.jsonl [flags]\n\n"+
			"Chunks documents with chunkkit on Apache Beam: Prism in this process by default, or the\n"+
			"runner --runner names (flink, spark, dataflow; see docs/scale-out.md).\n\nFlags (Beam's included):\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	beam.Init() // a worker started by a runner becomes one here and never returns
	o, err := finish()
	if err != nil {
		fmt.Fprintf(os.Stderr, "chunkbeam: %v\n", err)
		os.Exit(2)
	}
	// Past beam.Init, so a worker's temporary folder stays the one its runner gave it.
	restore, err := tmpdir.Own()
	if err != nil {
		fmt.Fprintf(os.Stderr, "chunkbeam: %v\n", err)
		os.Exit(1)
	}
	err = run(context.Background(), o, os.Stderr)
	if rerr := restore(); rerr != nil {
		fmt.Fprintf(os.Stderr, "chunkbeam: %v\n", rerr)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "chunkbeam: %v\n", err)
		os.Exit(1)
	}
}

// build adds the pipeline to s: read, chunk, write the chunks and the dead letters.
func build(s beam.Scope, o options) error {
	docs, unread, err := readDocuments(s, o)
	if err != nil {
		return err
	}
	chunks, dead := chunkbeam.Chunk(s, o.cfg, docs)
	textio.Write(s.Scope("chunkbeam.write"), o.output, beam.ParDo(s, chunkJSON, chunks))
	textio.Write(s.Scope("chunkbeam.dead-letters"), o.deadLetters, beam.ParDo(s, deadLetterJSON, beam.Flatten(s, unread, dead)))
	return nil
}

// run builds the pipeline, runs it on the runner the flags name and reports its counters.
func run(ctx context.Context, o options, stderr io.Writer) error {
	p, s := beam.NewPipelineWithRoot()
	if err := build(s, o); err != nil {
		return err
	}
	start := time.Now()
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	if res == nil {
		return nil // a runner that returns no result (an async submission)
	}
	n := map[string]int64{}
	for _, c := range res.Metrics().Query(func(r metrics.SingleResult) bool { return r.Namespace() == "chunkkit" }).Counters() {
		n[c.Name()] += c.Result()
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stderr, "chunkbeam: %d documents (%.1f MB) → %d chunks in %s (%.2f MB/s); %d dead letters, %d retries\n",
		n["documents"], float64(n["bytes"])/1e6, n["chunks"], elapsed.Round(time.Millisecond),
		float64(n["bytes"])/1e6/elapsed.Seconds(), n["dead_letters"], n["retries"])
	if n["dead_letters"] > 0 {
		fmt.Fprintf(stderr, "chunkbeam: the documents that failed are in %s\n", o.deadLetters)
	}
	return nil
}

// chunkJSON and deadLetterJSON write a line as chunk --format jsonl writes it (no HTML escaping).
func chunkJSON(c sdk.Chunk) (string, error) { return jsonLine(c) }

func deadLetterJSON(d chunkbeam.DeadLetter) (string, error) { return jsonLine(d) }

func jsonLine(v any) (string, error) {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(sb.String(), "\n"), nil
}
