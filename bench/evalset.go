package bench

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Files of an evaluation set in the Chroma format.
const (
	// QuestionsFile is the questions' CSV file in an evaluation set's folder.
	QuestionsFile = "questions_df.csv"
	// CorporaDir is the folder of an evaluation set that holds its corpora, one file each.
	CorporaDir = "corpora"
)

// EvalSet is an evaluation set in the Chroma format: corpora and questions whose references
// are excerpts of them with exact code point offsets. LoadEvalSet reads one.
type EvalSet struct {
	// Dir is the folder the set was loaded from.
	Dir string
	// Corpora are the set's corpora, by ID.
	Corpora []*Corpus
	// Questions are the set's questions in file order.
	Questions []Question
}

// Corpus is one corpus of an evaluation set.
type Corpus struct {
	// ID is the corpus ID the questions name, its file name without extension.
	ID string
	// Text is the file's text with line endings normalized as Python's text mode does
	// ("\r\n" and "\r" become "\n"); references' offsets are code points of it.
	Text string
	// Doc is the corpus parsed by the loader of its extension.
	Doc *Document
	// Map maps the document's canonical offsets to code points of Text.
	Map *SourceMap
}

// IsEvalSet reports whether dir looks like an evaluation set: it holds QuestionsFile and a
// CorporaDir folder.
func IsEvalSet(dir string) bool {
	q, err1 := os.Stat(filepath.Join(dir, QuestionsFile))
	c, err2 := os.Stat(filepath.Join(dir, CorporaDir))
	return err1 == nil && err2 == nil && q.Mode().IsRegular() && c.IsDir()
}

// LoadEvalSet reads the evaluation set in dir: dir/questions_df.csv with the columns
// question, references and corpus_id (others are ignored), where references is a JSON list of
// {"content", "start_index", "end_index"}; and for every corpus ID a file
// dir/corpora/ID.EXT that a loader reads (Chroma's sets use ".md"). Each corpus is parsed and
// mapped back to its text with NewSourceMap.
//
// Every reference is checked: Text[start:end] (in code points) must equal its content. Errors
// name the file, the CSV line and the field.
func LoadEvalSet(dir string, loaders map[string]Loader) (*EvalSet, error) {
	qpath := filepath.Join(dir, QuestionsFile)
	f, err := os.Open(qpath)
	if err != nil {
		return nil, fmt.Errorf("bench: evaluation set: %w", err)
	}
	defer f.Close()
	questions, err := readQuestions(f, qpath)
	if err != nil {
		return nil, err
	}
	set := &EvalSet{Dir: dir, Questions: questions}
	byID := map[string]*Corpus{}
	for _, q := range questions {
		if byID[q.Corpus] != nil {
			continue
		}
		c, err := loadEvalCorpus(dir, q.Corpus, loaders)
		if err != nil {
			return nil, err
		}
		byID[q.Corpus] = c
		set.Corpora = append(set.Corpora, c)
	}
	slices.SortFunc(set.Corpora, func(a, b *Corpus) int { return strings.Compare(a.ID, b.ID) })
	points := map[string][]int{} // corpus → byte offset of each code point
	for _, q := range questions {
		c := byID[q.Corpus]
		offs, ok := points[c.ID]
		if !ok {
			offs = codePointOffsets(c.Text)
			points[c.ID] = offs
		}
		for j, r := range q.References {
			if r.Span.Start < 0 || r.Span.End < r.Span.Start || r.Span.End >= len(offs) {
				return nil, fmt.Errorf("bench: %s: line %d: field references: reference %d: span [%d, %d) is outside corpus %q (%d code points)", qpath, q.line, j, r.Span.Start, r.Span.End, c.ID, len(offs)-1)
			}
			if got := c.Text[offs[r.Span.Start]:offs[r.Span.End]]; got != r.Content {
				return nil, fmt.Errorf("bench: %s: line %d: field references: reference %d: corpus %q [%d, %d) holds %q, not the content %q", qpath, q.line, j, c.ID, r.Span.Start, r.Span.End, clip(got), clip(r.Content))
			}
		}
	}
	return set, nil
}

// codePointOffsets returns the byte offset of every code point of text, then len(text).
func codePointOffsets(text string) []int {
	offs := make([]int, 0, len(text)+1)
	for j := range text {
		offs = append(offs, j)
	}
	return append(offs, len(text))
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	r := []rune(s)
	return string(r[:60]) + "…"
}

type jsonReference struct {
	Content    *string `json:"content"`
	StartIndex *int    `json:"start_index"`
	EndIndex   *int    `json:"end_index"`
}

func readQuestions(r io.Reader, path string) ([]Question, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("bench: %s: header: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimPrefix(h, "\uFEFF")] = i
	}
	for _, want := range []string{"question", "references", "corpus_id"} {
		if _, ok := col[want]; !ok {
			return nil, fmt.Errorf("bench: %s: header has no column %q (it has %q)", path, want, header)
		}
	}
	var qs []Question
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		var refs []jsonReference
		if err := json.Unmarshal([]byte(rec[col["references"]]), &refs); err != nil {
			return nil, fmt.Errorf("bench: %s: line %d: field references: %w", path, line, err)
		}
		q := Question{Text: rec[col["question"]], Corpus: rec[col["corpus_id"]], line: line}
		if q.Corpus == "" || strings.ContainsAny(q.Corpus, `/\`) || q.Corpus == "." || q.Corpus == ".." {
			return nil, fmt.Errorf("bench: %s: line %d: field corpus_id: %q is not a corpus file name", path, line, q.Corpus)
		}
		if len(refs) == 0 {
			return nil, fmt.Errorf("bench: %s: line %d: field references: no reference", path, line)
		}
		for j, ref := range refs {
			if ref.Content == nil || ref.StartIndex == nil || ref.EndIndex == nil {
				return nil, fmt.Errorf("bench: %s: line %d: field references: reference %d lacks content, start_index or end_index", path, line, j)
			}
			q.References = append(q.References, Reference{Content: *ref.Content, Span: Span{*ref.StartIndex, *ref.EndIndex}})
		}
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("bench: %s: no questions", path)
	}
	return qs, nil
}

func loadEvalCorpus(dir, id string, loaders map[string]Loader) (*Corpus, error) {
	var found []string
	for _, ext := range extensions(loaders) {
		p := filepath.Join(dir, CorporaDir, id+ext)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("bench: evaluation set %s: corpus %q: no file %s/%s.EXT with EXT one of %s", dir, id, CorporaDir, id, strings.Join(extensions(loaders), ", "))
	case 1:
	default:
		return nil, fmt.Errorf("bench: evaluation set %s: corpus %q: several files: %s", dir, id, strings.Join(found, ", "))
	}
	path := found[0]
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bench: evaluation set: %w", err)
	}
	if !utf8.Valid(src) {
		return nil, fmt.Errorf("bench: %s: not valid UTF-8", path)
	}
	text := universalNewlines(string(src))
	load, _ := loaderFor(loaders, path)
	doc, err := load([]byte(text), id)
	if err != nil {
		return nil, fmt.Errorf("bench: %s: %w", path, err)
	}
	doc.CorpusID = id
	m, err := NewSourceMap(text, doc)
	if err != nil {
		return nil, fmt.Errorf("bench: %s: %w", path, err)
	}
	return &Corpus{ID: id, Text: text, Doc: newDocument(path, len(src), doc), Map: m}, nil
}

// universalNewlines turns "\r\n" and lone "\r" into "\n", as Python's text mode reads files.
func universalNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
