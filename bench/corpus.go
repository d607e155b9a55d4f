package bench

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/sentence"
	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// Loader parses the contents of one corpus file into a document whose ID is id. It returns an
// error saying where the file is bad (an *sdk.InputError where it can).
type Loader func(src []byte, id string) (*sdk.Document, error)

// DefaultLoaders returns the loaders Run uses when Config.Loaders is nil, by file extension:
// one for every extension of pipeline's input registry (pipeline.Formats and
// pipeline.Extensions: ".md" and ".markdown", ".txt" and ".text", ".json" for doc2mark's
// json_content, ".tsv" for Tesseract TSV, ".hocr"), so the bench reads a corpus exactly as
// `chunkkit chunk DIR` does. The map is new on every call; add a loader for another format to
// it.
func DefaultLoaders() map[string]Loader {
	m := map[string]Loader{}
	for _, f := range pipeline.Formats() {
		for _, ext := range pipeline.Extensions(f) {
			m[ext] = LoaderFor(f)
		}
	}
	return m
}

// LoaderFor returns the Loader for input format f: pipeline.Parse in that format.
func LoaderFor(f pipeline.Format) Loader {
	return func(src []byte, id string) (*sdk.Document, error) {
		return pipeline.Parse(src, f, pipeline.ParseOptions{ID: id})
	}
}

// LoadTesseractTSV is the Loader for Tesseract's TSV output (ocr.ReadTSV).
func LoadTesseractTSV(src []byte, id string) (*sdk.Document, error) {
	return LoaderFor(pipeline.FormatTesseractTSV)(src, id)
}

// LoadHOCR is the Loader for hOCR (ocr.ReadHOCR).
func LoadHOCR(src []byte, id string) (*sdk.Document, error) {
	return LoaderFor(pipeline.FormatHOCR)(src, id)
}

// LoadDoc2mark is the Loader for doc2mark's json_content (doc2mark.Parse).
func LoadDoc2mark(src []byte, id string) (*sdk.Document, error) {
	return LoaderFor(pipeline.FormatDoc2mark)(src, id)
}

// LoadMarkdown is the Loader for Markdown (markdown.Parse).
func LoadMarkdown(src []byte, id string) (*sdk.Document, error) {
	return LoaderFor(pipeline.FormatMarkdown)(src, id)
}

// LoadText is the Loader for plain text (markdown.ParseText).
func LoadText(src []byte, id string) (*sdk.Document, error) {
	return LoaderFor(pipeline.FormatText)(src, id)
}

// Document is a corpus document as the harness keeps it: the parsed document, the size of
// its file and what the quality metrics need to know about its canonical text.
type Document struct {
	// Path is the file the document was loaded from.
	Path string
	// Doc is the parsed document; chunkers only read it.
	Doc *sdk.Document
	// Bytes is the size of the file.
	Bytes int

	canon sdk.Canonical
	// sentenceEnds holds the canonical offsets where a sentence ends, trailing white space
	// excluded, ascending; every block's end is one.
	sentenceEnds []int
	// headings holds the canonical offsets of heading blocks, ascending.
	headings []int
	// words holds the canonical ranges of the words of every block (sdk/wordbreak: UAX #29
	// words that hold a letter, digit or mark), ascending.
	words []wordbreak.Span
}

func newDocument(path string, size int, doc *sdk.Document) *Document {
	d := &Document{Path: path, Doc: doc, Bytes: size, canon: doc.Canonical()}
	for i, b := range doc.Blocks {
		start := d.canon.Starts[i]
		if b.Kind == sdk.KindHeading {
			d.headings = append(d.headings, start)
		}
		for _, w := range wordbreak.Words(b.Text) {
			d.words = append(d.words, wordbreak.Span{Start: start + w.Start, End: start + w.End})
		}
		for _, e := range sentence.Ends(b.Text) {
			end := start + len(strings.TrimRight(b.Text[:e], " \t\n\r\f\v"))
			if n := len(d.sentenceEnds); n == 0 || d.sentenceEnds[n-1] < end {
				d.sentenceEnds = append(d.sentenceEnds, end)
			}
		}
	}
	return d
}

// loaderFor returns the loader for path's extension.
func loaderFor(loaders map[string]Loader, path string) (Loader, bool) {
	l, ok := loaders[strings.ToLower(filepath.Ext(path))]
	return l, ok
}

// LoadCorpus loads every file under dir (recursively, in lexical order, skipping names that
// start with ".") that a loader in loaders reads, by extension. A document's ID is its path
// relative to dir, with slashes. It returns an error naming the file when a loader fails, and
// when dir holds no file any loader reads.
func LoadCorpus(dir string, loaders map[string]Loader) ([]*Document, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if _, ok := loaderFor(loaders, path); ok && d.Type().IsRegular() {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bench: corpus %s: %w", dir, err)
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("bench: corpus %s: no file with a known extension (%s)", dir, strings.Join(extensions(loaders), ", "))
	}
	docs := make([]*Document, 0, len(paths))
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			rel = path
		}
		load, _ := loaderFor(loaders, path)
		doc, err := load(src, filepath.ToSlash(rel))
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", path, err)
		}
		docs = append(docs, newDocument(path, len(src), doc))
	}
	return docs, nil
}

func extensions(loaders map[string]Loader) []string {
	var exts []string
	for ext := range loaders {
		exts = append(exts, ext)
	}
	slices.Sort(exts)
	return exts
}
