package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/adapters/ocr"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

type chunkOptions struct {
	from          string
	tokenizer     string
	strategy      string
	maxTokens     int
	overlap       int
	context       string
	headingChunks bool
	packSections  bool
	id            string
	tenant        string
	corpus        string
	acl           string
	n             int
	format        string
	minConf       float64
	split         int
	sentences     string
}

func chunkCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var p plugins
	defer p.Close()
	var o chunkOptions
	fs := flag.NewFlagSet("chunkkit chunk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.from, "from", "", "input format: "+formatHelp+" (default: by the file's extension; required for standard input)")
	fs.StringVar(&o.tokenizer, "tokenizer", defaultTokenizer, "tokenizer spec: "+tokenizerHelp)
	fs.StringVar(&o.strategy, "strategy", chunkers.DefaultStrategy, "chunking strategy: "+strings.Join(chunkers.Strategies(), ", "))
	fs.IntVar(&o.maxTokens, "max-tokens", chunkers.DefaultMaxTokens, "token budget of a body chunk's embed_text")
	o.overlap = -1 // the chunkers' default unless the flag is given
	fs.Var((*optionalInt)(&o.overlap), "overlap-tokens", "tokens repeated from the previous chunk; 0 for none (default 64, at most a quarter of --max-tokens)")
	fs.StringVar(&o.context, "context", "", "what each chunk's context (and so its embed_text) holds: "+contextHelp()+" (default: the strategy's, title+path for heading and sections, none for fixed)")
	fs.BoolVar(&o.headingChunks, "heading-chunks", false, "heading strategy: emit every heading as a chunk of its own, the parent of its section's chunks")
	fs.BoolVar(&o.packSections, "pack-sections", false, "sections strategy: pack consecutive small sections into one chunk while they fit the budget")
	fs.StringVar(&o.id, "id", "", "document ID (one input only; default: a FILE's base name, a DIR's files' paths relative to DIR, \"stdin\" for -)")
	fs.StringVar(&o.tenant, "tenant", "", "tenant ID stamped on every chunk")
	fs.StringVar(&o.corpus, "corpus", "", "corpus ID stamped on every chunk")
	fs.StringVar(&o.acl, "acl", "", "comma-separated ACL labels stamped on every chunk")
	fs.IntVar(&o.n, "n", 10, "chunks to show per document in text output (-1 for all)")
	fs.StringVar(&o.format, "format", "text", "output format: text or jsonl")
	fs.StringVar(&o.sentences, "sentences", "rules", "sentence splitter for oversized blocks: rules (in-process), plugin:sentence:punkt:en or plugin:sentence:uax29")
	fs.IntVar(&o.split, "split-level", 0, "sections strategy: headings up to this level start a section (-1: one section; default: the chunker's)")
	fs.Float64Var(&o.minConf, "min-confidence", 0, "OCR input: drop words below this confidence (0–1), recorded in the block's attributes")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: chunkkit chunk FILE|DIR|- ... [flags]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fmt.Fprintf(stderr, "chunkkit chunk: want one FILE, DIR or - at least, got none\n")
		fs.Usage()
		return errUsage
	}
	if o.format != "text" && o.format != "jsonl" {
		fmt.Fprintf(stderr, "chunkkit chunk: --format must be text or jsonl, got %q\n", o.format)
		return errUsage
	}
	inputs, err := collectInputs(pos, o.from)
	if err != nil {
		return err
	}
	if o.id != "" {
		if len(inputs) != 1 {
			fmt.Fprintf(stderr, "chunkkit chunk: --id names one document, but the arguments hold %d\n", len(inputs))
			return errUsage
		}
		inputs[0].id = o.id
	}
	if err := distinctIDs(inputs); err != nil {
		return err
	}
	counter, err := p.tokenCounter(ctx, o.tokenizer)
	if err != nil {
		return err
	}
	splitter, err := p.sentenceSplitter(ctx, o.sentences)
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
	for i, in := range inputs {
		doc, err := readDocument(in, stdin, o.from, o.minConf)
		if err != nil {
			return err
		}
		chunks, err := chunker.Chunk(ctx, req, doc)
		if errors.Is(err, sdk.ErrInvalidConfig) {
			return err
		} else if err != nil {
			return fmt.Errorf("%s: %w", in.path, err)
		}
		if o.format == "jsonl" {
			err = writeJSONL(stdout, chunks)
		} else {
			if i > 0 {
				io.WriteString(stdout, "\n")
			}
			err = writeText(stdout, in.path, o, chunker, doc, chunks)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func contextHelp() string {
	modes := make([]string, len(chunkers.ContextModes()))
	for i, m := range chunkers.ContextModes() {
		modes[i] = string(m)
	}
	return strings.Join(modes, ", ")
}

// formatHelp lists the input formats --from takes.
const formatHelp = "md, txt, doc2mark, ocr-json, tesseract-tsv or hocr"

// formatOf returns the input format a file's extension names, or "".
func formatOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		return "md"
	case ".txt", ".text":
		return "txt"
	case ".json":
		return "doc2mark"
	case ".tsv":
		return "tesseract-tsv"
	case ".hocr":
		return "hocr"
	}
	return ""
}

// input is one document to chunk: a file (or "-" for standard input) and its document ID.
type input struct {
	path string
	id   string
}

// collectInputs turns the arguments into documents, in order: a FILE is one document whose
// ID is its base name, so that "fs.md", "./fs.md" and "/abs/path/fs.md" give one ID; a DIR
// is every file below it whose extension names a format (or every file, with --from), in
// lexical order, each with its path relative to DIR as ID, in slash form; "-" is standard
// input, ID "stdin", and needs --from.
func collectInputs(args []string, from string) ([]input, error) {
	var out []input
	for _, arg := range args {
		if arg == "-" {
			if from == "" {
				return nil, fmt.Errorf("standard input: say its format with --from %s", strings.ReplaceAll(formatHelp, ", ", "|"))
			}
			out = append(out, input{path: "-", id: "stdin"})
			continue
		}
		st, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, input{path: arg, id: filepath.Base(arg)})
			continue
		}
		n := len(out)
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || (from == "" && formatOf(path) == "") {
				return nil
			}
			rel, err := filepath.Rel(arg, path)
			if err != nil {
				return err
			}
			out = append(out, input{path: path, id: filepath.ToSlash(rel)})
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no file with a known extension (%s) below it", arg, ".md, .markdown, .txt, .text, .json, .tsv, .hocr")
		}
	}
	return out, nil
}

// distinctIDs returns an error naming two inputs that would be one document ID.
func distinctIDs(inputs []input) error {
	seen := make(map[string]string, len(inputs))
	for _, in := range inputs {
		if prev, ok := seen[in.id]; ok {
			return fmt.Errorf("%s and %s would both be the document %q, and their chunks share IDs: chunk a directory that holds both (IDs are paths relative to it), or each file with --id", prev, in.path, in.id)
		}
		seen[in.id] = in.path
	}
	return nil
}

// readDocument reads in, in the given format or the one its extension names, as the document
// in.id.
func readDocument(in input, stdin io.Reader, from string, minConfidence float64) (*sdk.Document, error) {
	path := in.path
	if from == "" {
		if from = formatOf(path); from == "" {
			return nil, fmt.Errorf("%s: cannot tell the input format from the extension %q; say --from %s", path, filepath.Ext(path), strings.ReplaceAll(formatHelp, ", ", "|"))
		}
	}
	var src []byte
	var err error
	if path == "-" {
		src, err = io.ReadAll(stdin)
		path = "standard input"
	} else {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	id := in.id
	var doc *sdk.Document
	switch from {
	case "md":
		doc, err = markdown.Parse(src, markdown.Options{ID: id})
	case "txt":
		doc, err = markdown.ParseText(src, markdown.Options{ID: id})
	case "doc2mark":
		doc, err = doc2mark.Parse(src, doc2mark.Options{ID: id})
	case "ocr-json":
		doc, err = ocr.ReadJSON(bytes.NewReader(src), ocr.Options{ID: id, MinConfidence: minConfidence})
	case "tesseract-tsv":
		doc, err = ocr.ReadTSV(bytes.NewReader(src), ocr.Options{ID: id, MinConfidence: minConfidence})
	case "hocr":
		doc, err = ocr.ReadHOCR(bytes.NewReader(src), ocr.Options{ID: id, MinConfidence: minConfidence})
	default:
		return nil, fmt.Errorf("unknown input format %q (known: %s)", from, formatHelp)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// newChunker builds the chunker the options name through the one strategy registry.
func newChunker(o chunkOptions, counter sdk.TokenCounter, sentences sdk.SentenceSplitter) (sdk.Chunker, error) {
	overlap := 0 // the flag's -1 (unset) is the chunkers' default
	if o.overlap >= 0 {
		overlap = chunkers.ExactOverlap(o.overlap)
	}
	split := o.split
	if split < 0 {
		split = chunkers.NoSplit
	}
	return chunkers.New(o.strategy, chunkers.Options{
		Config: chunkers.Config{
			Counter:       counter,
			Sentences:     sentences,
			MaxTokens:     o.maxTokens,
			OverlapTokens: overlap,
			Context:       chunkers.ContextMode(o.context),
		},
		SplitLevel:    split,
		PackSections:  o.packSections,
		HeadingChunks: o.headingChunks,
	})
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

func writeText(w io.Writer, path string, o chunkOptions, chunker sdk.Chunker, doc *sdk.Document, chunks []sdk.Chunk) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %d blocks, %d chunks (strategy %s, tokenizer %s", path, len(doc.Blocks), len(chunks), o.strategy, o.tokenizer)
	if b, ok := chunker.(sdk.Budgeted); ok {
		maxTokens, overlap := b.Budget()
		fmt.Fprintf(&sb, ", max %d tokens, overlap %d", maxTokens, overlap)
	}
	sb.WriteString(")\n")
	blockKinds := map[string]int{}
	for _, b := range doc.Blocks {
		blockKinds[string(b.Kind)]++
	}
	chunkKinds := map[string]int{}
	total := 0
	for _, c := range chunks {
		chunkKinds[string(c.Kind)]++
		total += c.TokenCount
	}
	fmt.Fprintf(&sb, "blocks: %s\n", tally(blockKinds))
	fmt.Fprintf(&sb, "chunks: %s; %d tokens in all\n", tally(chunkKinds), total)
	if o.n != 0 && len(chunks) > 0 {
		sb.WriteString("columns: position, kind, tokens of embed_text, lines in the file, parent, [context] content\n")
	}
	n := o.n
	if n < 0 || n > len(chunks) {
		n = len(chunks)
	}
	if n > 0 {
		sb.WriteString("\n")
	}
	pos := make(map[string]int, len(chunks))
	for _, c := range chunks[:n] {
		pos[c.ID] = c.Position
		kind := string(c.Kind)
		if c.Kind == sdk.ChunkHeading {
			kind = fmt.Sprintf("h%d", c.Level)
		}
		fmt.Fprintf(&sb, "%4d  %-4s %5d tok  ", c.Position, kind, c.TokenCount)
		if c.LineStart > 0 {
			fmt.Fprintf(&sb, "%-9s  ", lineRange(c.LineStart, c.LineEnd))
		}
		if c.ParentID != "" {
			fmt.Fprintf(&sb, "↳ parent %d  ", pos[c.ParentID])
		}
		if c.Context != "" {
			// embed_text is the context, then the content: show both, the context tail first.
			fmt.Fprintf(&sb, "[%s] ", previewTail(c.Context, 40))
		}
		sb.WriteString(preview(c.Content, 64))
		sb.WriteString("\n")
	}
	if n < len(chunks) {
		fmt.Fprintf(&sb, "… %d more (-n -1 shows all)\n", len(chunks)-n)
	}
	_, err := io.WriteString(w, sb.String())
	return err
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

// optionalInt is an int flag whose unset value (-1) is not printed as a default, because the
// real default depends on other flags. String is only used by the flag package to print
// defaults, so it keeps quiet for 0 too (the flag package compares with the zero value).
type optionalInt int

func (v *optionalInt) String() string {
	if v == nil || *v <= 0 {
		return ""
	}
	return strconv.Itoa(int(*v))
}

func (v *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number of tokens, 0 or more")
	}
	*v = optionalInt(n)
	return nil
}
