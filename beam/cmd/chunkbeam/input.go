package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/chunkkit/chunkkit/beam/chunkbeam"
	"github.com/chunkkit/chunkkit/pipeline"
)

func init() {
	register.DoFn4x1[context.Context, fileRef, func(chunkbeam.Document), func(chunkbeam.DeadLetter), error](&readFileFn{})
	register.DoFn4x1[context.Context, fileio.ReadableFile, func(chunkbeam.Document), func(chunkbeam.DeadLetter), error](&readMatchFn{})
	register.DoFn4x0[context.Context, string, func(chunkbeam.Document), func(chunkbeam.DeadLetter)](&parseLineFn{})
	register.Emitter1[chunkbeam.Document]()
}

// deadLetters counts the documents that could not be read, with chunkbeam's own.
var deadLetters = beam.NewCounter("chunkkit", "dead_letters")

// fileRef is a file a directory walk found: where it is, its document ID and format.
type fileRef struct {
	Path   string
	ID     string
	Format string
}

// walkDir lists the files under dir as chunk DIR does, on the launching machine (only the
// paths go into the pipeline; the workers read the files).
func walkDir(dir string, o pipeline.WalkOptions) ([]fileRef, error) {
	var refs []fileRef
	for in, err := range pipeline.Walk([]string{dir}, o) {
		if err != nil {
			return nil, err
		}
		abs, err := filepath.Abs(in.Path)
		if err != nil {
			return nil, err
		}
		refs = append(refs, fileRef{Path: abs, ID: in.ID, Format: string(in.Format)})
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%s: no file of a known format (%s)", dir, pipeline.FormatHelp())
	}
	return refs, nil
}

// readFileFn reads the file a fileRef names through Beam's file systems.
type readFileFn struct{}

func (readFileFn) ProcessElement(ctx context.Context, ref fileRef, emit func(chunkbeam.Document), dead func(chunkbeam.DeadLetter)) error {
	data, err := readAll(ctx, ref.Path)
	if err != nil {
		deadLetters.Inc(ctx, 1)
		dead(chunkbeam.DeadLetter{DocumentID: ref.ID, Path: ref.Path, Reason: err.Error(), Attempts: 1})
		return nil
	}
	emit(chunkbeam.Document{ID: ref.ID, Path: ref.Path, Format: ref.Format, Data: data})
	return nil
}

func readAll(ctx context.Context, p string) ([]byte, error) {
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return data, nil
}

// readMatchFn turns a file a glob matched into a Document whose ID is its path relative to
// Root.
type readMatchFn struct{ Root, Format string }

func (f *readMatchFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(chunkbeam.Document), dead func(chunkbeam.DeadLetter)) error {
	id := relativeID(f.Root, file.Metadata.Path)
	data, err := file.Read(ctx)
	if err != nil {
		deadLetters.Inc(ctx, 1)
		dead(chunkbeam.DeadLetter{DocumentID: id, Path: file.Metadata.Path, Reason: fmt.Sprintf("%s: %v", file.Metadata.Path, err), Attempts: 1})
		return nil
	}
	emit(chunkbeam.Document{ID: id, Path: file.Metadata.Path, Format: f.Format, Data: data})
	return nil
}

// globRoot returns the folder of glob before its first wildcard: "docs/**/*.md" → "docs".
func globRoot(glob string) string {
	i := strings.IndexAny(glob, "*?[")
	if i < 0 {
		return path.Dir(glob)
	}
	return strings.TrimSuffix(glob[:strings.LastIndex(glob[:i], "/")+1], "/")
}

// relativeID returns p relative to root, with forward slashes, or p itself when it is not
// under root.
func relativeID(root, p string) string {
	if root == "" || root == "." {
		return strings.TrimPrefix(p, "./")
	}
	root = strings.TrimSuffix(root, "/") + "/"
	if rest, ok := strings.CutPrefix(p, root); ok {
		return rest
	}
	if abs, err := filepath.Abs(strings.TrimSuffix(root, "/")); err == nil {
		if rest, ok := strings.CutPrefix(p, abs+"/"); ok {
			return filepath.ToSlash(rest)
		}
	}
	return p
}

// parseLineFn parses one line of a JSONL document stream as `chunkkit chunk --from jsonl`
// does; a document given by "path" is read by the worker.
type parseLineFn struct{ Source string }

func (f *parseLineFn) ProcessElement(ctx context.Context, line string, emit func(chunkbeam.Document), dead func(chunkbeam.DeadLetter)) {
	if strings.TrimSpace(line) == "" {
		return
	}
	for in, err := range pipeline.ReadJSONL(strings.NewReader(line), f.Source) {
		if err != nil {
			// textio does not say which line it read (each is parsed alone, as line 1): name
			// the line by its text.
			reason := strings.TrimPrefix(err.Error(), f.Source+":1: ")
			deadLetters.Inc(ctx, 1)
			dead(chunkbeam.DeadLetter{Path: f.Source, Reason: fmt.Sprintf("%s: the line %.80q: %s", f.Source, line, reason), Attempts: 1})
			continue
		}
		d, err := chunkbeam.FromInput(in, func(p string) ([]byte, error) { return readAll(ctx, p) })
		if err != nil {
			deadLetters.Inc(ctx, 1)
			dead(chunkbeam.DeadLetter{DocumentID: in.ID, Path: in.Path, Reason: err.Error(), Attempts: 1})
			continue
		}
		emit(d)
	}
}

// readDocuments returns the documents o.input names and the dead letters of those that could
// not be read. What is reshuffled, to spread the documents over bundles and workers, is what
// names them (paths, lines), before they are read: the documents' bytes cross the runner once.
func readDocuments(s beam.Scope, o options) (docs, dead beam.PCollection, err error) {
	s = s.Scope("chunkbeam.read")
	switch {
	case o.from == "jsonl":
		lines := beam.Reshuffle(s, textio.Read(s, o.input))
		docs, dead = beam.ParDo2(s, &parseLineFn{Source: o.input}, lines)
	case isLocalDir(o.input):
		refs, err := walkDir(o.input, pipeline.WalkOptions{Format: pipeline.Format(o.from), Include: o.include, Exclude: o.exclude})
		if err != nil {
			return docs, dead, err
		}
		docs, dead = beam.ParDo2(s, &readFileFn{}, beam.Reshuffle(s, beam.CreateList(s, refs)))
	default:
		root := o.root
		if root == "" {
			root = globRoot(o.input)
		}
		matches := beam.Reshuffle(s, fileio.MatchFiles(s, o.input, fileio.MatchEmptyDisallow()))
		files := fileio.ReadMatches(s, matches, fileio.ReadDirectorySkip())
		docs, dead = beam.ParDo2(s, &readMatchFn{Root: root, Format: o.from}, files)
	}
	return docs, dead, nil
}

// isLocalDir reports whether p is a directory of the launching machine's file system.
func isLocalDir(p string) bool {
	if strings.Contains(p, "://") {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
