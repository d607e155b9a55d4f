package conformance

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// concurrentChunkers is how many goroutines share one chunker in the concurrency check.
const concurrentChunkers = 4

// Chunker checks a chunker on every document of Documents, sending Request() with each. For
// each document, as subtests of t, it checks that the result passes CheckResult with
// OptionsFor(newChunker(), counter) (the budget applies only to chunkers that implement
// sdk.Budgeted); that Chunk leaves the document unchanged; and that the chunks are the same
// from a second chunker made by newChunker and from 4 goroutines sharing the first one (run
// the kit under -race). A chunker that streams must give the same chunks through ChunkSeq
// (sdk.StreamChunker), and through ChunkParts (sdk.PartChunker) from the document's blocks in
// parts of one block each, and must stop when the loop over either stops.
//
// counter must be the counter the chunker measures with: every chunk's TokenCount is checked
// against it. The documents are small enough that a linear chunker with sdk.Runes and a
// budget of 16 tokens passes in well under a few seconds.
func Chunker(t *testing.T, newChunker func() sdk.Chunker, counter sdk.TokenCounter) {
	t.Helper()
	if newChunker == nil || counter == nil {
		t.Fatal("conformance.Chunker: newChunker and counter must not be nil")
	}
	opts := OptionsFor(newChunker(), counter)
	pristine := Documents()
	for i, c := range Documents() {
		t.Run(c.Name, func(t *testing.T) {
			t.Helper()
			checkChunkerOn(t, newChunker, opts, c.Doc, pristine[i].Doc)
		})
	}
}

func checkChunkerOn(t *testing.T, newChunker func() sdk.Chunker, opts Options, doc, pristine *sdk.Document) {
	t.Helper()
	req := Request()
	ch := newChunker()
	var first []sdk.Chunk
	valid := doc.Validate() == nil
	name := "keeps every invariant"
	if !valid {
		name = "is rejected with an error matching sdk.ErrInvalidInput and no chunks"
	}
	ok := t.Run(name, func(t *testing.T) {
		chunks, err := ch.Chunk(t.Context(), req, doc)
		if err := CheckResult(t.Context(), doc, req, chunks, err, opts); err != nil {
			t.Fatal(err)
		}
		first = chunks
	})
	t.Run("leaves the document unchanged", func(t *testing.T) {
		if err := checkUnchanged(pristine, doc); err != nil {
			t.Error(err)
		}
	})
	if !ok || !valid {
		return
	}
	t.Run("gives the same chunks from a second chunker", func(t *testing.T) {
		if err := checkSecondRun(t.Context(), newChunker(), req, doc, first); err != nil {
			t.Error(err)
		}
	})
	t.Run("gives the same chunks to 4 goroutines at once", func(t *testing.T) {
		if err := checkConcurrent(t.Context(), ch, req, doc, first); err != nil {
			t.Error(err)
		}
	})
	if sc, ok := ch.(sdk.StreamChunker); ok {
		t.Run("gives the same chunks through ChunkSeq", func(t *testing.T) {
			if err := checkSeq(doc, "ChunkSeq", sc.ChunkSeq(t.Context(), req, doc), first); err != nil {
				t.Error(err)
			}
		})
	}
	if pc, ok := ch.(sdk.PartChunker); ok {
		t.Run("gives the same chunks through ChunkParts, a block a part", func(t *testing.T) {
			shell := *doc
			shell.Blocks, shell.Source = nil, nil
			if err := checkSeq(doc, "ChunkParts", pc.ChunkParts(t.Context(), req, &shell, blockParts(doc)), first); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkSeq compares the chunks of seq, a streaming form of Chunk named name, with first, and
// checks that seq stops when its loop does.
func checkSeq(doc *sdk.Document, name string, seq iter.Seq2[sdk.Chunk, error], first []sdk.Chunk) error {
	var got []sdk.Chunk
	for c, err := range seq {
		if err != nil {
			return fmt.Errorf("conformance: document %q: %s: %w", doc.ID, name, err)
		}
		got = append(got, c)
	}
	if len(got) == 0 && len(first) == 0 {
		return nil
	}
	if diff := chunksDiff(first, got); diff != "" {
		return fmt.Errorf("conformance: document %q: %s differs from Chunk (-Chunk +%s):\n%s", doc.ID, name, name, diff)
	}
	for range seq {
		break // a sequence that yields again after this panics
	}
	return nil
}

// blockParts yields doc's blocks one a part, each with the segments of doc.Source that map it.
func blockParts(doc *sdk.Document) iter.Seq2[sdk.DocumentPart, error] {
	return func(yield func(sdk.DocumentPart, error) bool) {
		canon := doc.Canonical()
		var segs []sdk.SourceSegment
		if doc.Source != nil {
			segs = doc.Source.Segments
		}
		for i, b := range doc.Blocks {
			part := sdk.DocumentPart{Blocks: []sdk.Block{b}}
			if doc.Source != nil {
				end := canon.Starts[i] + len(b.Text)
				k := 0
				for k < len(segs) && segs[k].Start < end {
					k++
				}
				part.Source = &sdk.SourceMap{Segments: segs[:k:k]}
				segs = segs[k:]
			}
			if !yield(part, nil) {
				return
			}
		}
	}
}

// checkUnchanged reports whether Chunk changed the document: doc must still equal pristine,
// a copy made before the call.
func checkUnchanged(pristine, doc *sdk.Document) error {
	if reflect.DeepEqual(pristine, doc) {
		return nil
	}
	return fmt.Errorf("conformance: document %q: Chunk changed the document (-before +after):\n%s", doc.ID, cmp.Diff(pristine, doc))
}

// checkSecondRun chunks doc again with ch and compares the chunks with first.
func checkSecondRun(ctx context.Context, ch sdk.Chunker, req sdk.Request, doc *sdk.Document, first []sdk.Chunk) error {
	again, err := ch.Chunk(ctx, req, doc)
	if err != nil {
		return fmt.Errorf("conformance: document %q: second Chunk: %w", doc.ID, err)
	}
	if diff := chunksDiff(first, again); diff != "" {
		return fmt.Errorf("conformance: document %q: a second run differs (-first +second):\n%s", doc.ID, diff)
	}
	return nil
}

// checkConcurrent chunks doc with ch from concurrentChunkers goroutines at once and compares
// every result with first.
func checkConcurrent(ctx context.Context, ch sdk.Chunker, req sdk.Request, doc *sdk.Document, first []sdk.Chunk) error {
	results := make([][]sdk.Chunk, concurrentChunkers)
	errs := make([]error, concurrentChunkers)
	var wg sync.WaitGroup
	for g := range concurrentChunkers {
		wg.Go(func() { results[g], errs[g] = ch.Chunk(ctx, req, doc) })
	}
	wg.Wait()
	for g := range concurrentChunkers {
		if errs[g] != nil {
			errs[g] = fmt.Errorf("conformance: document %q: goroutine %d: Chunk: %w", doc.ID, g, errs[g])
		} else if diff := chunksDiff(first, results[g]); diff != "" {
			errs[g] = fmt.Errorf("conformance: document %q: goroutine %d differs (-first +concurrent):\n%s", doc.ID, g, diff)
		}
	}
	return errors.Join(errs...)
}

// chunksDiff returns cmp.Diff(want, got), after a fast equality check: most runs are equal,
// the documents make thousands of chunks, and cmp is slow under the race detector.
func chunksDiff(want, got []sdk.Chunk) string {
	if slices.EqualFunc(want, got, chunkEqual) {
		return ""
	}
	return cmp.Diff(want, got)
}

// chunkEqual reports whether two chunks are equal field by field. A test keeps it in step
// with sdk.Chunk's fields.
func chunkEqual(a, b sdk.Chunk) bool {
	return a.ID == b.ID && a.Position == b.Position && a.ParentID == b.ParentID &&
		a.Kind == b.Kind && a.Level == b.Level && a.Content == b.Content &&
		a.TokenCount == b.TokenCount && sameStrings(a.SectionPath, b.SectionPath) &&
		a.SectionTitle == b.SectionTitle && a.PageStart == b.PageStart && a.PageEnd == b.PageEnd &&
		sameStrings(a.ContentTypes, b.ContentTypes) && a.Start == b.Start && a.End == b.End &&
		a.TenantID == b.TenantID && a.CorpusID == b.CorpusID && a.DocumentID == b.DocumentID &&
		sameStrings(a.ACLLabels, b.ACLLabels) && (a.Metadata == nil) == (b.Metadata == nil) &&
		maps.EqualFunc(a.Metadata, b.Metadata, func(x, y any) bool { return reflect.DeepEqual(x, y) }) &&
		a.Context == b.Context && a.EmbedText == b.EmbedText && a.ContentHash == b.ContentHash &&
		a.SourceStart == b.SourceStart && a.SourceEnd == b.SourceEnd && a.LineStart == b.LineStart && a.LineEnd == b.LineEnd
}

// sameStrings is slices.Equal that also tells nil from empty, as JSON output does.
func sameStrings(a, b []string) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}
