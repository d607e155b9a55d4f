package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestChunkerPassesForTheReferenceChunker(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		newChunker func() sdk.Chunker
		counter    sdk.TokenCounter
	}{
		{"a chunker of 16 runes keeps every invariant", func() sdk.Chunker { return newRef(sdk.Runes{}, 16, 0) }, sdk.Runes{}},
		{"a chunker of 8 words with 2 words of overlap keeps every invariant", func() sdk.Chunker { return newRef(sdk.Words{}, 8, 2) }, sdk.Words{}},
		{"a chunker that promises no budget keeps every invariant", func() sdk.Chunker { return refChunker{counter: sdk.Words{}, cut: 300} }, sdk.Words{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			Chunker(t, tc.newChunker, tc.counter)
		})
	}
}

// mutated runs the reference chunker and then breaks its output with mutate.
type mutated struct {
	inner  sdk.Chunker
	mutate func(doc *sdk.Document, chunks []sdk.Chunk, err error) ([]sdk.Chunk, error)
}

func (m mutated) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	chunks, err := m.inner.Chunk(ctx, req, doc)
	return m.mutate(doc, chunks, err)
}

// firstBody returns the index of the first body chunk at or after from.
func firstBody(chunks []sdk.Chunk, from int) int {
	for i := from; i < len(chunks); i++ {
		if chunks[i].Kind == sdk.ChunkBody {
			return i
		}
	}
	panic("no body chunk")
}

func TestCheckResultCatchesBrokenChunkers(t *testing.T) {
	t.Parallel()
	runes := sdk.Runes{}
	ref := newRef(runes, 16, 0)
	broken := func(f func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk) sdk.Chunker {
		return mutated{ref, func(doc *sdk.Document, chunks []sdk.Chunk, err error) ([]sdk.Chunk, error) {
			if err != nil {
				return nil, err
			}
			return f(doc, chunks), nil
		}}
	}
	recount := func(chunks []sdk.Chunk) {
		for i := range chunks {
			n, _ := runes.Count(context.Background(), []string{chunks[i].Content})
			chunks[i].TokenCount = n[0]
		}
	}
	for _, tc := range []struct {
		name    string
		doc     string // the ID of a built-in document
		chunker sdk.Chunker
		opts    Options
		want    string // a substring of the error
	}{
		{"a chunker that drops a block loses text", "nested-headings", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			canon := doc.Canonical()
			from, to := canon.Starts[3], canon.Starts[3]+len(doc.Blocks[3].Text)
			chunks = slices.DeleteFunc(chunks, func(c sdk.Chunk) bool { return c.Start >= from && c.End <= to })
			for i := range chunks {
				chunks[i].ParentID = ""
			}
			sdk.Stamp(chunks, Request(), doc)
			return chunks
		}), Options{}, "nothing lost: 53 non-space bytes"},
		{"a chunker whose range starts a byte late breaks the offsets", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[2].Start++
			return chunks
		}), Options{}, "chunk 2: offsets: Content after the prefix differs"},
		{"a chunker whose range ends past the text breaks the offsets", "nested-headings", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[len(chunks)-1].End += 5
			return chunks
		}), Options{}, "offsets: range"},
		{"a chunker that swaps two positions breaks the order", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[0].Position, chunks[1].Position = chunks[1].Position, chunks[0].Position
			return chunks
		}), Options{}, "chunk 0: order: Position is 1, want 0"},
		{"a chunker whose IDs do not follow sdk.ChunkID breaks the order", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].ID = "x"
			return chunks
		}), Options{}, "chunk 1: order: ID"},
		{"a chunker whose parent comes later breaks the links", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].ParentID = chunks[3].ID
			return chunks
		}), Options{}, "chunk 1: links: ParentID"},
		{"a chunker that cuts 32 tokens but promises 16 breaks the budget", "long-paragraph",
			budgetedRef{refChunker{counter: runes, cut: 32, budget: 16}}, Options{}, "budget: 32 tokens exceed the budget of 16"},
		{"a chunker that leaves out the tenant breaks propagation", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[len(chunks)-1].TenantID = ""
			return chunks
		}), Options{}, `propagation: TenantID is "", want "tenant-a"`},
		{"a chunker that takes the document's corpus over the request's breaks propagation", "nested-headings", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			for i := range chunks {
				chunks[i].CorpusID = doc.CorpusID
			}
			return chunks
		}), Options{}, `propagation: CorpusID is "doc-corpus", want "corpus-b"`},
		{"a chunker that drops an ACL label breaks propagation", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[0].ACLLabels = chunks[0].ACLLabels[:1]
			return chunks
		}), Options{}, "propagation: ACLLabels"},
		{"a chunker with a wrong document ID breaks propagation", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[0].DocumentID = "other"
			return chunks
		}), Options{}, "propagation: DocumentID"},
		{"a chunker whose token count is one off breaks the token count", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].TokenCount++
			return chunks
		}), Options{}, "chunk 1: token count"},
		{"a chunker that keeps a blank chunk breaks the content rule", "whitespace-blocks", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			canon := doc.Canonical()
			blank := sdk.Chunk{Kind: sdk.ChunkBody, Content: doc.Blocks[2].Text, Start: canon.Starts[2], End: canon.Starts[2] + len(doc.Blocks[2].Text),
				Metadata: map[string]any{sdk.MetaKind: "body"}}
			chunks = slices.Insert(chunks, 1, blank)
			recount(chunks)
			sdk.Stamp(chunks, Request(), doc)
			return chunks
		}), Options{}, "chunk 1: content: Content \"\\n\\t\" is blank"},
		{"a chunker that makes chunks for an empty document breaks the content rule", "empty", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks = []sdk.Chunk{{Kind: sdk.ChunkBody, Content: doc.Title, Metadata: map[string]any{sdk.MetaKind: "body", sdk.MetaPrefix: doc.Title}}}
			recount(chunks)
			sdk.Stamp(chunks, Request(), doc)
			return chunks
		}), Options{}, "1 chunks for a document without blocks"},
		{"a chunker with a heading of level 0 breaks the kind rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[0].Level = 0
			delete(chunks[0].Metadata, sdk.MetaLevel)
			return chunks
		}), Options{}, "chunk 0: kind: heading chunk has Level 0"},
		{"a chunker without the kind in its metadata breaks the kind rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].Metadata = nil
			return chunks
		}), Options{}, `chunk 1: kind: Metadata["kind"] is <nil>, want "body"`},
		{"a chunker with an unknown chunk kind breaks the kind rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].Kind = "summary"
			chunks[1].Metadata[sdk.MetaKind] = "summary"
			return chunks
		}), Options{}, `kind: Kind is "summary"`},
		{"a chunker that adds text without saying so breaks the offsets", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].Content = "Context: " + chunks[1].Content
			recount(chunks)
			return chunks
		}), Options{}, "chunk 1: offsets"},
		{"a chunker whose embed text is not its context and content joined breaks the embed text rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].Context = "Guide"
			chunks[1].EmbedText = "Guide: " + chunks[1].Content
			chunks[1].ContentHash = sdk.ContentHash(chunks[1].EmbedText)
			chunks[1].TokenCount = utf8.RuneCountInString(chunks[1].EmbedText)
			return chunks
		}), Options{}, "chunk 1: embed text: EmbedText"},
		{"a chunker with a context of two lines breaks the embed text rule", "nested-headings", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].Context = "Guide\nInstall"
			chunks[1].EmbedText = ""
			sdk.Stamp(chunks, Request(), doc)
			chunks[1].TokenCount = utf8.RuneCountInString(chunks[1].EmbedText)
			return chunks
		}), Options{MaxTokens: 100}, "chunk 1: embed text: Context \"Guide\\nInstall\" is not one line"},
		{"a chunker whose content hash is not of its embed text breaks the embed text rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[2].ContentHash = sdk.ContentHash(chunks[2].Content + " ")
			return chunks
		}), Options{}, "chunk 2: embed text: ContentHash"},
		{"a chunker that counts the content but not the context breaks the token count", "nested-headings", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			b := firstBody(chunks, 0)
			chunks[b].Context = "G"
			chunks[b].EmbedText = ""
			sdk.Stamp(chunks, Request(), doc)
			return chunks
		}), Options{}, "token count: TokenCount is"},
		{"a chunker whose content fits but whose embed text does not breaks the budget", "long-paragraph", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			b := firstBody(chunks, 0)
			chunks[b].Context = "Long paragraph"
			chunks[b].EmbedText = ""
			sdk.Stamp(chunks, Request(), doc)
			chunks[b].TokenCount = utf8.RuneCountInString(chunks[b].EmbedText)
			return chunks
		}), Options{}, "budget: 32 tokens exceed the budget of 16"},
		{"a chunker that cuts inside words breaks the cuts rule", "long-paragraph", ref,
			Options{WholeWords: true}, `chunk 5: cuts: range ends at byte 88 inside the word "ipsum", which fits the budget`},
		{"a chunker whose overlap starts inside a word breaks the cuts rule", "nested-headings", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			canon := doc.Canonical().Text
			for i := range chunks {
				if c := &chunks[i]; c.Kind == sdk.ChunkBody && c.Start > 0 && c.Start < c.End-1 && !strings.ContainsAny(canon[c.Start-1:c.Start+1], " \n") {
					return chunks // the reference chunker already cut inside a word here
				}
			}
			b := firstBody(chunks, 0)
			chunks[b].Start++
			chunks[b].Content = canon[chunks[b].Start:chunks[b].End]
			chunks[b].EmbedText = ""
			sdk.Stamp(chunks, Request(), doc)
			recount(chunks)
			return chunks
		}), Options{WholeWords: true}, "cuts: range starts at byte"},
		{"a chunker with a page no block is on breaks the pages rule", "mixed-pages", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[2].PageStart, chunks[2].PageEnd = 1, 99
			return chunks
		}), Options{}, "chunk 2: pages: page 99 is outside the pages 1..1"},
		{"a chunker with pages in the wrong order breaks the pages rule", "mixed-pages", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[2].PageStart, chunks[2].PageEnd = 2, 1
			return chunks
		}), Options{}, "chunk 2: pages: PageStart 2 and PageEnd 1"},
		{"a chunker that invents a page for a block without one breaks the pages rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].PageStart, chunks[1].PageEnd = 1, 1
			return chunks
		}), Options{}, "chunk 1: pages: page 1 is outside the pages 0..0"},
		{"a chunker that swaps two body chunks without overlap breaks the order of ranges", "long-paragraph", broken(func(doc *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			a := firstBody(chunks, 0)
			chunks[a], chunks[a+1] = chunks[a+1], chunks[a]
			sdk.Stamp(chunks, Request(), doc)
			return chunks
		}), Options{}, "nothing lost: range"},
		{"a chunker that claims overlap without promising any breaks the overlap rule", "long-paragraph", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			b := firstBody(chunks, firstBody(chunks, 0)+1)
			chunks[b].Metadata[sdk.MetaOverlapBytes] = 1
			return chunks
		}), Options{}, "overlap: 1 overlap bytes from a chunker without overlap"},
		{"a chunker whose overlap does not end where the previous chunk ends breaks the overlap rule", "long-paragraph",
			mutated{newRef(runes, 16, 4), func(_ *sdk.Document, chunks []sdk.Chunk, _ error) ([]sdk.Chunk, error) {
				b := firstBody(chunks, firstBody(chunks, 0)+1)
				chunks[b].Metadata[sdk.MetaOverlapBytes] = 3
				return chunks, nil
			}}, Options{MaxTokens: 16, OverlapTokens: 4}, "overlap: overlap"},
		{"a chunker with unsorted content types breaks the content rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].ContentTypes = []string{"paragraph", "list"}
			return chunks
		}), Options{}, "content: ContentTypes"},
		{"a chunker with a content type no block has breaks the content rule", "nested-headings", broken(func(_ *sdk.Document, chunks []sdk.Chunk) []sdk.Chunk {
			chunks[1].ContentTypes = []string{"text"}
			return chunks
		}), Options{}, `content: ContentTypes names "text"`},
		{"a chunker that accepts invalid UTF-8 is caught", "invalid-utf8",
			mutated{ref, func(*sdk.Document, []sdk.Chunk, error) ([]sdk.Chunk, error) { return nil, nil }}, Options{},
			"returned no error for an invalid document"},
		{"a chunker that rejects invalid UTF-8 with another error is caught", "invalid-utf8",
			mutated{ref, func(*sdk.Document, []sdk.Chunk, error) ([]sdk.Chunk, error) { return nil, errors.New("bad bytes") }}, Options{},
			"does not match sdk.ErrInvalidInput"},
		{"a chunker that returns chunks with its error is caught", "invalid-utf8",
			mutated{ref, func(_ *sdk.Document, _ []sdk.Chunk, err error) ([]sdk.Chunk, error) { return []sdk.Chunk{{}}, err }}, Options{},
			"returned 1 chunks with its error"},
		{"a chunker that fails on a valid document is caught", "nested-headings",
			mutated{ref, func(*sdk.Document, []sdk.Chunk, error) ([]sdk.Chunk, error) { return nil, sdk.ErrUnavailable }}, Options{},
			"Chunk: chunkkit: unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := builtIn(t, tc.doc)
			req := Request()
			chunks, err := tc.chunker.Chunk(t.Context(), req, doc)
			opts := tc.opts
			opts.Counter = runes
			if b, ok := tc.chunker.(sdk.Budgeted); ok {
				opts.MaxTokens, opts.OverlapTokens = b.Budget()
			} else if opts.MaxTokens == 0 {
				opts.MaxTokens = 16
			}
			got := CheckResult(t.Context(), doc, req, chunks, err, opts)
			if got == nil {
				t.Fatalf("CheckResult passed a broken chunker, want an error containing %q", tc.want)
			}
			if !strings.Contains(got.Error(), tc.want) {
				t.Errorf("CheckResult error does not contain %q:\n%v", tc.want, got)
			}
		})
	}
}

func TestCheckChunksAcceptsWhatTheContractAllows(t *testing.T) {
	t.Parallel()
	runes := sdk.Runes{}
	for _, tc := range []struct {
		name   string
		doc    string
		mutate func(t *testing.T, chunks []sdk.Chunk) []sdk.Chunk
	}{
		{"a chunk with its prefix in the metadata passes", "giant-table", func(t *testing.T, chunks []sdk.Chunk) []sdk.Chunk {
			for i := range chunks {
				if chunks[i].Kind == sdk.ChunkBody {
					chunks[i].Metadata[sdk.MetaPrefix] = "| id |\n"
					chunks[i].Content = "| id |\n" + chunks[i].Content
					chunks[i].Metadata[sdk.MetaOverBudget] = true
					n, _ := runes.Count(t.Context(), []string{chunks[i].Content})
					chunks[i].TokenCount = n[0]
					chunks[i].EmbedText = chunks[i].Content
					chunks[i].ContentHash = sdk.ContentHash(chunks[i].EmbedText)
				}
			}
			return chunks
		}},
		{"chunks after a JSON round trip pass", "mixed-pages", func(t *testing.T, chunks []sdk.Chunk) []sdk.Chunk {
			data, err := json.Marshal(chunks)
			if err != nil {
				t.Fatal(err)
			}
			var back []sdk.Chunk
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			return back
		}},
		{"an over-budget chunk that says so passes", "long-word", func(t *testing.T, chunks []sdk.Chunk) []sdk.Chunk {
			// Chunks 1 and 2 are the first two pieces of the long word: merge them.
			chunks[1].End = chunks[2].End
			chunks[1].Content += chunks[2].Content
			chunks[1].TokenCount = utf8.RuneCountInString(chunks[1].Content)
			chunks[1].Metadata[sdk.MetaOverBudget] = true
			chunks[1].EmbedText = "" // Stamp joins it anew
			chunks = slices.Delete(chunks, 2, 3)
			sdk.Stamp(chunks, Request(), builtIn(t, "long-word"))
			return chunks
		}},
		{"an empty document with no chunks passes", "empty", func(t *testing.T, chunks []sdk.Chunk) []sdk.Chunk {
			if len(chunks) != 0 {
				t.Fatalf("the reference chunker made %d chunks of an empty document", len(chunks))
			}
			return chunks
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := builtIn(t, tc.doc)
			req := Request()
			chunks, err := newRef(runes, 16, 0).Chunk(t.Context(), req, doc)
			if err != nil {
				t.Fatal(err)
			}
			chunks = tc.mutate(t, chunks)
			if err := CheckChunks(t.Context(), doc, req, chunks, Options{Counter: runes, MaxTokens: 16}); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCheckChunksListsTheFirstViolations(t *testing.T) {
	t.Parallel()
	doc := builtIn(t, "long-paragraph")
	req := Request()
	chunks, err := newRef(sdk.Runes{}, 16, 0).Chunk(t.Context(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range chunks {
		chunks[i].TenantID = "wrong"
	}
	err = CheckChunks(t.Context(), doc, req, chunks, Options{Counter: sdk.Runes{}, MaxTokens: 16})
	var v *violations
	if !errors.As(err, &v) {
		t.Fatalf("CheckChunks = %v, want a list of violations", err)
	}
	if v.total != len(chunks) || len(v.list) != maxListed {
		t.Errorf("violations: %d found, %d listed; want %d found, %d listed", v.total, len(v.list), len(chunks), maxListed)
	}
	if want := fmt.Sprintf("... and %d more", len(chunks)-maxListed); !strings.Contains(err.Error(), want) {
		t.Errorf("error does not say %q:\n%v", want, err)
	}
	if got := v.rules(); slices.ContainsFunc(got, func(r string) bool { return r != rulePropagation }) {
		t.Errorf("rules = %q, want only %q", got, rulePropagation)
	}
}

func TestCheckChunksNeedsACounter(t *testing.T) {
	t.Parallel()
	doc := builtIn(t, "nested-headings")
	if err := CheckChunks(t.Context(), doc, Request(), nil, Options{}); err == nil {
		t.Error("CheckChunks without a counter returned no error")
	}
}

func TestCheckChunksReportsACounterError(t *testing.T) {
	t.Parallel()
	doc := builtIn(t, "nested-headings")
	err := CheckChunks(t.Context(), doc, Request(), nil, Options{Counter: rejectsEmptyBatch{}})
	if !errors.Is(err, sdk.ErrInvalidInput) {
		t.Errorf("CheckChunks = %v, want the counter's error", err)
	}
}

// flakyTitles gives every second run's chunks another section title.
type flakyTitles struct {
	sdk.Chunker
	runs *atomic.Int64
}

func (f flakyTitles) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	chunks, err := f.Chunker.Chunk(ctx, req, doc)
	if f.runs.Add(1)%2 == 0 && len(chunks) > 0 {
		chunks[0].SectionTitle += " (again)"
	}
	return chunks, err
}

// sharedState answers differently while another call is in flight.
type sharedState struct {
	sdk.Chunker
	inFlight *atomic.Int64
}

func (s sharedState) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	chunks, err := s.Chunker.Chunk(ctx, req, doc)
	time.Sleep(20 * time.Millisecond)
	if s.inFlight.Load() > 1 && len(chunks) > 0 {
		chunks[0].SectionTitle = "mixed up"
	}
	return chunks, err
}

// trimsInPlace changes the document it is given.
type trimsInPlace struct{ sdk.Chunker }

func (c trimsInPlace) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	doc.Blocks[0].Text = strings.TrimSpace(doc.Blocks[0].Text) + "!"
	return c.Chunker.Chunk(ctx, req, doc)
}

func TestChunkerChecksCatchUnstableChunkers(t *testing.T) {
	t.Parallel()
	ref := newRef(sdk.Runes{}, 16, 0)
	req := Request()
	first := func(t *testing.T, doc *sdk.Document) []sdk.Chunk {
		chunks, err := ref.Chunk(t.Context(), req, doc)
		if err != nil {
			t.Fatal(err)
		}
		return chunks
	}
	t.Run("a chunker whose second run differs fails the second-run check", func(t *testing.T) {
		t.Parallel()
		doc := builtIn(t, "nested-headings")
		var runs atomic.Int64
		ch := flakyTitles{ref, &runs}
		if _, err := ch.Chunk(t.Context(), req, doc); err != nil {
			t.Fatal(err)
		}
		if err := checkSecondRun(t.Context(), ch, req, doc, first(t, doc)); err == nil {
			t.Error("checkSecondRun passed a chunker whose second run differs")
		}
	})
	t.Run("a chunker that is unsafe for concurrent use fails the concurrency check", func(t *testing.T) {
		t.Parallel()
		doc := builtIn(t, "nested-headings")
		var inFlight atomic.Int64
		if err := checkConcurrent(t.Context(), sharedState{ref, &inFlight}, req, doc, first(t, doc)); err == nil {
			t.Error("checkConcurrent passed a chunker that answers differently under concurrent calls")
		}
	})
	t.Run("a chunker that changes the document fails the unchanged check", func(t *testing.T) {
		t.Parallel()
		doc, pristine := builtIn(t, "nested-headings"), builtIn(t, "nested-headings")
		if _, err := (trimsInPlace{ref}).Chunk(t.Context(), req, doc); err != nil {
			t.Fatal(err)
		}
		if err := checkUnchanged(pristine, doc); err == nil {
			t.Error("checkUnchanged passed a chunker that changed the document")
		}
	})
	t.Run("the reference chunker passes all three checks", func(t *testing.T) {
		t.Parallel()
		doc, pristine := builtIn(t, "mixed-pages"), builtIn(t, "mixed-pages")
		chunks := first(t, doc)
		err := errors.Join(
			checkSecondRun(t.Context(), ref, req, doc, chunks),
			checkConcurrent(t.Context(), ref, req, doc, chunks),
			checkUnchanged(pristine, doc))
		if err != nil {
			t.Error(err)
		}
	})
}

func TestDocumentsHaveTheAdvertisedShape(t *testing.T) {
	t.Parallel()
	invalid := 0
	for _, c := range Documents() {
		if c.Doc.Validate() != nil {
			invalid++
		}
	}
	if invalid != 1 {
		t.Errorf("%d invalid documents, want 1", invalid)
	}
	for _, tc := range []struct {
		name string
		doc  string
		ok   func(d *sdk.Document) bool
	}{
		{"the long paragraph has 20,000 words and no punctuation", "long-paragraph", func(d *sdk.Document) bool {
			p := d.Blocks[1].Text
			return len(strings.Fields(p)) == 20_000 && !strings.ContainsAny(p, ".,;:!?")
		}},
		{"the table has a header, a delimiter row and 2,000 rows in pipe form", "giant-table", func(d *sdk.Document) bool {
			b := d.Blocks[2]
			lines := strings.Split(b.Text, "\n")
			return b.Kind == sdk.KindTable && len(lines) == 2_002 && lines[1] == "|---|---|---|" && strings.HasPrefix(lines[2], "| 1 |")
		}},
		{"the code block is fenced and has 3,000 lines", "big-code", func(d *sdk.Document) bool {
			b := d.Blocks[1]
			lines := strings.Split(b.Text, "\n")
			return b.Kind == sdk.KindCode && len(lines) == 3_002 && lines[0] == "```go" && lines[len(lines)-1] == "```"
		}},
		{"the long word is 50,000 x's", "long-word", func(d *sdk.Document) bool { return d.Blocks[1].Text == strings.Repeat("x", 50_000) }},
		{"the empty document has no blocks", "empty", func(d *sdk.Document) bool { return len(d.Blocks) == 0 }},
		{"the headings-only document has only headings", "only-headings", func(d *sdk.Document) bool {
			return !slices.ContainsFunc(d.Blocks, func(b sdk.Block) bool { return b.Kind != sdk.KindHeading })
		}},
		{"the white-space document has blank blocks", "whitespace-blocks", func(d *sdk.Document) bool {
			return slices.ContainsFunc(d.Blocks, func(b sdk.Block) bool { return b.Text == " " }) &&
				slices.ContainsFunc(d.Blocks, func(b sdk.Block) bool { return b.Text == "\n\t" })
		}},
		{"the mixed document has pages and a block of unknown kind", "mixed-pages", func(d *sdk.Document) bool {
			return slices.ContainsFunc(d.Blocks, func(b sdk.Block) bool { return b.Page == 3 }) &&
				slices.ContainsFunc(d.Blocks, func(b sdk.Block) bool { return b.Kind == "sidebar" })
		}},
		{"the CJK document has Chinese and Japanese full stops and no spaces", "cjk", func(d *sdk.Document) bool {
			return strings.Contains(d.Blocks[1].Text, "。") && strings.Contains(d.Blocks[3].Text, "ひらがな") && !strings.Contains(d.Blocks[1].Text, " ")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if !tc.ok(builtIn(t, tc.doc)) {
				t.Error("the document does not have the shape")
			}
		})
	}
}

func TestDocumentsAreNewOnEveryCall(t *testing.T) {
	t.Parallel()
	a := Documents()
	a[0].Doc.Blocks[0].Text = "changed"
	if b := Documents(); b[0].Doc.Blocks[0].Text == "changed" {
		t.Error("a change to one call's documents shows in the next call's")
	}
}

// builtIn returns a new copy of the built-in document with the given ID.
func builtIn(t *testing.T, id string) *sdk.Document {
	t.Helper()
	for _, c := range Documents() {
		if c.Doc.ID == id {
			return c.Doc
		}
	}
	t.Fatalf("no built-in document %q", id)
	return nil
}

func TestChunkEqualComparesEveryField(t *testing.T) {
	t.Parallel()
	base := sdk.Chunk{
		ID: "d#0", ParentID: "p", Kind: sdk.ChunkBody, Level: 1, Content: "c", TokenCount: 1,
		SectionPath: []string{"a"}, SectionTitle: "a", PageStart: 1, PageEnd: 1, ContentTypes: []string{"paragraph"},
		Start: 1, End: 2, TenantID: "t", CorpusID: "c", DocumentID: "d", ACLLabels: []string{"x"},
		Metadata: map[string]any{"k": "v"},
	}
	if !chunkEqual(base, base) {
		t.Fatal("chunkEqual(c, c) is false")
	}
	typ := reflect.TypeFor[sdk.Chunk]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		t.Run("a change to "+f.Name+" makes chunks differ", func(t *testing.T) {
			t.Parallel()
			changed := base
			changed.SectionPath = slices.Clone(base.SectionPath)
			changed.ContentTypes = slices.Clone(base.ContentTypes)
			changed.ACLLabels = slices.Clone(base.ACLLabels)
			changed.Metadata = maps.Clone(base.Metadata)
			v := reflect.ValueOf(&changed).Elem().Field(i)
			switch v.Kind() {
			case reflect.String:
				v.SetString(v.String() + "!")
			case reflect.Int:
				v.SetInt(v.Int() + 1)
			case reflect.Slice:
				v.Set(reflect.Append(v, reflect.Zero(f.Type.Elem())))
			case reflect.Map:
				v.SetMapIndex(reflect.ValueOf("other"), reflect.ValueOf(any(1)))
			default:
				t.Fatalf("field %s has kind %s, which this test cannot change: teach it and chunkEqual", f.Name, v.Kind())
			}
			if chunkEqual(base, changed) {
				t.Errorf("chunkEqual ignores a change to %s: compare the field in chunkEqual", f.Name)
			}
		})
	}
	t.Run("a nil slice and an empty slice differ", func(t *testing.T) {
		t.Parallel()
		changed := base
		changed.ACLLabels = []string{}
		a := base
		a.ACLLabels = nil
		if chunkEqual(a, changed) {
			t.Error("chunkEqual does not tell a nil ACLLabels from an empty one")
		}
	})
}

// rules returns the rule of each listed violation, for tests.
func (v *violations) rules() []string {
	out := make([]string, len(v.list))
	for i, x := range v.list {
		out[i] = x.rule
	}
	return out
}

func TestCheckChunksAllowsCutsInsideAWordOverTheBudget(t *testing.T) {
	t.Parallel()
	runes := sdk.Runes{}
	doc := builtIn(t, "long-word") // "Before the word." is 16 runes; the word 50,000
	req := Request()
	chunks, err := newRef(runes, 16, 0).Chunk(t.Context(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckChunks(t.Context(), doc, req, chunks, Options{Counter: runes, MaxTokens: 16, WholeWords: true}); err != nil {
		t.Error(err)
	}
}
