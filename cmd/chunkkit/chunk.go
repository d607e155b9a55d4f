package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

type chunkOptions struct {
	from      string
	id        string
	tenant    string
	corpus    string
	acl       string
	n         int
	format    string
	out       string
	jobs      int
	keepGoing bool
	timeout   time.Duration
	progress  string
	include   stringList
	exclude   stringList
	minConf   float64
	chunker   pipeline.ChunkerConfig // the chunker flags, once parsed
}

// defaultTimeout bounds each document's chunking unless --timeout says otherwise: generous
// (a 50 MB document takes seconds), but finite, so a hung plugin cannot hang a run.
const defaultTimeout = 5 * time.Minute

func chunkCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var p plugins
	defer p.Close()
	var o chunkOptions
	fs := flag.NewFlagSet("chunkkit chunk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.from, "from", "", "input format: "+pipeline.FormatHelp()+", or jsonl for a stream of documents one JSON object a line (default: by the file's extension; required for standard input)")
	chunkerFlags := pipeline.ChunkerFlags(fs)
	fs.StringVar(&o.id, "id", "", "document ID (one FILE or - only; default: a FILE's base name, a DIR's files' paths relative to DIR, \"stdin\" for -)")
	fs.StringVar(&o.tenant, "tenant", "", "tenant ID stamped on every chunk")
	fs.StringVar(&o.corpus, "corpus", "", "corpus ID stamped on every chunk")
	fs.StringVar(&o.acl, "acl", "", "comma-separated ACL labels stamped on every chunk")
	fs.IntVar(&o.n, "n", 10, "chunks to show per document in text output (-1 for all)")
	fs.StringVar(&o.format, "format", "", "output format: text or jsonl (default: text for one FILE or -, jsonl otherwise)")
	fs.StringVar(&o.out, "out", "", "write the output to this file instead of standard output")
	fs.IntVar(&o.jobs, "j", runtime.GOMAXPROCS(0), "documents doing host work at once (one waiting on a plugin's answer does not count), sharing one set of plugins; the output order is the input order whatever it is")
	fs.BoolVar(&o.keepGoing, "keep-going", false, "record a document that fails (file, position, reason) and go on; exit 1 at the end with a summary")
	fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "the longest one document may take to chunk, plugin calls included (0: no limit)")
	fs.StringVar(&o.progress, "progress", "auto", "progress line on standard error: auto (when it is a terminal), always or never")
	fs.Var(&o.include, "include", "DIR inputs: chunk only files matching this glob (repeatable; a pattern with / matches the path relative to DIR, one without the base name)")
	fs.Var(&o.exclude, "exclude", "DIR inputs: skip files and folders matching this glob (repeatable; as --include)")
	fs.Float64Var(&o.minConf, "min-confidence", 0, "OCR input: drop words below this confidence (0–1), recorded in the block's attributes")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: chunkkit chunk FILE|DIR|- ... [flags]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	o.chunker = chunkerFlags()
	usageErr := func(format string, args ...any) error {
		fmt.Fprintf(stderr, "chunkkit chunk: "+format+"\n", args...)
		return errUsage
	}
	switch {
	case len(pos) == 0:
		fmt.Fprintf(stderr, "chunkkit chunk: want one FILE, DIR or - at least, got none\n")
		fs.Usage()
		return errUsage
	case o.format != "" && o.format != "text" && o.format != "jsonl":
		return usageErr("--format must be text or jsonl, got %q", o.format)
	case o.jobs < 1:
		return usageErr("-j must be 1 or more, got %d", o.jobs)
	case o.timeout < 0:
		return usageErr("--timeout must be 0 (no limit) or more, got %s", o.timeout)
	case o.progress != "auto" && o.progress != "always" && o.progress != "never":
		return usageErr("--progress must be auto, always or never, got %q", o.progress)
	case countOf(pos, "-") > 1:
		return usageErr("standard input (-) can be read once only")
	}
	if o.from != "" && o.from != "jsonl" {
		f, err := pipeline.ParseFormat(o.from)
		if err != nil {
			return usageErr("unknown --from %q (known: %s or jsonl)", o.from, pipeline.FormatHelp())
		}
		o.from = string(f)
	}
	if err := pipeline.ValidatePatterns(append(append([]string{}, o.include...), o.exclude...)); err != nil {
		return usageErr("%v", err)
	}
	if arg := outputIsInput(o.out, pos); arg != "" {
		return usageErr("--out %s is the input %s: it would be emptied before it is read", o.out, arg)
	}
	single := len(pos) == 1 && o.from != "jsonl" && (pos[0] == "-" || !isDir(pos[0]))
	if o.id != "" && !single {
		return usageErr("--id names one document: give one FILE or -, not a DIR or a jsonl stream (whose lines carry their own \"id\")")
	}
	if o.format == "" {
		o.format = "jsonl"
		if single {
			o.format = "text"
		}
	}
	if slices.Contains(pos, "-") && o.from == "" {
		return fmt.Errorf("standard input: say its format with --from %s", strings.ReplaceAll(pipeline.FormatHelp(), ", ", "|")+"|jsonl")
	}

	counter, err := p.tokenCounter(ctx, o.chunker.Tokenizer)
	if err != nil {
		return err
	}
	splitter, err := p.sentenceSplitter(ctx, o.chunker.Sentences)
	if err != nil {
		return err
	}
	chunker, err := newChunker(o, counter, splitter)
	if err != nil {
		return err
	}
	req := sdk.Request{TenantID: o.tenant, CorpusID: o.corpus}
	if o.acl != "" {
		req.Principal.ACLLabels = strings.Split(o.acl, ",")
	}

	left := &leftOut{w: stderr}
	defer left.done()
	w := stdout
	inputs := chunkInputs(pos, o, stdin, left)
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		defer f.Close()
		w = f
		if out, err := f.Stat(); err == nil {
			inputs = notOutput(inputs, out, left.output)
		}
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	defer bw.Flush()

	prog := newRunProgress(stderr, o.progress, func() int64 { return totalBytes(pos, o) })
	sum := newRunSummary()
	var inFlight func(bytes, largest int)
	if gc := pipeline.NewCollector(); gc != nil {
		inFlight = gc.InFlight
		defer gc.Done()
	}
	results := pipeline.Run(ctx, inputs, pipeline.Options{
		Chunker: chunker, Request: req, Workers: o.jobs, Timeout: o.timeout, MinConfidence: o.minConf,
		// The collector follows the documents in flight: a large file is collected sooner, a
		// corpus of small ones less often.
		InFlight: inFlight,
		// Chunks come as they are made, so a large document's chunks need not all be held:
		// JSONL writes them, the text output keeps its totals and previews (textDoc).
		Stream: true,
	})
	var runErr error
	text := newTextDoc(o)
	for r := range results {
		if r.Partial {
			sum.part(r)
			if o.format == "jsonl" {
				if err := writeJSONL(bw, r.Chunks); err != nil {
					runErr = err
					break
				}
			} else {
				text.add(r.Chunks)
			}
			continue
		}
		if r.Err != nil {
			if errors.Is(r.Err, sdk.ErrInvalidConfig) {
				runErr = r.Err
				break
			}
			if ctx.Err() != nil {
				break // interrupted: what is done is written; main exits 130 or 143
			}
			if !o.keepGoing {
				runErr = r.Err
				if !single && (r.Input.Path == "" || !isDir(r.Input.Path)) {
					// The error names the document; say how to get past it.
					runErr = fmt.Errorf("%w\n(the run stops at the first document that fails: --keep-going records failures and goes on, --exclude GLOB leaves files out)", r.Err)
				}
				break
			}
			sum.fail(r)
			left.flush(prog)
			prog.update(r)
			text = newTextDoc(o)
			continue
		}
		sum.add(r)
		if o.format == "jsonl" {
			err = writeJSONL(bw, r.Chunks)
		} else {
			if sum.docs > 1 {
				bw.WriteString("\n")
			}
			text.add(r.Chunks)
			err = text.write(bw, r.Input.Name(), chunker, r.BlockKinds)
			text = newTextDoc(o)
		}
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			runErr = err
			break
		}
		left.flush(prog)
		prog.update(r)
	}
	left.flush(prog)
	prog.done()
	if runErr == nil && ctx.Err() == nil && o.format == "text" && sum.docs+len(sum.failures) > 1 {
		bw.WriteString(sum.text()) // the totals go where the documents' text went
	}
	if err := bw.Flush(); err != nil && runErr == nil {
		runErr = err
	}
	if o.out != "" {
		if f, ok := w.(*os.File); ok {
			if err := f.Close(); err != nil && runErr == nil {
				runErr = err
			}
		}
	}
	if runErr != nil {
		return runErr
	}
	if err := ctx.Err(); err != nil {
		fmt.Fprintf(stderr, "chunkkit chunk: interrupted after %d documents (%d chunks written)\n", sum.docs, sum.chunks+sum.pending.chunks)
		return err
	}
	if len(sum.failures) > 0 {
		return sum.failuresError()
	}
	return nil
}

// countOf returns how many elements of list equal s.
func countOf(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// isDir reports whether path names a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// chunkInputs turns the arguments into one stream of documents, in order: a FILE or DIR as
// pipeline.Walk yields them (a run of consecutive ones in one walk, so IDs are checked for
// clashes across them), "-" as standard input, and with --from jsonl each FILE and "-" as a
// stream of documents one JSON object a line. left is told of the files a walk leaves out as
// not in their extension's format and of the links to directories it does not follow.
func chunkInputs(args []string, o chunkOptions, stdin io.Reader, left *leftOut) iter.Seq2[pipeline.Input, error] {
	walk := pipeline.WalkOptions{Include: o.include, Exclude: o.exclude, Mismatched: left.note, LinkedDir: left.linkedDir}
	if o.from != "jsonl" {
		walk.Format = pipeline.Format(o.from)
	}
	return func(yield func(pipeline.Input, error) bool) {
		// ReadJSONL refuses an ID its stream has already; across streams, chunkInputs does.
		var streamIDs map[string]string // document ID → the SOURCE:LINE that has it first
		if o.from == "jsonl" && len(args) > 1 {
			streamIDs = map[string]string{}
		}
		for i := 0; i < len(args); {
			arg := args[i]
			switch {
			case o.from == "jsonl":
				var r io.Reader = stdin
				name := "standard input"
				if arg != "-" {
					f, err := os.Open(arg)
					if err != nil {
						if !yield(pipeline.Input{Path: arg, ID: arg}, err) {
							return
						}
						i++
						continue
					}
					defer f.Close()
					r, name = f, arg
				}
				for in, err := range pipeline.ReadJSONL(r, name) {
					if err == nil && streamIDs != nil {
						if first, ok := streamIDs[in.ID]; ok {
							err = fmt.Errorf("%s: document ID %q is already %s's: give each document an ID of its own (its chunks' IDs are ID#position)", in.Name(), in.ID, first)
						} else {
							streamIDs[in.ID] = in.Name()
						}
					}
					if !yield(in, err) {
						return
					}
				}
				i++
			case arg == "-":
				id := "stdin"
				if o.id != "" {
					id = o.id
				}
				data, err := io.ReadAll(stdin)
				if err != nil {
					err = fmt.Errorf("standard input: %w", err)
				}
				if !yield(pipeline.Input{ID: id, Source: "standard input", Format: pipeline.Format(o.from), Data: data}, err) {
					return
				}
				i++
			default:
				j := i
				for j < len(args) && args[j] != "-" {
					j++
				}
				for in, err := range pipeline.Walk(args[i:j], walk) {
					if o.id != "" {
						in.ID = o.id
					}
					if !yield(in, err) {
						return
					}
				}
				i = j
			}
		}
	}
}

// outputIsInput returns the argument among args that names the file out, when out exists and
// one does: os.Create would empty it before the run reads it.
func outputIsInput(out string, args []string) string {
	if out == "" {
		return ""
	}
	st, err := os.Stat(out)
	if err != nil || st.IsDir() { // a folder: os.Create says so
		return ""
	}
	for _, arg := range args {
		if a, err := os.Stat(arg); arg != "-" && err == nil && os.SameFile(st, a) {
			return arg
		}
	}
	return ""
}

// notOutput leaves the output file (out) out of inputs, telling left: a DIR that holds it would
// otherwise have the run read what it is writing, as would a stream's "path" naming it.
func notOutput(inputs iter.Seq2[pipeline.Input, error], out os.FileInfo, left func(name string)) iter.Seq2[pipeline.Input, error] {
	return func(yield func(pipeline.Input, error) bool) {
		for in, err := range inputs {
			if err == nil && in.Path != "" && filepath.Base(in.Path) == out.Name() {
				if st, serr := os.Stat(in.Path); serr == nil && os.SameFile(st, out) {
					name := in.Path
					if in.Line > 0 {
						name += " (" + in.Name() + ")"
					}
					left(name)
					continue
				}
			}
			if !yield(in, err) {
				return
			}
		}
	}
}

// totalBytes returns the size of every file the arguments name (0 when one is standard
// input or a stream), for the progress line's ETA.
func totalBytes(args []string, o chunkOptions) int64 {
	if o.from == "jsonl" || slices.Contains(args, "-") {
		return 0
	}
	walk := pipeline.WalkOptions{Format: pipeline.Format(o.from), Include: o.include, Exclude: o.exclude}
	var n int64
	for in, err := range pipeline.Walk(args, walk) {
		if err != nil {
			continue
		}
		if st, err := os.Stat(in.Path); err == nil {
			n += st.Size()
		}
	}
	return n
}

// newChunker builds the chunker the options name through the one strategy registry, by the
// flag → config mapping other engines share (pipeline.ChunkerFlags, pipeline.ChunkerConfig).
func newChunker(o chunkOptions, counter sdk.TokenCounter, sentences sdk.SentenceSplitter) (sdk.Chunker, error) {
	return o.chunker.NewChunker(counter, sentences)
}

func writeJSONL(w io.Writer, chunks []sdk.Chunk) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range chunks {
		if err := enc.Encode(&chunks[i]); err != nil {
			return err
		}
	}
	return nil
}

// textDoc is the text output of one document, made as its chunks come: the totals and the
// previews of its first chunks (-n) are kept, not the chunks, so that a large document's
// chunks need not all be held before its text is written.
type textDoc struct {
	o        chunkOptions
	chunks   int
	tokens   int
	kinds    map[string]int
	previews strings.Builder
	pos      map[string]int // the positions of the chunks previewed, by ID
}

func newTextDoc(o chunkOptions) *textDoc {
	return &textDoc{o: o, kinds: map[string]int{}, pos: map[string]int{}}
}

// add takes the document's next chunks.
func (t *textDoc) add(chunks []sdk.Chunk) {
	for _, c := range chunks {
		t.chunks++
		t.kinds[string(c.Kind)]++
		t.tokens += c.TokenCount
		if t.o.n >= 0 && t.chunks > t.o.n {
			continue
		}
		sb := &t.previews
		t.pos[c.ID] = c.Position
		kind := string(c.Kind)
		if c.Kind == sdk.ChunkHeading {
			kind = fmt.Sprintf("h%d", c.Level)
		}
		fmt.Fprintf(sb, "%4d  %-4s %5d tok  ", c.Position, kind, c.TokenCount)
		if c.LineStart > 0 {
			fmt.Fprintf(sb, "%-9s  ", lineRange(c.LineStart, c.LineEnd))
		}
		if c.ParentID != "" {
			fmt.Fprintf(sb, "↳ parent %d  ", t.pos[c.ParentID])
		}
		if c.Context != "" {
			// embed_text is the context, then the content: show both, the context tail first.
			fmt.Fprintf(sb, "[%s] ", previewTail(c.Context, 40))
		}
		sb.WriteString(preview(c.Content, 64))
		sb.WriteString("\n")
	}
}

// write writes the document's text: what it is, its totals, and the previews.
func (t *textDoc) write(w io.Writer, path string, chunker sdk.Chunker, blockKinds map[sdk.BlockKind]int) error {
	var sb strings.Builder
	blocks := 0
	kinds := make(map[string]int, len(blockKinds))
	for k, n := range blockKinds {
		blocks += n
		kinds[string(k)] = n
	}
	fmt.Fprintf(&sb, "%s: %d blocks, %d chunks (strategy %s, tokenizer %s", path, blocks, t.chunks, t.o.chunker.Strategy, t.o.chunker.Tokenizer)
	if b, ok := chunker.(sdk.Budgeted); ok {
		maxTokens, overlap := b.Budget()
		fmt.Fprintf(&sb, ", max %d tokens, overlap %d", maxTokens, overlap)
	}
	sb.WriteString(")\n")
	fmt.Fprintf(&sb, "blocks: %s\n", tally(kinds))
	fmt.Fprintf(&sb, "chunks: %s; %d tokens in all\n", tally(t.kinds), t.tokens)
	shown := t.chunks
	if t.o.n >= 0 {
		shown = min(shown, t.o.n)
	}
	if t.o.n != 0 && t.chunks > 0 {
		sb.WriteString("columns: position, kind, tokens of embed_text, lines in the file, parent, [context] content\n")
	}
	if shown > 0 {
		sb.WriteString("\n")
	}
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return err
	}
	if _, err := io.WriteString(w, t.previews.String()); err != nil {
		return err
	}
	if shown < t.chunks {
		_, err := fmt.Fprintf(w, "… %d more (-n -1 shows all)\n", t.chunks-shown)
		return err
	}
	return nil
}

// tally renders counts as "a 1, b 2" in name order.
func tally(m map[string]int) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// lineRange renders lines a to b as "L12" or "L12-30".
func lineRange(a, b int) string {
	if a == b {
		return "L" + strconv.Itoa(a)
	}
	return "L" + strconv.Itoa(a) + "-" + strconv.Itoa(b)
}

// previewTail returns s on one line, cut to its last n runes at most: the end of a heading
// path says more than its start.
func previewTail(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// preview returns s on one line, white space collapsed, cut to at most n runes.
func preview(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
