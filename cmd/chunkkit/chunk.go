package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
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
	from      string
	tokenizer string
	strategy  string
	maxTokens int
	overlap   int
	tenant    string
	corpus    string
	acl       string
	n         int
	format    string
	minConf   float64
	split     int
	sentences string
}

func chunkCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var p plugins
	defer p.Close()
	var o chunkOptions
	fs := flag.NewFlagSet("chunkkit chunk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.from, "from", "", "input format: "+formatHelp+" (default: by the file's extension)")
	fs.StringVar(&o.tokenizer, "tokenizer", defaultTokenizer, "tokenizer spec: "+tokenizerHelp)
	fs.StringVar(&o.strategy, "strategy", "heading", "chunking strategy: heading, sections, noop or fixed")
	fs.IntVar(&o.maxTokens, "max-tokens", chunkers.DefaultMaxTokens, "token budget of a body chunk")
	o.overlap = -1 // the chunkers' default unless the flag is given
	fs.Var((*optionalInt)(&o.overlap), "overlap-tokens", "tokens repeated from the previous chunk; 0 for none (default 64, at most a quarter of --max-tokens)")
	fs.StringVar(&o.tenant, "tenant", "", "tenant ID stamped on every chunk")
	fs.StringVar(&o.corpus, "corpus", "", "corpus ID stamped on every chunk")
	fs.StringVar(&o.acl, "acl", "", "comma-separated ACL labels stamped on every chunk")
	fs.IntVar(&o.n, "n", 10, "chunks to show in text output (-1 for all)")
	fs.StringVar(&o.format, "format", "text", "output format: text or jsonl")
	fs.StringVar(&o.sentences, "sentences", "rules", "sentence splitter for oversized blocks: rules (in-process), plugin:sentence:punkt:en or plugin:sentence:uax29")
	fs.IntVar(&o.split, "split-level", chunkers.DefaultSplitLevel, "sections strategy: headings up to this level start a section (-1: one section)")
	fs.Float64Var(&o.minConf, "min-confidence", 0, "OCR input: drop words below this confidence (0–1), recorded in the block's attributes")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: chunkkit chunk FILE [flags]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "chunkkit chunk: want one FILE, got %d arguments\n", len(pos))
		fs.Usage()
		return errUsage
	}
	if o.format != "text" && o.format != "jsonl" {
		fmt.Fprintf(stderr, "chunkkit chunk: --format must be text or jsonl, got %q\n", o.format)
		return errUsage
	}
	path := pos[0]

	doc, err := readDocument(path, o.from, o.minConf)
	if err != nil {
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
	chunks, err := chunker.Chunk(ctx, req, doc)
	if errors.Is(err, sdk.ErrInvalidConfig) {
		return err
	} else if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if o.format == "jsonl" {
		return writeJSONL(stdout, chunks)
	}
	return writeText(stdout, path, o, chunker, doc, chunks)
}

// formatHelp lists the input formats --from takes.
const formatHelp = "md, txt, doc2mark, ocr-json, tesseract-tsv or hocr"

// readDocument reads path in the given format, or the one its extension names.
func readDocument(path, from string, minConfidence float64) (*sdk.Document, error) {
	if from == "" {
		switch ext := strings.ToLower(filepath.Ext(path)); ext {
		case ".md", ".markdown":
			from = "md"
		case ".txt", ".text":
			from = "txt"
		case ".json":
			from = "doc2mark"
		case ".tsv":
			from = "tesseract-tsv"
		case ".hocr":
			from = "hocr"
		default:
			return nil, fmt.Errorf("%s: cannot tell the input format from the extension %q; say --from %s", path, ext, strings.ReplaceAll(formatHelp, ", ", "|"))
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc *sdk.Document
	switch from {
	case "md":
		doc, err = markdown.Parse(src, markdown.Options{ID: path})
	case "txt":
		doc, err = markdown.ParseText(src, markdown.Options{ID: path})
	case "doc2mark":
		doc, err = doc2mark.Parse(src, doc2mark.Options{ID: path})
	case "ocr-json":
		doc, err = ocr.ReadJSON(bytes.NewReader(src), ocr.Options{ID: path, MinConfidence: minConfidence})
	case "tesseract-tsv":
		doc, err = ocr.ReadTSV(bytes.NewReader(src), ocr.Options{ID: path, MinConfidence: minConfidence})
	case "hocr":
		doc, err = ocr.ReadHOCR(bytes.NewReader(src), ocr.Options{ID: path, MinConfidence: minConfidence})
	default:
		return nil, fmt.Errorf("unknown input format %q (known: %s)", from, formatHelp)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

func newChunker(o chunkOptions, counter sdk.TokenCounter, sentences sdk.SentenceSplitter) (sdk.Chunker, error) {
	overlap := o.overlap // the flag's -1 (default) is the chunkers' 0 (default); its 0 is none
	switch {
	case overlap < 0:
		overlap = 0
	case overlap == 0:
		overlap = chunkers.NoOverlap
	}
	switch o.strategy {
	case "heading":
		return &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, Sentences: sentences, MaxTokens: o.maxTokens, OverlapTokens: overlap}}, nil
	case "fixed":
		return &chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: o.maxTokens, OverlapTokens: overlap}}, nil
	case "sections":
		split := o.split
		if split < 0 {
			split = chunkers.NoSplit
		}
		return &chunkers.Sections{Config: chunkers.Config{Counter: counter, Sentences: sentences, MaxTokens: o.maxTokens, OverlapTokens: overlap}, SplitLevel: split}, nil
	case "noop":
		return &chunkers.Noop{Counter: counter}, nil
	}
	return nil, fmt.Errorf("unknown strategy %q (known: heading, sections, noop, fixed)", o.strategy)
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
		if c.ParentID != "" {
			fmt.Fprintf(&sb, "↳ parent %d  ", pos[c.ParentID])
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
