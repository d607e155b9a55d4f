package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadCorpus(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"b/guide.md":       "# Guide\n\nText.\n",
		"a.txt":            "Plain text.\n",
		"c.json":           `[{"type": "text:title", "content": "Title"}, {"type": "text:normal", "content": "Body."}]`,
		"notes.csv":        "ignored,because,no loader\n",
		".hidden/skip.md":  "# Hidden\n",
		"b/.draft.md":      "# Draft\n",
		"b/deeper/last.md": "Last.\n",
	})
	tsv, err := os.ReadFile(filepath.Join("..", "adapters", "ocr", "testdata", "multipage.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scan.tsv"), tsv, 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := LoadCorpus(dir, DefaultLoaders())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.Doc.ID)
	}
	if diff := cmp.Diff([]string{"a.txt", "b/deeper/last.md", "b/guide.md", "c.json", "scan.tsv"}, ids); diff != "" {
		t.Errorf("document IDs (-want +got):\n%s", diff)
	}
	if got := docs[3].Doc.Canonical().Text; got != "Title\n\nBody." {
		t.Errorf("doc2mark document's canonical text = %q, want %q", got, "Title\n\nBody.")
	}
	if len(docs[4].Doc.Blocks) == 0 {
		t.Error("the Tesseract TSV document has no blocks")
	}
}

func TestLoadCorpusErrors(t *testing.T) {
	t.Parallel()
	t.Run("a file a loader rejects is named with the loader's error", func(t *testing.T) {
		t.Parallel()
		dir := writeFiles(t, map[string]string{"bad.md": "caf\xe9\n"})
		_, err := LoadCorpus(dir, DefaultLoaders())
		if !errors.Is(err, sdk.ErrInvalidInput) || !strings.Contains(err.Error(), "bad.md") {
			t.Errorf("LoadCorpus = %v, want an invalid-input error naming bad.md", err)
		}
	})
	t.Run("a folder with no known file is an error listing the extensions", func(t *testing.T) {
		t.Parallel()
		dir := writeFiles(t, map[string]string{"x.csv": "a,b\n"})
		_, err := LoadCorpus(dir, DefaultLoaders())
		if err == nil || !strings.Contains(err.Error(), ".md") {
			t.Errorf("LoadCorpus = %v, want an error listing the known extensions", err)
		}
	})
}
