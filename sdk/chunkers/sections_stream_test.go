package chunkers_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// sectionsConfigs are the Sections configurations the window tests compare at: both counters,
// a small and the default budget, each split level that changes where sections start, no
// overlap and no context, and PackSections (whose documents are one window).
func sectionsConfigs(t *testing.T) []*chunkers.Sections {
	t.Helper()
	var out []*chunkers.Sections
	for _, counter := range []sdk.TokenCounter{sdk.Words{}, cl100kCounter(t)} {
		for _, budget := range []int{16, 512} {
			for _, level := range []int{0, 1, 3, chunkers.NoSplit} {
				out = append(out, &chunkers.Sections{Config: chunkers.Config{Counter: counter, MaxTokens: budget}, SplitLevel: level})
			}
			out = append(out,
				&chunkers.Sections{Config: chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: chunkers.NoOverlap, Context: chunkers.ContextNone}},
				&chunkers.Sections{Config: chunkers.Config{Counter: counter, MaxTokens: budget}, PackSections: true})
		}
	}
	return out
}

func sectionsName(s *chunkers.Sections) string {
	return fmt.Sprintf("%s/max=%d/overlap=%d/context=%s/split=%d/pack=%v", counterName(s.Counter), s.MaxTokens, s.OverlapTokens, s.Context, s.SplitLevel, s.PackSections)
}

// calls counts a counter's Boundaries calls: one a window.
type calls struct {
	sdk.TokenCounter
	n atomic.Int64 // the chunkers that read ahead call from a goroutine of their own too
}

func (c *calls) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	c.n.Add(1)
	return c.TokenCounter.Boundaries(ctx, texts)
}

// TestSectionsWindowsGiveTheWholeDocumentsChunks holds Sections' windows (ChunkSeq, and Chunk
// through it) to the chunks of the whole document at once: with windows as small as can be,
// every place a window may end is one, and the chunks must be exactly those of one window —
// the shipped documents (doc2mark's with footnotes among them) and the window tests' Markdown.
func TestSectionsWindowsGiveTheWholeDocumentsChunks(t *testing.T) {
	exhaustive(t)
	t.Parallel()
	docs := windowDocs(t)
	// Footnotes: referenced in an early section, defined at the end, and one defined first.
	notes := &sdk.Document{ID: "notes", Title: "Notes"}
	for _, text := range []string{"# A", "Body with a note [^1] here.", "# B", "b text", "# C", "c text [^2]", "# D", "d"} {
		b := sdk.Block{Kind: sdk.KindParagraph, Text: text}
		if h, ok := strings.CutPrefix(text, "# "); ok {
			b = sdk.Block{Kind: sdk.KindHeading, Level: 1, Text: h}
		}
		notes.Blocks = append(notes.Blocks, b)
	}
	notes.Blocks = append(notes.Blocks, sdk.Block{Kind: sdk.KindFootnote, Text: "[^1]: The first note."}, sdk.Block{Kind: sdk.KindFootnote, Text: "[^2]: The second."})
	early := &sdk.Document{ID: "early notes", Blocks: append([]sdk.Block{{Kind: sdk.KindFootnote, Text: "[^3]: Defined first."}}, notes.Blocks[:len(notes.Blocks)-2]...)}
	early.Blocks[2].Text += " [^3]"
	docs = append(docs, notes, early)
	cuts := 0
	for _, c := range sectionsConfigs(t) {
		whole, small := *c, *c
		whole.WindowBytes = -1
		counted := &calls{TokenCounter: c.Counter}
		small.Counter, small.WindowBytes = counted, 1
		for _, doc := range docs {
			want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
			if err != nil {
				t.Fatalf("%s: %s: %v", sectionsName(c), doc.ID, err)
			}
			counted.n.Store(0)
			got := seqChunks(t, sectionsName(c), &small, doc)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: %s: windows of one section each differ from the whole document (-whole +windows):\n%s", sectionsName(c), doc.ID, diff)
			}
			if c.PackSections && counted.n.Load() > 1 {
				t.Errorf("%s: %s: %d windows with PackSections, which packs across sections", sectionsName(c), doc.ID, counted.n.Load())
			}
			cuts += max(int(counted.n.Load())-1, 0)
		}
	}
	if cuts < 100 {
		t.Fatalf("%d window ends in all: the test compares too little", cuts)
	}
	t.Logf("%d window ends compared", cuts)
}

// TestSectionsChunkPartsGivesTheWholeDocumentsChunks holds ChunkParts, reading the Markdown
// adapter's ParseParts, to Chunk of the document Parse gives, with pieces and windows as small
// as can be and of a few kilobytes.
func TestSectionsChunkPartsGivesTheWholeDocumentsChunks(t *testing.T) {
	exhaustive(t)
	t.Parallel()
	sources := windowSources(t)
	sources["late level.md"] = "Intro.\n\n### Deep first\n\ntext\n\n#### Deeper\n\nmore\n\n## Settles\n\nbody\n\n## Next\n\nend"
	sources["only deep.md"] = "Intro.\n\n### A\n\na\n\n### B\n\nb\n\n#### C\n\nc"
	sources["footnote reference.md"] = "# A\n\nsee [^1] here\n\n# B\n\nb\n\n# C\n\nc"
	for _, c := range sectionsConfigs(t) {
		whole := *c
		whole.WindowBytes = -1
		checkPartsGiveTheWhole(t, sectionsName(c), sources, &whole, [][2]int{{1, 1}, {4096, 4096}, {1, 0}}, func(window int) sdk.PartChunker {
			pc := *c
			pc.WindowBytes = window
			return &pc
		})
	}
}

// TestSectionsLargeDocumentIsChunkedAWindowAtATime: a document of many sections is measured a
// window at a time, with a footnote reference in it (whose chunks are then held) or not.
func TestSectionsLargeDocumentIsChunkedAWindowAtATime(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	for i := 0; sb.Len() < 2<<20; i++ {
		fmt.Fprintf(&sb, "# Part %d\n\n## Section %d\n\n%s\n\n", i, i, strings.Repeat("Some words of a section. ", 40))
	}
	src := sb.String()
	for _, tc := range []struct {
		name    string
		src     string
		windows func(n int) bool
	}{
		{"sections", src, func(n int) bool { return n >= 6 }},
		{"a footnote reference half way", src[:len(src)/2] + "A note [^1].\n\n" + src[len(src)/2:], func(n int) bool { return n >= 6 }},
	} {
		doc, err := markdown.Parse([]byte(tc.src), markdown.Options{ID: "big.md"})
		if err != nil {
			t.Fatal(err)
		}
		m := &measuring{TokenCounter: sdk.Words{}}
		s := &chunkers.Sections{Config: chunkers.Config{Counter: m, MaxTokens: 128}}
		got, err := s.Chunk(context.Background(), conformance.Request(), doc)
		if err := conformance.CheckResult(context.Background(), doc, conformance.Request(), got, err, conformance.OptionsFor(s, sdk.Words{})); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !tc.windows(m.calls) {
			t.Errorf("%s: %d Boundaries calls for %d bytes at %d a window", tc.name, m.calls, len(tc.src), chunkers.DefaultWindowBytes)
		}
		if m.maxBytes > 2*chunkers.DefaultWindowBytes {
			t.Errorf("%s: one Boundaries call measured %d bytes", tc.name, m.maxBytes)
		}
	}
}

// yieldsSeen records, at each Boundaries call (one a window), how many chunks ChunkSeq had
// yielded. Sections reads one window ahead: window k is measured while window k-1 is chunked,
// after window k-2's chunks were yielded, on a goroutine of the chunker's own.
type yieldsSeen struct {
	sdk.TokenCounter
	mu      sync.Mutex
	yielded int
	at      []int
}

func (c *yieldsSeen) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	c.mu.Lock()
	c.at = append(c.at, c.yielded)
	c.mu.Unlock()
	return c.TokenCounter.Boundaries(ctx, texts)
}

// yieldedChunks collects the chunks of seq, counting them in seen as they come.
func yieldedChunks(t *testing.T, seq iter.Seq2[sdk.Chunk, error], seen *yieldsSeen) []sdk.Chunk {
	t.Helper()
	var got []sdk.Chunk
	for c, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		seen.mu.Lock()
		seen.yielded++
		seen.mu.Unlock()
		got = append(got, c)
	}
	return got
}

// TestSectionsYieldsFootnoteChunksOnceTheirLinksAreFinal: a window's chunks are yielded
// before the window after the next is measured (the next is measured ahead, while this one is
// chunked) once their footnote links are final — the reference's
// footnote is chunked, a later footnote with the same label links to nothing, and "[^,]" in
// code is no reference — and the links are the whole document's.
func TestSectionsYieldsFootnoteChunksOnceTheirLinksAreFinal(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	sb.WriteString("# Intro\n\nSee [^1], and `grep '[^,]'`.\n\n```\nsed '/[^,]+/d'\n```\n\n")
	for i := 0; sb.Len() < 1<<20; i++ {
		switch i {
		case 3:
			sb.WriteString("[^1]: The note.\n\n")
		case 200:
			sb.WriteString("# Again\n\nSee [^1] again.\n\n# Later\n\n[^1]: The same label, later.\n\n")
		}
		fmt.Fprintf(&sb, "# Part %d\n\n%s\n\n", i, strings.Repeat("Some words of a section. ", 40))
	}
	doc, err := markdown.Parse([]byte(sb.String()), markdown.Options{ID: "notes.md"})
	if err != nil {
		t.Fatal(err)
	}
	seen := &yieldsSeen{TokenCounter: sdk.Words{}}
	s := &chunkers.Sections{Config: chunkers.Config{Counter: seen, MaxTokens: 128}}
	got := yieldedChunks(t, s.ChunkSeq(context.Background(), conformance.Request(), doc), seen)
	if len(seen.at) < 4 {
		t.Fatalf("%d windows for %d bytes", len(seen.at), sb.Len())
	}
	for k := 2; k < len(seen.at); k++ {
		if seen.at[k] <= seen.at[k-2] {
			t.Fatalf("window %d was measured after %d chunks had been yielded, as many as before window %d: chunks are held (%v)", k, seen.at[k], k-2, seen.at)
		}
	}
	whole := *s
	whole.Counter, whole.WindowBytes = sdk.Words{}, -1
	checkWhole(t, &whole, doc, got)
	var linked []string
	for _, c := range got {
		if label, ok := c.Metadata[chunkers.MetaFootnoteLabel]; ok {
			linked = append(linked, fmt.Sprintf("%s %v under %q by %q", c.ID, label, c.SectionPath, c.ParentID))
		}
		if ids, ok := c.Metadata[chunkers.MetaFootnotes]; ok {
			linked = append(linked, fmt.Sprintf("%s lists %v", c.ID, ids))
		}
	}
	note, later := -1, -1
	for _, c := range got {
		switch {
		case strings.HasPrefix(c.Content, "[^1]: The note."):
			note = c.Position
		case strings.HasPrefix(c.Content, "[^1]: The same label"):
			later = c.Position
		}
	}
	wantLinks := []string{
		`notes.md#0 lists [notes.md#` + fmt.Sprint(note) + `]`,
		fmt.Sprintf(`notes.md#%d 1 under ["Intro"] by "notes.md#0"`, note),
		fmt.Sprintf(`notes.md#%d 1 under ["Later"] by ""`, later),
	}
	if diff := cmp.Diff(wantLinks, linked); diff != "" {
		t.Errorf("footnote links (-want +got):\n%s", diff)
	}
}

// TestSectionsHoldsNoChunkForFootnotesThatDoNotCome: a reference no footnote answers ("[^a-z]"
// in prose) and a footnote nothing references, both early in a 1 MiB document, hold no chunk
// past its window — the document's blocks say so to ChunkSeq, the scan of its input
// (sdk.FootnoteScan) to ChunkParts — and the chunks are the whole document's. Without the
// scan, every chunk after them was held to the end.
func TestSectionsHoldsNoChunkForFootnotesThatDoNotCome(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	sb.WriteString("# Intro\n\nIt matches [^a-z] and [^0-9], not [^1].\n\n[^early]: A note nothing references.\n\n")
	for i := 0; sb.Len() < 1<<20; i++ {
		if i == 300 {
			sb.WriteString("# Notes\n\n[^1]: The note of [^1], a window later.\n\n")
		}
		fmt.Fprintf(&sb, "# Part %d\n\n%s\n\n", i, strings.Repeat("Some words of a section. ", 40))
	}
	src := []byte(sb.String())
	doc, err := markdown.Parse(src, markdown.Options{ID: "notes.md"})
	if err != nil {
		t.Fatal(err)
	}
	whole := &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 128}, WindowBytes: -1}
	// checkHeld checks that the chunks seen yielded are the whole document's, and that they
	// came out window by window but for the windows from the reference to "[^1]" to its note.
	checkHeld := func(t *testing.T, seen *yieldsSeen, got []sdk.Chunk) {
		t.Helper()
		checkWhole(t, whole, doc, got)
		note := -1
		for _, c := range got {
			if strings.HasPrefix(c.Content, "[^1]: The note") {
				note = c.Position
			}
		}
		if len(seen.at) < 4 || note < 0 {
			t.Fatalf("%d windows, the note at %d", len(seen.at), note)
		}
		if n := seen.at[len(seen.at)-1]; n <= note {
			t.Fatalf("%d chunks yielded before the last window was measured, the note is chunk %d: chunks are held (%v)", n, note, seen.at)
		}
		for k := 2; k < len(seen.at); k++ {
			if seen.at[k-2] > note && seen.at[k] <= seen.at[k-2] {
				t.Fatalf("window %d was measured after %d chunks had been yielded, as many as before window %d, past the note (chunk %d): chunks are held (%v)", k, seen.at[k], k-2, note, seen.at)
			}
		}
	}
	t.Run("ChunkSeq", func(t *testing.T) {
		t.Parallel()
		seen := &yieldsSeen{TokenCounter: sdk.Words{}}
		s := &chunkers.Sections{Config: chunkers.Config{Counter: seen, MaxTokens: 128}}
		checkHeld(t, seen, yieldedChunks(t, s.ChunkSeq(context.Background(), conformance.Request(), doc), seen))
	})
	t.Run("ChunkParts", func(t *testing.T) {
		t.Parallel()
		pd, parts, err := markdown.ParseParts(src, markdown.Options{ID: "notes.md"}, 64<<10)
		if err != nil {
			t.Fatal(err)
		}
		if pd.Footnotes == nil || pd.Footnotes.Defined["a-z"] || !pd.Footnotes.Defined["1"] || !pd.Footnotes.Referenced["a-z"] || pd.Footnotes.Referenced["early"] {
			t.Fatalf("ParseParts' footnote scan: %+v", pd.Footnotes)
		}
		seen := &yieldsSeen{TokenCounter: sdk.Words{}}
		s := &chunkers.Sections{Config: chunkers.Config{Counter: seen, MaxTokens: 128}}
		checkHeld(t, seen, yieldedChunks(t, s.ChunkParts(context.Background(), conformance.Request(), pd, parts), seen))
	})
}

// TestSectionsLinksMarkdownFootnotes: the Markdown adapter's footnote blocks — a paragraph, a
// URL that goldmark reads as a link definition, one with a lazy continuation line — are linked
// to the chunk that references them, each a block of its own.
func TestSectionsLinksMarkdownFootnotes(t *testing.T) {
	t.Parallel()
	src := "# A\n\nSee [^1], [^2] and [^3].\n\n# B\n\nb\n\n[^1]: A note of words.\n\n[^2]: https://b.example\n\n[^3]: three\nand more\n"
	doc, err := markdown.Parse([]byte(src), markdown.Options{ID: "d"})
	if err != nil {
		t.Fatal(err)
	}
	got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 6, OverlapTokens: chunkers.NoOverlap}}, doc)
	if diff := cmp.Diff([]string{
		"0 - [A]: A\n\nSee [^1], [^2] and [^3].",
		"1 - [B]: B\n\nb",
		"2 0 [A]: [^1]: A note of words.",
		"3 0 [A]: [^2]: https://b.example",
		"4 0 [A]: [^3]: three\nand more",
	}, sectionOutline(got)); diff != "" {
		t.Fatalf("chunks (-want +got):\n%s", diff)
	}
	want := []footnoteMeta{{"", "", []string{"d#2", "d#3", "d#4"}}, {}, {"1", "d#0", nil}, {"2", "d#0", nil}, {"3", "d#0", nil}}
	if diff := cmp.Diff(want, footnoteMetas(got)); diff != "" {
		t.Errorf("footnote metadata (-want +got):\n%s", diff)
	}
}
