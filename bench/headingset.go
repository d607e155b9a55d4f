package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// HeadingRule makes a question of a heading: for a heading of Level in a corpus whose ID
// matches Corpus, whose text matches Pattern, the question is Question with "%s" replaced by
// Pattern's first submatch (the name the heading gives).
type HeadingRule struct {
	Corpus   *regexp.Regexp
	Level    int
	Pattern  *regexp.Regexp
	Question string
}

// NodeJSRules are the rules of the heading-rich evaluation set made of the Node.js API
// documents (errors.md, cli.md, deprecations.md): "What does the Node.js error ERR_X mean?",
// "What does the node option --x do?", "What is deprecation DEP0005 about?".
func NodeJSRules() []HeadingRule {
	return []HeadingRule{
		{regexp.MustCompile(`^errors$`), 3, regexp.MustCompile("^`(ERR_[A-Z0-9_]+)`$"), "What does the Node.js error %s mean?"},
		{regexp.MustCompile(`^cli$`), 3, regexp.MustCompile("^(?:`-[a-zA-Z]`, )?`(--[a-z0-9-]+)(?:[=` ].*)?$"), "What does the node option %s do?"},
		{regexp.MustCompile(`^deprecations$`), 3, regexp.MustCompile(`^(DEP\d{4}):`), "What is deprecation %s about?"},
	}
}

// ShippedHeadingRules are the rules of the heading-rich evaluation set shipped in
// bench/headings, whose documents were written for chunkkit in the style of an API reference.
func ShippedHeadingRules() []HeadingRule {
	return []HeadingRule{
		{regexp.MustCompile(`-errors$`), 3, regexp.MustCompile("^`(TW_[A-Z0-9_]+)`$"), "What does the tidewatch error %s mean?"},
		{regexp.MustCompile(`-cli$`), 3, regexp.MustCompile("^`(--[a-z0-9-]+)(?:[=` ].*)?$"), "What does the tidewatch option %s do?"},
		{regexp.MustCompile(`-deprecations$`), 3, regexp.MustCompile(`^(TWDEP\d{4}):`), "What is tidewatch deprecation %s about?"},
	}
}

// HeadingQuestions returns a question for every ATX heading of the Markdown text (outside
// fenced code) that a rule matches, in document order. Its one reference is the section's
// body: the lines after the heading up to the next heading of any level, less the blank
// lines, HTML comments (such as `<!-- YAML added: v8.0.0 -->`) and anchor lines (`<a
// id="x"></a>`) at either end, with exact code point offsets into text. A section whose
// body is empty, and a name that two headings give, make no question: neither has one
// answer.
func HeadingQuestions(corpus, text string, rules []HeadingRule) []Question {
	type section struct {
		name, question string
		start, end     int // bytes of the body
	}
	var sections []section
	var open *section
	lines := strings.SplitAfter(text, "\n")
	off := 0
	fence := ""
	for _, line := range lines {
		trimmed := strings.TrimRight(line, "\n")
		if f := fenceOf(trimmed); f != "" && (fence == "" || strings.HasPrefix(f, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
		} else if level, title, ok := atxHeading(trimmed); ok && fence == "" {
			if open != nil {
				open.end = off
				sections = append(sections, *open)
				open = nil
			}
			for _, r := range rules {
				if r.Level != level || !r.Corpus.MatchString(corpus) {
					continue
				}
				if m := r.Pattern.FindStringSubmatch(title); m != nil {
					open = &section{name: m[1], question: fmt.Sprintf(r.Question, m[1]), start: off + len(line)}
					break
				}
			}
		}
		off += len(line)
	}
	if open != nil {
		open.end = len(text)
		sections = append(sections, *open)
	}
	seen := map[string]int{}
	for _, s := range sections {
		seen[s.name]++
	}
	var qs []Question
	for _, s := range sections {
		if seen[s.name] > 1 {
			continue
		}
		start, end := sectionBody(text, s.start, s.end)
		if start >= end {
			continue
		}
		cp := utf8.RuneCountInString(text[:start])
		ref := Reference{Content: text[start:end], Span: Span{cp, cp + utf8.RuneCountInString(text[start:end])}}
		qs = append(qs, Question{Text: s.question, Corpus: corpus, References: []Reference{ref}})
	}
	return qs
}

// sectionBody narrows text[start:end] to exclude blank lines, HTML comments and anchor lines
// at both ends, and trailing white space.
func sectionBody(text string, start, end int) (int, int) {
	for start < end {
		rest := text[start:end]
		switch {
		case strings.HasPrefix(strings.TrimLeft(rest, " \t"), "<!--"):
			k := strings.Index(rest, "-->")
			if k < 0 {
				return start, start
			}
			start += k + len("-->")
		case anchorLine.MatchString(firstLine(rest)) || strings.TrimSpace(firstLine(rest)) == "":
			start += min(len(firstLine(rest))+1, len(rest))
		default:
			goto tail
		}
	}
tail:
	for end > start {
		body := strings.TrimRight(text[start:end], " \t\n")
		end = start + len(body)
		lastNL := strings.LastIndexByte(body, '\n')
		last := body[lastNL+1:]
		switch {
		case strings.HasSuffix(body, "-->"):
			k := strings.LastIndex(body, "<!--")
			if k < 0 {
				return start, end
			}
			end = start + k
		case anchorLine.MatchString(last):
			end = start + lastNL + 1
		default:
			return start, end
		}
	}
	return start, end
}

var anchorLine = regexp.MustCompile(`^\s*(<a id="[^"]*"></a>\s*)+$`)

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// atxHeading returns the level and text of an ATX heading line.
func atxHeading(line string) (int, string, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, "", false
	}
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n < 1 || n > 6 || (len(t) > n && t[n] != ' ' && t[n] != '\t') {
		return 0, "", false
	}
	title := strings.TrimSpace(t[n:])
	title = strings.TrimSpace(strings.TrimRight(title, "#"))
	return n, title, true
}

// fenceOf returns the fence a line opens or closes ("```", "~~~~", ...), or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return ""
	}
	return t[:n]
}

// WriteEvalSet writes an evaluation set in the Chroma format into dir: the questions into
// dir/questions_df.csv and, for every corpus ID of corpora, its text into
// dir/corpora/ID.md. The CSV's references are JSON lists of {"content", "start_index",
// "end_index"} as LoadEvalSet reads them.
func WriteEvalSet(dir string, corpora map[string]string, questions []Question) error {
	if err := os.MkdirAll(filepath.Join(dir, CorporaDir), 0o755); err != nil {
		return err
	}
	ids := make([]string, 0, len(corpora))
	for id := range corpora {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if err := os.WriteFile(filepath.Join(dir, CorporaDir, id+".md"), []byte(corpora[id]), 0o644); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"question", "references", "corpus_id"})
	for _, q := range questions {
		type ref struct {
			Content    string `json:"content"`
			StartIndex int    `json:"start_index"`
			EndIndex   int    `json:"end_index"`
		}
		refs := make([]ref, len(q.References))
		for i, r := range q.References {
			refs[i] = ref{r.Content, r.Span.Start, r.Span.End}
		}
		var js bytes.Buffer
		enc := json.NewEncoder(&js)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(refs); err != nil {
			return err
		}
		w.Write([]string{q.Text, strings.TrimSuffix(js.String(), "\n"), q.Corpus})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, QuestionsFile), buf.Bytes(), 0o644)
}

// ShippedHeadingQuestions returns the questions of the heading-rich set in dir (the shipped
// one is bench/headings): HeadingQuestions with ShippedHeadingRules over every
// dir/corpora/*.md, in file name order.
func ShippedHeadingQuestions(dir string) ([]Question, error) {
	paths, err := filepath.Glob(filepath.Join(dir, CorporaDir, "*.md"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("bench: %s: no corpora", dir)
	}
	var qs []Question
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		id := strings.TrimSuffix(filepath.Base(p), ".md")
		qs = append(qs, HeadingQuestions(id, string(src), ShippedHeadingRules())...)
	}
	return qs, nil
}
