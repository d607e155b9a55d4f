package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir returns ../shared relative to the module root, or skips the test.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found: ../shared not found")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(shared); err != nil {
		t.Skip("Chroma evaluation set: ../shared not found")
	}
	return shared
}

func TestLoadEvalSetOfTheShippedCorpus(t *testing.T) {
	t.Parallel()
	set, err := LoadEvalSet("corpus", DefaultLoaders())
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) < 30 || len(set.Corpora) < 8 {
		t.Errorf("shipped set has %d questions over %d corpora, want at least 30 over 8", len(set.Questions), len(set.Corpora))
	}
	for _, c := range set.Corpora {
		if c.Doc.Doc.CorpusID != c.ID {
			t.Errorf("corpus %s: document's CorpusID is %q", c.ID, c.Doc.Doc.CorpusID)
		}
	}
}

func TestLoadEvalSetOfTheChromaDevelopmentSet(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(sharedDir(t), "eval", "chroma")
	set, err := LoadEvalSet(dir, DefaultLoaders())
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) != 276 || len(set.Corpora) != 3 {
		t.Errorf("got %d questions over %d corpora, want 276 over 3", len(set.Questions), len(set.Corpora))
	}
	// Chroma's corpora have long unbroken lines: a small budget exercises the map most.
	for _, c := range set.Corpora {
		chunks := chunkWith(t, c.Doc.Doc, 64)
		checkChunkSpans(t, c.Text, c.Doc.Doc, c.Map, chunks)
	}
}

func TestLoadEvalSetErrors(t *testing.T) {
	t.Parallel()
	const corpus = "Alpha beta.\n\nGamma — delta.\n"
	tests := []struct {
		name      string
		questions string
		files     map[string]string
		want      string
	}{
		{
			name:      "a reference whose content differs from the corpus names the line",
			questions: "question,references,corpus_id\nq,\"[{\"\"content\"\": \"\"Gamma\"\", \"\"start_index\"\": 0, \"\"end_index\"\": 5}]\",c\n",
			want:      "line 2",
		},
		{
			name:      "a reference past the end of the corpus is an error",
			questions: "question,references,corpus_id\nq,\"[{\"\"content\"\": \"\"x\"\", \"\"start_index\"\": 100, \"\"end_index\"\": 101}]\",c\n",
			want:      "outside corpus",
		},
		{
			name:      "a missing corpus file is an error naming the corpus",
			questions: "question,references,corpus_id\nq,\"[{\"\"content\"\": \"\"x\"\", \"\"start_index\"\": 0, \"\"end_index\"\": 1}]\",missing\n",
			want:      `corpus "missing"`,
		},
		{
			name:      "a missing column is an error naming it",
			questions: "question,refs,corpus_id\nq,[],c\n",
			want:      `no column "references"`,
		},
		{
			name:      "references that are not JSON name the field",
			questions: "question,references,corpus_id\nq,not json,c\n",
			want:      "line 2: field references",
		},
		{
			name:      "a question without references is an error",
			questions: "question,references,corpus_id\nq,[],c\n",
			want:      "no reference",
		},
		{
			name:      "a corpus ID with a slash is refused",
			questions: "question,references,corpus_id\nq,\"[{\"\"content\"\": \"\"x\"\", \"\"start_index\"\": 0, \"\"end_index\"\": 1}]\",../c\n",
			want:      "not a corpus file name",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, CorporaDir), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, CorporaDir, "c.md"), []byte(corpus), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, QuestionsFile), []byte(tt.questions), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadEvalSet(dir, DefaultLoaders())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadEvalSet = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestLoadEvalSetCountsCodePointsAfterPythonNewlines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, CorporaDir), 0o755); err != nil {
		t.Fatal(err)
	}
	// In Python's text mode "\r\n" is one character; "é" and "—" are one code point each.
	if err := os.WriteFile(filepath.Join(dir, CorporaDir, "c.txt"), []byte("Café —\r\n\r\nsecond line\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := "question,references,corpus_id\nq,\"[{\"\"content\"\": \"\"second\"\", \"\"start_index\"\": 8, \"\"end_index\"\": 14}]\",c\n"
	if err := os.WriteFile(filepath.Join(dir, QuestionsFile), []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadEvalSet(dir, DefaultLoaders())
	if err != nil {
		t.Fatal(err)
	}
	c := set.Corpora[0]
	canon := c.Doc.Doc.Canonical().Text
	i := strings.Index(canon, "second")
	if got := c.Map.Span(i, i+len("second")); got != (Span{8, 14}) {
		t.Errorf("Span of \"second\" = %v, want {8 14}", got)
	}
}

func TestIsEvalSet(t *testing.T) {
	t.Parallel()
	if !IsEvalSet("corpus") {
		t.Error("IsEvalSet(corpus) = false, want true")
	}
	if IsEvalSet(filepath.Join("corpus", CorporaDir)) {
		t.Error("IsEvalSet(corpus/corpora) = true, want false")
	}
	if _, err := LoadEvalSet(t.TempDir(), DefaultLoaders()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadEvalSet of an empty folder = %v, want os.ErrNotExist", err)
	}
}
