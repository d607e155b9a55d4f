package pipeline_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

// tree writes files (path → content) under a new temporary directory and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type walked struct {
	ID, Path string
	Format   pipeline.Format
	Err      string
}

func walk(roots []string, o pipeline.WalkOptions) []walked {
	var out []walked
	for in, err := range pipeline.Walk(roots, o) {
		w := walked{ID: in.ID, Path: in.Path, Format: in.Format}
		if err != nil {
			w.Err = err.Error()
		}
		out = append(out, w)
	}
	return out
}

func TestWalk(t *testing.T) {
	t.Parallel()
	dir := tree(t, map[string]string{
		"a.md":              "# A",
		"api/fs.md":         "# fs",
		"api/net.markdown":  "# net",
		"api/notes.txt":     "notes",
		"api/logo.png":      "png",
		"api/.draft.md":     "hidden",
		".hidden/x.md":      "hidden dir",
		".git/HEAD.md":      "vcs",
		"CVS/entries.md":    "vcs",
		"ocr/page.hocr":     "<html/>",
		"ocr/page.tsv":      "level",
		"data/content.json": `{"content": []}`,
		"data/package.json": `{"name": "x"}`,
		"MANIFEST.tsv":      "path\tbytes\na.md\t3\n",
		"vendor/skip.md":    "excluded",
	})
	var skipped, mismatched []string
	got := walk([]string{dir}, pipeline.WalkOptions{
		Exclude: []string{"vendor"},
		Skipped: func(p string) { skipped = append(skipped, p) },
		Mismatched: func(p string, f pipeline.Format, why string) {
			mismatched = append(mismatched, p+" "+string(f)+": "+why)
		},
	})
	j := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	want := []walked{
		{ID: "a.md", Path: j("a.md"), Format: "md"},
		{ID: "api/fs.md", Path: j("api/fs.md"), Format: "md"},
		{ID: "api/net.markdown", Path: j("api/net.markdown"), Format: "md"},
		{ID: "api/notes.txt", Path: j("api/notes.txt"), Format: "txt"},
		{ID: "data/content.json", Path: j("data/content.json"), Format: "doc2mark"},
		{ID: "ocr/page.hocr", Path: j("ocr/page.hocr"), Format: "hocr"},
		{ID: "ocr/page.tsv", Path: j("ocr/page.tsv"), Format: "tesseract-tsv"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{j("api/logo.png")}, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	wantMismatched := []string{
		j("MANIFEST.tsv") + ` tesseract-tsv: its first line is neither Tesseract's TSV header (level, page_num, …, text) nor one of its rows: 2 tab-separated fields, the first "path"`,
		j("data/package.json") + ` doc2mark: a JSON object without json_content's "content" field; its fields: "name"`,
	}
	if diff := cmp.Diff(wantMismatched, mismatched); diff != "" {
		t.Errorf("mismatched (-want +got):\n%s", diff)
	}

	t.Run("files named by themselves or with a format are read whatever they hold", func(t *testing.T) {
		got := walk([]string{j("data/package.json"), j("MANIFEST.tsv")}, pipeline.WalkOptions{})
		want := []walked{
			{ID: "package.json", Path: j("data/package.json"), Format: "doc2mark"},
			{ID: "MANIFEST.tsv", Path: j("MANIFEST.tsv"), Format: "tesseract-tsv"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Walk of the files (-want +got):\n%s", diff)
		}
		got = walk([]string{j("data")}, pipeline.WalkOptions{Format: pipeline.FormatDoc2mark})
		if len(got) != 2 || got[1].ID != "package.json" {
			t.Errorf("Walk with --from doc2mark: %+v, want both JSON files", got)
		}
	})

	t.Run("a directory of files not in their format says so", func(t *testing.T) {
		only := tree(t, map[string]string{"a/package.json": `{"name": "a"}`, "b/package.json": `{"name": "b"}`})
		got := walk([]string{only}, pipeline.WalkOptions{})
		want := only + ": no file below it to chunk: 2 files of a known extension are not in its format, such as " + filepath.Join(only, "a", "package.json") + `, a JSON object without json_content's "content" field; its fields: "name"; --from FORMAT reads every file in that format`
		if len(got) != 1 || got[0].Err != want {
			t.Errorf("Walk = %+v, want one error %q", got, want)
		}
	})

	t.Run("IDs do not depend on how the directory is named", func(t *testing.T) {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(wd, dir)
		if err != nil {
			t.Skip("the temporary directory has no path relative to the working directory")
		}
		for _, root := range []string{dir, dir + "/", rel, "./" + rel} {
			var ids []string
			for in, err := range pipeline.Walk([]string{root}, pipeline.WalkOptions{Include: []string{"*.md"}, Exclude: []string{"vendor"}}) {
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, in.ID)
			}
			if diff := cmp.Diff([]string{"a.md", "api/fs.md"}, ids); diff != "" {
				t.Errorf("Walk(%q) IDs (-want +got):\n%s", root, diff)
			}
		}
	})

	t.Run("include patterns with a slash match the relative path", func(t *testing.T) {
		got := walk([]string{dir}, pipeline.WalkOptions{Include: []string{"api/*"}})
		var ids []string
		for _, w := range got {
			ids = append(ids, w.ID)
		}
		if diff := cmp.Diff([]string{"api/fs.md", "api/net.markdown", "api/notes.txt"}, ids); diff != "" {
			t.Errorf("IDs (-want +got):\n%s", diff)
		}
	})

	t.Run("a forced format reads every file in it", func(t *testing.T) {
		got := walk([]string{filepath.Join(dir, "api")}, pipeline.WalkOptions{Format: pipeline.FormatText})
		if len(got) != 4 || got[1].ID != "logo.png" || got[1].Format != "txt" {
			t.Errorf("got %+v, want the four visible files of api as txt", got)
		}
	})

	t.Run("a file given by itself is named by its base name", func(t *testing.T) {
		got := walk([]string{j("api/fs.md"), j("a.md")}, pipeline.WalkOptions{})
		want := []walked{{ID: "fs.md", Path: j("api/fs.md"), Format: "md"}, {ID: "a.md", Path: j("a.md"), Format: "md"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})

	t.Run("problems are yielded in place and the walk goes on", func(t *testing.T) {
		got := walk([]string{j("missing.md"), j("api/logo.png"), j("a.md"), dir}, pipeline.WalkOptions{Include: []string{"a.md"}})
		if len(got) != 4 {
			t.Fatalf("got %+v", got)
		}
		if !strings.Contains(got[0].Err, "missing.md") {
			t.Errorf("missing file: %q", got[0].Err)
		}
		if !strings.Contains(got[1].Err, `extension ".png"`) || !strings.Contains(got[1].Err, "--from") {
			t.Errorf("unknown extension: %q", got[1].Err)
		}
		if got[2].Err != "" {
			t.Errorf("a.md: %q", got[2].Err)
		}
		if !strings.Contains(got[3].Err, `document ID "a.md" is already`) {
			t.Errorf("duplicate ID: %q", got[3].Err)
		}
	})
}

// TestWalkSymbolicLinks: a link to a file is read as the file, under the link's name; a link
// to a directory below a root is not followed (it could loop, as sub/loop does) and is told to
// LinkedDir; a root that is a link is walked as what it leads to, its paths under the link; a
// link that cannot be followed is an error naming it and its target, unless its extension is
// one no format claims (left out, as any such file).
func TestWalkSymbolicLinks(t *testing.T) {
	t.Parallel()
	outer := tree(t, map[string]string{"docs/a.md": "# A", "docs/sub/b.md": "# B", "real/r.md": "# R"})
	docs := filepath.Join(outer, "docs")
	for link, target := range map[string]string{
		"docs/linked":      "../real",
		"docs/sub/loop":    "..",
		"docs/file.md":     "../real/r.md",
		"docs/dangling.md": "missing.md",
		"docs/dangling":    "missing",
		"docs.link":        "docs",
	} {
		if err := os.Symlink(target, filepath.Join(outer, link)); err != nil {
			t.Fatal(err)
		}
	}
	var linked, skipped []string
	o := pipeline.WalkOptions{
		LinkedDir: func(p string) { linked = append(linked, p) },
		Skipped:   func(p string) { skipped = append(skipped, p) },
	}
	j := func(root, p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	want := func(root string) []walked {
		return []walked{
			{ID: "a.md", Path: j(root, "a.md"), Format: "md"},
			{ID: "dangling.md", Path: j(root, "dangling.md"), Err: j(root, "dangling.md") + `: a symbolic link to "missing.md", which cannot be followed: no such file or directory`},
			{ID: "file.md", Path: j(root, "file.md"), Format: "md"},
			{ID: "sub/b.md", Path: j(root, "sub/b.md"), Format: "md"},
		}
	}
	for _, root := range []string{docs, filepath.Join(outer, "docs.link")} {
		linked, skipped = nil, nil
		if diff := cmp.Diff(want(root), walk([]string{root}, o)); diff != "" {
			t.Errorf("Walk(%s) (-want +got):\n%s", root, diff)
		}
		if diff := cmp.Diff([]string{j(root, "linked"), j(root, "sub/loop")}, linked); diff != "" {
			t.Errorf("Walk(%s): links to directories (-want +got):\n%s", root, diff)
		}
		if diff := cmp.Diff([]string{j(root, "dangling")}, skipped); diff != "" {
			t.Errorf("Walk(%s): skipped (-want +got):\n%s", root, diff)
		}
	}

	// With a format forced every file is read, the link without an extension too; the links
	// to directories are still left out, not read as files.
	var errs []string
	for _, err := range pipeline.Walk([]string{docs}, pipeline.WalkOptions{Format: pipeline.FormatText}) {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%v: not fs.ErrNotExist", err)
			}
			errs = append(errs, err.Error())
		}
	}
	if len(errs) != 2 || !strings.Contains(errs[0], "dangling: a symbolic link") || !strings.Contains(errs[1], "dangling.md: a symbolic link") {
		t.Errorf("with a forced format: errors %q, want the two broken links'", errs)
	}
}

func TestWalkReportsUnreadableDirectories(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		// root reads a 0 directory anyway; the error path is then a missing root.
		var gotErr error
		for _, err := range pipeline.Walk([]string{filepath.Join(t.TempDir(), "none")}, pipeline.WalkOptions{}) {
			gotErr = err
		}
		if !errors.Is(gotErr, fs.ErrNotExist) {
			t.Errorf("err = %v, want not-exist", gotErr)
		}
		return
	}
	dir := tree(t, map[string]string{"locked/a.md": "# A"})
	if err := os.Chmod(filepath.Join(dir, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	var gotErr error
	for _, err := range pipeline.Walk([]string{dir}, pipeline.WalkOptions{}) {
		gotErr = err
	}
	if !errors.Is(gotErr, fs.ErrPermission) {
		t.Errorf("err = %v, want permission denied", gotErr)
	}
}

func TestReadJSONL(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 400_000) // a 2 MB line
	stream := strings.Join([]string{
		`{"id": "a", "text": "# A\n\nbody", "title": "T", "tenant": "t1", "corpus": "c1", "acl": ["x"], "metadata": {"k": 1}}`,
		``,
		`{"path": "./docs/b.md"}`,
		`{"id": "c", "text": "plain", "format": "txt"}`,
		`not json`,
		`{"id": "d"}`,
		`{"id": "e", "text": "x", "path": "y.md"}`,
		`{"text": "no id"}`,
		`{"id": "f", "text": "x", "format": "pdf"}`,
		`{"id": "g", "text": "x", "colour": "red"}`,
		`{"path": "x.bin"}`,
		`{"id": "h", "text": "` + long + `"}`,
		`{"id": "j", "text": "x"} {"id": "k", "text": "y"}`,
		`{"ID": "l", "Text": "case"}`,
		`{"id": "m", "text": "x", "zeta": 1, "alpha": 2}`,
		`{"id": "n", "text": "plain", "format": "Text"}`,
		`{"id": "c", "text": "again"}`,
		`{"path": "docs/b.md"}`,
		`{"id": "i", "text": "last, no newline"}`,
	}, "\n")
	type line struct {
		ID, Path, Title, Tenant string
		Format                  pipeline.Format
		Data                    int
		InPlace                 bool
		Line                    int
		Err                     string
	}
	var got []line
	for in, err := range pipeline.ReadJSONL(strings.NewReader(stream), "stdin") {
		l := line{ID: in.ID, Path: in.Path, Title: in.Title, Tenant: in.TenantID, Format: in.Format, Data: len(in.Data), InPlace: in.InPlace, Line: in.Line}
		if err != nil {
			l = line{Line: in.Line, Err: err.Error()}
		}
		got = append(got, l)
	}
	want := []line{
		{ID: "a", Title: "T", Tenant: "t1", Format: "md", Data: len("# A\n\nbody"), InPlace: true, Line: 1},
		{ID: "docs/b.md", Path: "./docs/b.md", Format: "md", Line: 3},
		{ID: "c", Format: "txt", Data: 5, InPlace: true, Line: 4},
		{Line: 5, Err: "stdin:5: not a document object: invalid character 'o' in literal null (expecting 'u') (want {\"id\": ..., \"text\": ...} or {\"path\": ...})"},
		{Line: 6, Err: `stdin:6: has neither "text" nor "path"`},
		{Line: 7, Err: `stdin:7: has both "text" and "path"; give one`},
		{Line: 8, Err: `stdin:8: a document given by "text" needs an "id"`},
		{Line: 9, Err: `stdin:9: pipeline: unknown input format "pdf" (known: md, txt, doc2mark, ocr-json, tesseract-tsv or hocr)`},
		{Line: 10, Err: `stdin:10: not a document object: json: unknown field "colour" (want {"id": ..., "text": ...} or {"path": ...})`},
		{Line: 11, Err: `stdin:11: cannot tell the format of "x.bin" from its extension; add "format"`},
		{ID: "h", Format: "md", Data: len(long), InPlace: true, Line: 12},
		{Line: 13, Err: `stdin:13: more than one JSON value on the line`},
		{ID: "l", Format: "md", Data: 4, InPlace: true, Line: 14},
		{Line: 15, Err: `stdin:15: not a document object: json: unknown field "alpha" (want {"id": ..., "text": ...} or {"path": ...})`},
		{ID: "n", Format: "txt", Data: 5, InPlace: true, Line: 16},
		{Line: 17, Err: `stdin:17: document ID "c" is already line 4's: give each document an ID of its own (its chunks' IDs are ID#position)`},
		{Line: 18, Err: `stdin:18: document ID "docs/b.md" is already line 3's: give each document an ID of its own (its chunks' IDs are ID#position)`},
		{ID: "i", Format: "md", Data: 16, InPlace: true, Line: 19},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadJSONL (-want +got):\n%s", diff)
	}
}

func TestFormats(t *testing.T) {
	t.Parallel()
	if got, want := pipeline.FormatHelp(), "md, txt, doc2mark, ocr-json, tesseract-tsv or hocr"; got != want {
		t.Errorf("FormatHelp() = %q, want %q", got, want)
	}
	for _, c := range []struct {
		path string
		want pipeline.Format
	}{{"a.MD", "md"}, {"b.markdown", "md"}, {"c.txt", "txt"}, {"d.json", "doc2mark"}, {"e.tsv", "tesseract-tsv"}, {"f.hocr", "hocr"}, {"g.pdf", ""}} {
		got, ok := pipeline.FormatOf(c.path)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("FormatOf(%q) = %q, %v; want %q", c.path, got, ok, c.want)
		}
	}
	for _, f := range pipeline.Formats() {
		if _, err := pipeline.Parse([]byte{0xff}, f, pipeline.ParseOptions{ID: "x"}); err == nil && f != pipeline.FormatText && f != pipeline.FormatMarkdown {
			t.Errorf("Parse(0xff, %s) gave no error", f)
		}
	}
	if got := pipeline.Extensions(pipeline.FormatMarkdown); !cmp.Equal(got, []string{".md", ".markdown"}) {
		t.Errorf("Extensions(md) = %q", got)
	}
	if got := pipeline.Extensions(pipeline.FormatOCRJSON); len(got) != 0 {
		t.Errorf("Extensions(ocr-json) = %q, want none (.json is doc2mark's)", got)
	}
	if _, err := pipeline.Parse(nil, "pdf", pipeline.ParseOptions{}); err == nil || !strings.Contains(err.Error(), `unknown input format "pdf"`) {
		t.Errorf("Parse in an unknown format: %v", err)
	}
	for name, want := range map[string]pipeline.Format{
		"md": "md", "markdown": "md", "MD": "md", "Markdown": "md", "text": "txt", "txt": "txt", "json": "doc2mark",
		"doc2mark": "doc2mark", "ocr-json": "ocr-json", "tsv": "tesseract-tsv", "HOCR": "hocr",
		"": "", ".md": "", "x.md": "", "a/md": "", "pdf": "", "Ocr-Json": "",
	} {
		got, err := pipeline.ParseFormat(name)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	doc, err := pipeline.Parse([]byte("# T\n\ntext"), "markdown", pipeline.ParseOptions{ID: "x"})
	if err != nil || len(doc.Blocks) != 2 || doc.Blocks[0].Kind != sdk.KindHeading {
		t.Errorf(`Parse in "markdown": %v, %v`, doc, err)
	}
}
