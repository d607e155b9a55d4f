package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// Input is one document to chunk: where its bytes are, what format they are in and who it is.
//
// Data holds the document's bytes; when it is nil, the worker that chunks the document reads
// Path, so a walk over a corpus holds no file in memory before its turn. Name returns what
// errors call the document.
type Input struct {
	// ID becomes Document.ID and every chunk's DocumentID; chunk IDs are built from it.
	ID string
	// Path is the file the document comes from ("" for a document given inline).
	Path string
	// Format is the input format; empty means the one Path's extension selects.
	Format Format
	// Data is the document's bytes, or nil to read Path.
	Data []byte
	// Title, TenantID and CorpusID become the document's (empty: the adapter's or the run's).
	Title, TenantID, CorpusID string
	// ACL holds ACL labels added to the run's for this document's chunks.
	ACL []string
	// Metadata is merged into the document's metadata (its keys win).
	Metadata map[string]any
	// Source and Line say where a streamed document was read: the stream's name and the
	// 1-based line. Line is 0 for files.
	Source string
	Line   int
	// InPlace says that Data is the pipeline's to keep: nothing writes to it while the
	// document is chunked or its chunks are used, so the parser cuts the blocks' texts from it
	// (ParseOptions.InPlace) as from a file it reads, rather than from a copy. ReadJSONL sets it.
	InPlace bool
}

// Name returns what errors call the input: its path, else "SOURCE:LINE", else its ID.
func (in Input) Name() string {
	switch {
	case in.Path != "" && in.Line == 0:
		return in.Path
	case in.Line > 0:
		src := in.Source
		if src == "" {
			src = "input"
		}
		return fmt.Sprintf("%s:%d", src, in.Line)
	}
	return in.ID
}

// WalkOptions says which files Walk yields. The zero value yields every file of a known format
// that is not hidden.
type WalkOptions struct {
	// Format, when set, is the format of every file walked, whatever its extension; files are
	// then not filtered by extension.
	Format Format
	// Include, when not empty, keeps only files matching one of its patterns; Exclude drops
	// files (and directories) matching one of its. A pattern without a slash is matched
	// against the base name, one with a slash against the path relative to the directory
	// walked (forward slashes); both with path.Match syntax.
	Include, Exclude []string
	// Skipped, when not nil, is told about every file of a directory that Walk leaves out
	// because no format claims its extension.
	Skipped func(path string)
	// Mismatched, when not nil, is told about every file of a directory that Walk leaves out
	// because, though its extension selects format f, the file is plainly something else: a
	// ".json" that is not doc2mark's json_content (a package.json) or a ".tsv" that is not
	// Tesseract's (a MANIFEST.tsv). why says what it is. Walk reads the first 64 KiB of such
	// files to tell (doc2mark.NotContent, ocr.NotTSV), and never leaves out a file it cannot
	// tell about, a file given by itself or, with Format set, any file.
	Mismatched func(path string, f Format, why string)
	// LinkedDir, when not nil, is told about every symbolic link to a directory below a
	// directory walked: Walk does not follow them, since a link can loop back up the tree or
	// lead out of it. A root that is such a link is walked.
	LinkedDir func(path string)
}

// vcsDirs are folders of version control systems, skipped whatever their name looks like.
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".bzr": true, "_darcs": true, "CVS": true, ".jj": true}

// Walk yields an Input for each file in roots, in order: a file as itself, a directory as
// every file under it (recursively, in lexical order), leaving out hidden files and folders
// (names starting with "."), version control folders, files no format claims, files plainly
// not in the format their extension selects (WalkOptions.Mismatched) and symbolic links to
// directories (WalkOptions.LinkedDir). A link to a file is read as the file; one that cannot be
// followed is an error. Inputs carry no Data: Run reads them.
//
// IDs are stable: a file under a directory gets its path relative to that directory, with
// forward slashes ("api/fs.md" for docs/api/fs.md under docs, whether docs was given as
// "docs", "./docs" or an absolute path); a file given by itself gets its base name. Two inputs
// with the same ID are an error (the second is yielded with it), as is a root that cannot be
// read, a directory with no file to chunk, or a file given by itself whose format is unknown.
func Walk(roots []string, o WalkOptions) iter.Seq2[Input, error] {
	return func(yield func(Input, error) bool) {
		seen := map[string]string{}
		emit := func(in Input) bool {
			if prev, ok := seen[in.ID]; ok {
				return yield(in, fmt.Errorf("%s: document ID %q is already %s's; give the directories one at a time, or IDs with --from jsonl", in.Path, in.ID, prev))
			}
			seen[in.ID] = in.Path
			return yield(in, nil)
		}
		for _, root := range roots {
			info, err := os.Stat(root)
			if err != nil {
				if !yield(Input{Path: root, ID: root}, err) {
					return
				}
				continue
			}
			if !info.IsDir() {
				in := Input{ID: filepath.Base(root), Path: root, Format: o.Format}
				if in.Format == "" {
					f, ok := FormatOf(root)
					if !ok {
						if !yield(in, fmt.Errorf("%s: cannot tell the input format from the extension %q; say --from %s", root, filepath.Ext(root), strings.ReplaceAll(FormatHelp(), ", ", "|"))) {
							return
						}
						continue
					}
					in.Format = f
				}
				if !emit(in) {
					return
				}
				continue
			}
			// filepath.WalkDir does not follow a root that is a symbolic link: walk what it
			// leads to, and name the paths below it by the root as given.
			dir, err := walkedDir(root)
			if err != nil {
				if !yield(Input{Path: root, ID: root}, err) {
					return
				}
				continue
			}
			stop, found := false, false
			mismatched, firstMismatch := 0, "" // the files left out as not in their format
			walkErr := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if p == dir && err == nil {
					return nil
				}
				rel, relErr := filepath.Rel(dir, p)
				if relErr != nil {
					return relErr
				}
				p = filepath.Join(root, rel)
				if err != nil {
					if !yield(Input{Path: p, ID: p}, err) {
						stop = true
						return filepath.SkipAll
					}
					return nil
				}
				rel = filepath.ToSlash(rel)
				name := d.Name()
				if strings.HasPrefix(name, ".") || vcsDirs[name] || matchAny(o.Exclude, rel, name) {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if d.IsDir() || !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
					return nil
				}
				if len(o.Include) > 0 && !matchAny(o.Include, rel, name) {
					return nil
				}
				if d.Type()&fs.ModeSymlink != 0 {
					st, err := os.Stat(p)
					switch {
					case err != nil:
						if _, ok := FormatOf(p); !ok && o.Format == "" {
							break // left out below, as any file of an unknown extension
						}
						found = true
						if !yield(Input{ID: rel, Path: p}, brokenLink(p, err)) {
							stop = true
							return filepath.SkipAll
						}
						return nil
					case st.IsDir():
						if o.LinkedDir != nil {
							o.LinkedDir(p)
						}
						return nil
					case !st.Mode().IsRegular():
						return nil
					}
				}
				in := Input{ID: rel, Path: p, Format: o.Format}
				if in.Format == "" {
					f, ok := FormatOf(p)
					if !ok {
						if o.Skipped != nil {
							o.Skipped(p)
						}
						return nil
					}
					if why := notFormat(p, f); why != "" {
						if mismatched++; mismatched == 1 {
							firstMismatch = p + ", " + why
						}
						if o.Mismatched != nil {
							o.Mismatched(p, f, why)
						}
						return nil
					}
					in.Format = f
				}
				found = true
				if !emit(in) {
					stop = true
					return filepath.SkipAll
				}
				return nil
			})
			if stop {
				return
			}
			if walkErr != nil && !yield(Input{Path: root, ID: root}, walkErr) {
				return
			}
			if walkErr == nil && !found {
				err := fmt.Errorf("%s: no file below it to chunk (known extensions: %s)", root, knownExtensions())
				if mismatched > 0 {
					err = fmt.Errorf("%s: no file below it to chunk: %d files of a known extension are not in its format, such as %s; --from FORMAT reads every file in that format", root, mismatched, firstMismatch)
				}
				if !yield(Input{Path: root, ID: root}, err) {
					return
				}
			}
		}
	}
}

// walkedDir returns the directory to walk for root: root itself, or when root is a symbolic
// link, the directory it leads to.
func walkedDir(root string) (string, error) {
	info, err := os.Lstat(root)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return root, nil // os.Stat has read root: a directory
	}
	return filepath.EvalSymlinks(root)
}

// brokenLink is the error of a symbolic link at p that os.Stat could not follow (err).
func brokenLink(p string, err error) error {
	target, rerr := os.Readlink(p)
	if rerr != nil {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: a symbolic link to %q, which cannot be followed: %w", p, target, err)
}

// knownExtensions lists the extensions FormatOf knows: ".md, .markdown, ...".
func knownExtensions() string {
	var exts []string
	for _, f := range formats {
		exts = append(exts, f.exts...)
	}
	return strings.Join(exts, ", ")
}

// matchAny reports whether a pattern of pats matches rel (patterns with a slash) or name.
func matchAny(pats []string, rel, name string) bool {
	for _, p := range pats {
		subject := name
		if strings.Contains(p, "/") {
			subject = rel
		}
		if ok, _ := path.Match(p, subject); ok {
			return true
		}
	}
	return false
}

// ValidatePatterns reports the first malformed glob of pats.
func ValidatePatterns(pats []string) error {
	for _, p := range pats {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("pipeline: bad pattern %q: %w", p, err)
		}
	}
	return nil
}

// unknownField returns a field of the JSON object b that jsonDocument does not have (the
// first in sorted order), or "" for none. Field names match as json.Unmarshal matches them,
// without regard to case.
func unknownField(b []byte) string {
	var fields map[string]ignored
	if json.Unmarshal(b, &fields) != nil {
		return ""
	}
	var unknown []string
	for name := range fields {
		if !slices.ContainsFunc(jsonFields, func(f string) bool { return strings.EqualFold(f, name) }) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	return slices.Min(unknown)
}

// ignored decodes any JSON value and keeps none of it, not even a copy of its text.
type ignored struct{}

func (*ignored) UnmarshalJSON([]byte) error { return nil }

// jsonFields are the field names of jsonDocument.
var jsonFields = func() []string {
	t := reflect.TypeFor[jsonDocument]()
	names := make([]string, t.NumField())
	for i := range names {
		names[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return names
}()

// jsonDocument is one line of a JSONL document stream.
type jsonDocument struct {
	ID       string         `json:"id"`
	Text     *jsonText      `json:"text"`
	Path     string         `json:"path"`
	Format   Format         `json:"format"`
	Title    string         `json:"title"`
	Tenant   string         `json:"tenant"`
	Corpus   string         `json:"corpus"`
	ACL      []string       `json:"acl"`
	Metadata map[string]any `json:"metadata"`
}

// ReadJSONL yields an Input for each line of r, a stream of JSON objects one a line:
//
//	{"id": "a", "text": "# Title\n\nBody", "format": "md", "title": "...", "tenant": "...",
//	 "corpus": "...", "acl": ["..."], "metadata": {...}}
//
// Each object has "text" (the document itself) or "path" (a file to read, relative to the
// working directory), not both. "id" is required with "text"; with "path" it defaults to the
// path as given, cleaned. "format" defaults to "md" for text and to the path's extension for a
// path. Blank lines are skipped. A bad line is yielded with an error naming name and the line,
// and the stream goes on; an error reading r ends it. Lines may be of any length.
//
// Each document's ID must be new to the stream: a chunk's ID is the document's and its
// position, so a second document with an ID would give chunks the IDs of the first's, and a
// store that upserts by ID would lose them. A repeated ID is yielded with an error naming the
// line that has it first. ReadJSONL keeps the IDs it has seen to tell (their bytes and a map
// entry each: ~8 MB for 100,000 IDs of 40 bytes), as Walk keeps the paths.
func ReadJSONL(r io.Reader, name string) iter.Seq2[Input, error] {
	return func(yield func(Input, error) bool) {
		br := bufio.NewReaderSize(r, 64<<10)
		seen := map[string]int{} // document ID → its line
		for line := 1; ; line++ {
			b, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(b)) > 0 {
				in, perr := parseJSONLine(b, name, line)
				if perr == nil {
					if first, ok := seen[in.ID]; ok {
						perr = fmt.Errorf("%s:%d: document ID %q is already line %d's: give each document an ID of its own (its chunks' IDs are ID#position)", name, line, in.ID, first)
					} else {
						seen[in.ID] = line
					}
				}
				if !yield(in, perr) {
					return
				}
			}
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(Input{Source: name, Line: line}, fmt.Errorf("%s:%d: %w", name, line, err))
				return
			}
		}
	}
}

func parseJSONLine(b []byte, name string, line int) (Input, error) {
	in := Input{Source: name, Line: line}
	fail := func(format string, args ...any) (Input, error) {
		return in, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	const want = `(want {"id": ..., "text": ...} or {"path": ...})`
	// Unmarshal decodes b where it lies; a Decoder would copy the line into a buffer of its
	// own, which for a 50 MB document is 50 MB more at the peak. The text is decoded last,
	// over the line (jsonText).
	var d jsonDocument
	if err := json.Unmarshal(b, &d); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) && strings.Contains(syntax.Error(), "after top-level value") {
			return fail("more than one JSON value on the line")
		}
		return fail("not a document object: %v %s", err, want)
	}
	if field := unknownField(b); field != "" {
		return fail("not a document object: json: unknown field %q %s", field, want)
	}
	in.ID, in.Title, in.TenantID, in.CorpusID, in.ACL, in.Metadata = d.ID, d.Title, d.Tenant, d.Corpus, d.ACL, d.Metadata
	in.Format = d.Format
	if in.Format != "" {
		f, err := ParseFormat(string(in.Format))
		if err != nil {
			return fail("%v", err)
		}
		in.Format = f
	}
	switch {
	case d.Text != nil && d.Path != "":
		return fail(`has both "text" and "path"; give one`)
	case d.Text != nil:
		if d.ID == "" {
			return fail(`a document given by "text" needs an "id"`)
		}
		// The text, decoded where it lies in the line (the line is not read again), is the
		// document's bytes: nothing else holds them, so they are parsed in place.
		in.Data, in.InPlace = d.Text.decode(), true
		if in.Format == "" {
			in.Format = FormatMarkdown
		}
	case d.Path != "":
		in.Path = d.Path
		if in.ID == "" {
			in.ID = filepath.ToSlash(filepath.Clean(d.Path))
		}
		if in.Format == "" {
			f, ok := FormatOf(d.Path)
			if !ok {
				return fail("cannot tell the format of %q from its extension; add \"format\"", d.Path)
			}
			in.Format = f
		}
	default:
		return fail(`has neither "text" nor "path"`)
	}
	return in, nil
}
