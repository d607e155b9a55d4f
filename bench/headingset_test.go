package bench

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestHeadingQuestions(t *testing.T) {
	t.Parallel()
	text := "# Errors\n\n<a id=\"E_ONE\"></a>\n\n### `E_ONE`\n\n<!-- YAML\nadded: v1\n-->\n\nThe first — error.\n\n```text\n### `E_FAKE`\n```\n\n<a id=\"E_TWO\"></a>\n\n### `E_TWO`\n\n### `E_DUP`\n\nOnce.\n\n### `E_DUP`\n\nTwice.\n\n### `E_LAST`\n\nEnds the file.\n"
	rules := []HeadingRule{{regexp.MustCompile(`^errs$`), 3, regexp.MustCompile("^`(E_[A-Z]+)`$"), "What is %s?"}}
	got := HeadingQuestions("errs", text, rules)
	runes := []rune(text)
	var summary []string
	for _, q := range got {
		r := q.References[0]
		if string(runes[r.Span.Start:r.Span.End]) != r.Content {
			t.Errorf("%s: [%d, %d) holds %q, not %q", q.Text, r.Span.Start, r.Span.End, string(runes[r.Span.Start:r.Span.End]), r.Content)
		}
		summary = append(summary, q.Text+" → "+r.Content)
	}
	want := []string{
		// The comment after the heading and the anchor of the next heading are left out;
		// the fenced "heading" is body text.
		"What is E_ONE? → The first — error.\n\n```text\n### `E_FAKE`\n```",
		// E_TWO has no body, E_DUP two answers: neither makes a question.
		"What is E_LAST? → Ends the file.",
	}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
}

// checkHeadingSet checks every question of the set in dir: its reference is the corpus text
// at its offsets (LoadEvalSet's check) and it follows, past blank lines, comments and anchors,
// the heading that names what the question asks about.
func checkHeadingSet(t *testing.T, dir string) *EvalSet {
	t.Helper()
	set, err := LoadEvalSet(dir, DefaultLoaders())
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`(--[a-z0-9-]+|[A-Z][A-Z0-9_]{3,})`)
	for _, q := range set.Questions {
		var c *Corpus
		for _, x := range set.Corpora {
			if x.ID == q.Corpus {
				c = x
			}
		}
		r := q.References[0]
		before := string([]rune(c.Text)[:r.Span.Start])
		lines := strings.Split(strings.TrimRight(before, "\n"), "\n")
		heading := ""
		for i := len(lines) - 1; i >= 0; i-- {
			if strings.HasPrefix(lines[i], "### ") {
				heading = lines[i]
				break
			}
		}
		asked := name.FindString(strings.TrimPrefix(q.Text, "What"))
		if asked == "" || !strings.Contains(heading, asked) {
			t.Errorf("%s: the reference follows the heading %q, which does not name %q", q.Text, heading, asked)
		}
	}
	return set
}

func TestShippedHeadingSet(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("headings")
	set := checkHeadingSet(t, dir)
	if len(set.Questions) < 30 || len(set.Corpora) != 3 {
		t.Errorf("the shipped heading set has %d questions about %d corpora, want 30 or more about 3", len(set.Questions), len(set.Corpora))
	}
	// The committed questions are what the generator makes of the committed documents.
	gen, err := ShippedHeadingQuestions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(gen, set.Questions, cmpopts.IgnoreUnexported(Question{})); diff != "" {
		t.Errorf("bench/headings/questions_df.csv is stale; run go run ./tools/heading-eval -shipped (-generated +committed):\n%s", diff)
	}
}

// TestNodeJSHeadingSet generates the Node.js set from the corpus named by CHUNKKIT_CORPUS
// and checks it.
func TestNodeJSHeadingSet(t *testing.T) {
	corpus := os.Getenv("CHUNKKIT_CORPUS")
	if corpus == "" {
		t.Skip("CHUNKKIT_CORPUS is not set: build a corpus with ../shared/tools/build-corpus.sh /tmp/corpus and set CHUNKKIT_CORPUS=/tmp/corpus")
	}
	docs := map[string]string{}
	var qs []Question
	for _, id := range []string{"cli", "deprecations", "errors"} {
		src, err := os.ReadFile(filepath.Join(corpus, "en-md", "nodejs-api", id+".md"))
		if err != nil {
			t.Fatal(err)
		}
		docs[id] = string(src)
		qs = append(qs, HeadingQuestions(id, string(src), NodeJSRules())...)
	}
	dir := t.TempDir()
	if err := WriteEvalSet(dir, docs, qs); err != nil {
		t.Fatal(err)
	}
	set := checkHeadingSet(t, dir)
	per := map[string]int{}
	for _, q := range set.Questions {
		per[q.Corpus]++
	}
	if per["cli"] < 100 || per["errors"] < 300 || per["deprecations"] < 150 {
		t.Errorf("questions per document %v: fewer than the headings promise", per)
	}
}
