package chunkers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// corpusEnv names the corpus built by ../shared/tools/build-corpus.sh, which the window test
// reads too when it is set.
const corpusEnv = "CHUNKKIT_CORPUS"

// windowSources returns the shipped corpus's Markdown, each file a source, and all of it
// joined, whose level-1 headings are where windows may end, also with every level-1 heading
// made level 2; with CHUNKKIT_CORPUS set, also the corpus's English Markdown files joined the
// same way.
func windowSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	var joined strings.Builder
	for _, f := range snapshotFiles(t) {
		if !strings.HasSuffix(f, ".md") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(src)
		joined.Write(src)
		joined.WriteString("\n\n")
	}
	// Blocks of comments and anchors, and headings alone, before headings where a window
	// could end.
	joined.WriteString("<!-- noise -->\n\n# Noise heading\n\n<a id=\"x\"></a>\n\n# After noise\n\ntext\n\n# Only\n\n# Headings\n\n## Deep\n\nbody\n\n")
	out["joined.md"] = joined.String()
	out["level2.md"] = strings.ReplaceAll(joined.String(), "\n# ", "\n## ")
	if root := os.Getenv(corpusEnv); root != "" {
		var corpus strings.Builder
		matches, _ := filepath.Glob(filepath.Join(root, "en-md", "*", "*.md"))
		for _, m := range matches {
			src, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			corpus.Write(src)
			corpus.WriteString("\n\n")
		}
		out["corpus-en-md.md"] = corpus.String()
	} else {
		t.Logf("%s is not set: the corpus's Markdown is left out (build it with ../shared/tools/build-corpus.sh)", corpusEnv)
	}
	return out
}

// windowDocs returns the shipped corpus, each file a document (plain text ones too), and the
// documents of windowSources.
func windowDocs(t *testing.T) []*sdk.Document {
	t.Helper()
	var docs []*sdk.Document
	for _, f := range snapshotFiles(t) {
		if !strings.HasSuffix(f, ".md") {
			docs = append(docs, parseFile(t, f, filepath.Base(f)))
		}
	}
	for id, src := range windowSources(t) {
		doc, err := markdown.Parse([]byte(src), markdown.Options{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	return docs
}

// windowConfigs are the configurations the window tests compare at: both counters' ways of
// cutting, a small and the default budget, and the modes that change what crosses a heading
// (overlap, context, heading chunks). FuzzHeadingAware covers the rest.
func windowConfigs(t *testing.T) []*chunkers.HeadingAware {
	t.Helper()
	var out []*chunkers.HeadingAware
	for _, counter := range []sdk.TokenCounter{sdk.Words{}, cl100kCounter(t)} {
		for _, budget := range []int{16, 512} {
			out = append(out,
				&chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: budget}},
				&chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: budget, OverlapTokens: chunkers.NoOverlap, Context: chunkers.ContextNone}, HeadingChunks: true})
		}
	}
	return out
}

func configName(h *chunkers.HeadingAware) string {
	return fmt.Sprintf("%s/max=%d/overlap=%d/context=%s/headingChunks=%v", counterName(h.Counter), h.MaxTokens, h.OverlapTokens, h.Context, h.HeadingChunks)
}

// TestChunkSeqWindowsGiveTheWholeDocumentsChunks holds HeadingAware's windows (ChunkSeq, and
// Chunk through it) to the chunks of the whole document at once: with windows as small as can
// be, every place a window may end is one, and the chunks must be exactly those of one window.
func TestChunkSeqWindowsGiveTheWholeDocumentsChunks(t *testing.T) {
	exhaustive(t)
	t.Parallel()
	var docs []*sdk.Document
	for _, doc := range windowDocs(t) {
		if chunkers.Windows(doc, 1) > 1 { // one window is the whole document: nothing to compare
			docs = append(docs, doc)
		}
	}
	cuts := 0
	for _, c := range windowConfigs(t) {
		whole, small := *c, *c
		whole.WindowBytes, small.WindowBytes = -1, 1
		for _, doc := range docs {
			want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
			if err != nil {
				t.Fatalf("%s: %s: %v", configName(c), doc.ID, err)
			}
			got := seqChunks(t, configName(c), &small, doc)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: %s: windows of one heading each differ from the whole document (-whole +windows):\n%s", configName(c), doc.ID, diff)
			}
			cuts += chunkers.Windows(doc, 1) - 1
		}
	}
	if cuts < 20 {
		t.Fatalf("%d window ends in all: the test compares too little", cuts)
	}
	t.Logf("%d window ends compared", cuts)
}

func counterName(c sdk.TokenCounter) string {
	if n, ok := c.(sdk.Namer); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", c)
}

// TestChunkPartsGivesTheWholeDocumentsChunks holds ChunkParts, reading the Markdown adapter's
// ParseParts, to Chunk of the document Parse gives, with pieces and windows as small as can be
// and of a few kilobytes.
func TestChunkPartsGivesTheWholeDocumentsChunks(t *testing.T) {
	exhaustive(t)
	t.Parallel()
	sources := windowSources(t)
	for _, c := range windowConfigs(t) {
		whole := *c
		whole.WindowBytes = -1
		checkPartsGiveTheWhole(t, configName(c), sources, &whole, [][2]int{{1, 1}, {4096, 4096}, {1, 0}, {0, 1}}, func(window int) sdk.PartChunker {
			pc := *c
			pc.WindowBytes = window
			return &pc
		})
	}
}

// measuring is a counter that records the most text one Boundaries call asked it to measure.
type measuring struct {
	sdk.TokenCounter
	mu       sync.Mutex
	calls    int
	maxBytes int
}

func (m *measuring) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	n := 0
	for _, s := range texts {
		n += len(s)
	}
	m.mu.Lock()
	m.calls++
	m.maxBytes = max(m.maxBytes, n)
	m.mu.Unlock()
	return m.TokenCounter.Boundaries(ctx, texts)
}

// TestWindowsWithoutHeadingsBoundWhatIsMeasuredAtOnce holds a document that has no heading
// where a window could end clean — none at all, or one title over everything — to windows of
// about WindowBytes: the counter is never asked to measure much more than a window at once,
// and the chunks are still exactly the whole document's.
func TestWindowsWithoutHeadingsBoundWhatIsMeasuredAtOnce(t *testing.T) {
	t.Parallel()
	const window = 16 << 10
	var blocks []sdk.Block
	for i := range 600 {
		text := fmt.Sprintf("Paragraph %d says %s. It ends here.", i, strings.Repeat("something longer ", i%40))
		switch i % 7 {
		case 3:
			blocks = append(blocks, sdk.Block{Kind: sdk.KindList, Text: "- one item\n- " + text})
		case 5:
			blocks = append(blocks, sdk.Block{Kind: sdk.KindCode, Text: "```\n" + text + "\n```"})
		default:
			blocks = append(blocks, para(text))
		}
	}
	docs := map[string]*sdk.Document{
		"no headings":           {ID: "plain", Blocks: blocks},
		"one title over it all": {ID: "titled", Blocks: append([]sdk.Block{heading(1, "Title"), heading(2, "Part")}, blocks...)},
	}
	for name, doc := range docs {
		for _, overlap := range []int{0, 12} {
			t.Run(fmt.Sprintf("%s, overlap %d", name, overlap), func(t *testing.T) {
				t.Parallel()
				size := len(doc.Canonical().Text)
				if n := chunkers.Windows(doc, window); n < size/window {
					t.Fatalf("%d windows of %d bytes for %d bytes", n, window, size)
				}
				whole := chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 64, OverlapTokens: overlap}, WindowBytes: -1}
				want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
				if err != nil {
					t.Fatal(err)
				}
				m := &measuring{TokenCounter: sdk.Words{}}
				windowed := whole
				windowed.Counter, windowed.WindowBytes = m, window
				got, err := windowed.Chunk(context.Background(), conformance.Request(), doc)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("windows differ from the whole document (-whole +windows):\n%s", diff)
				}
				// A window is at least window bytes, ends before the first block where it may
				// and holds again the blocks of the two chunks before its start.
				if m.maxBytes > 2*window {
					t.Errorf("one Boundaries call measured %d bytes of a %d-byte document with %d-byte windows", m.maxBytes, size, window)
				}
				if m.calls < size/window {
					t.Errorf("%d Boundaries calls for %d-byte windows of %d bytes", m.calls, window, size)
				}
			})
		}
	}
}

// TestALargeBlockIsChunkedAWindowAtATime holds one huge block — a paragraph of many lines, one
// line of many words, text without white space, a table and a fenced code block — to parts of
// about a window each (splitLarge): the counter is never asked to measure much more than a
// window at once, every invariant of the conformance kit holds, and the chunks are those of
// the block at once but near where its parts meet. Every chunk of the table or code block but
// the first starts at a line start and repeats its header as Metadata["prefix"], as when the
// block is split whole.
func TestALargeBlockIsChunkedAWindowAtATime(t *testing.T) {
	t.Parallel()
	const window = 64 << 10
	var lines, words, cjk, table, code strings.Builder
	for i := 0; lines.Len() < 6*window; i++ {
		fmt.Fprintf(&lines, "Line %d of one paragraph says %s.\n", i, strings.Repeat("more ", i%30))
	}
	for i := 0; words.Len() < 6*window; i++ {
		fmt.Fprintf(&words, "word%d says %s. ", i, strings.Repeat("again ", i%20))
	}
	for cjk.Len() < 6*window {
		cjk.WriteString("日本語の文字列には空白がない。")
	}
	const tableHeader, codeHeader = "| row | says |\n|---:|---|\n", "```go\n"
	table.WriteString(tableHeader)
	for i := 0; table.Len() < 6*window; i++ {
		fmt.Fprintf(&table, "| %d | %s|\n", i, strings.Repeat("more ", i%30))
	}
	code.WriteString(codeHeader)
	for i := 0; code.Len() < 6*window; i++ {
		fmt.Fprintf(&code, "x%d := %q // %s\n", i, "value", strings.Repeat("again ", i%20))
	}
	code.WriteString("```")
	blocks := map[string]sdk.Block{
		"lines":          para(lines.String()),
		"words":          para(words.String()),
		"no white space": para(cjk.String()),
		"table":          {Kind: sdk.KindTable, Text: strings.TrimSuffix(table.String(), "\n")},
		"code":           {Kind: sdk.KindCode, Text: code.String()},
	}
	headers := map[string]string{"table": tableHeader, "code": codeHeader}
	for name, large := range blocks {
		for _, overlap := range []int{chunkers.NoOverlap, 16} {
			t.Run(fmt.Sprintf("%s, overlap %d", name, overlap), func(t *testing.T) {
				t.Parallel()
				doc := &sdk.Document{ID: "large", Title: "T", Blocks: []sdk.Block{para("Before."), large, para("After.")}}
				whole := chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 64, OverlapTokens: overlap}, WindowBytes: -1}
				if name == "no white space" {
					whole.Counter = sdk.Runes{}
				}
				want, got, m := atOnceAndInWindows(t, whole, doc, window)
				if m.maxBytes > 4*window {
					t.Errorf("one Boundaries call measured %d bytes of a %d-byte block with %d-byte windows", m.maxBytes, len(large.Text), window)
				}
				same := 0
				seen := map[[2]int]bool{}
				for _, c := range want {
					seen[[2]int{c.Start, c.End}] = true
				}
				for _, c := range got {
					if seen[[2]int{c.Start, c.End}] {
						same++
					}
				}
				t.Logf("%d chunks at once, %d in windows, %d the same; %d Boundaries calls", len(want), len(got), same, m.calls)
				if parts := len(large.Text) / window; len(got)-same > 4*parts {
					t.Errorf("%d of %d chunks differ from the block's at once, more than near its %d part ends", len(got)-same, len(got), parts)
				}
				header, ok := headers[name]
				if !ok {
					return
				}
				if same != len(got) || len(got) != len(want) { // rows and lines are units either way
					t.Errorf("%d of %d chunks of the %s in windows are not the %d at once", len(got)-same, len(got), name, len(want))
				}
				canon := doc.Canonical()
				from, to := canon.Starts[1], canon.Starts[1]+len(large.Text)
				inside := 0
				for _, c := range got {
					if c.Start <= from || c.End > to {
						continue // the block's first chunk, or one with a neighbour's text
					}
					inside++
					if canon.Text[c.Start-1] != '\n' {
						t.Errorf("chunk %d [%d, %d) of the %s starts inside a line: %q", c.Position, c.Start, c.End, name, canon.Text[c.Start:min(c.End, c.Start+40)])
					}
					if got := c.Metadata["prefix"]; got != header {
						t.Errorf("chunk %d [%d, %d) of the %s has prefix %q, want its header %q", c.Position, c.Start, c.End, name, got, header)
					}
				}
				if inside < 2*len(large.Text)/window {
					t.Errorf("%d chunks inside the %s, want many", inside, name)
				}
			})
		}
	}
}

// TestALargeTableKeptWholeIsNotCut: with KeepTablesWhole a table of many windows stays one
// chunk over budget, measured whole, as in one window.
func TestALargeTableKeptWholeIsNotCut(t *testing.T) {
	t.Parallel()
	const window = 64 << 10
	var table strings.Builder
	table.WriteString("| row | says |\n|---|---|")
	for i := 0; table.Len() < 6*window; i++ {
		fmt.Fprintf(&table, "\n| %d | %s|", i, strings.Repeat("more ", i%30))
	}
	doc := &sdk.Document{ID: "large", Blocks: []sdk.Block{para("Before."), {Kind: sdk.KindTable, Text: table.String()}, para("After.")}}
	h := chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 64, KeepTablesWhole: true}, WindowBytes: window}
	got, err := h.Chunk(context.Background(), conformance.Request(), doc)
	if err := conformance.CheckResult(context.Background(), doc, conformance.Request(), got, err, conformance.OptionsFor(&h, h.Counter)); err != nil {
		t.Fatal(err)
	}
	var whole []sdk.Chunk
	for _, c := range got {
		if c.Metadata["over_budget"] == true {
			whole = append(whole, c)
		}
	}
	if len(whole) != 1 || whole[0].Content != table.String() {
		t.Fatalf("%d chunks over budget, want the table whole in one: %d chunks in all", len(whole), len(got))
	}
}

// TestALargeTableOrCodeBlockGivesTheWholeBlocksChunks holds a table or code block cut into
// parts (splitLarge) to the chunks of the block at once, exactly — the same ranges, content
// and prefixes — for shapes where a part's cut could show: rows cut at words at a small
// budget, indented lines, rows with leading spaces, blank-line runs through tiktoken, a
// header longer than a part, and a header too long to repeat before lines but repeated
// before an overlap.
func TestALargeTableOrCodeBlockGivesTheWholeBlocksChunks(t *testing.T) {
	t.Parallel()
	const window = 64 << 10
	build := func(head string, line func(i int) string) string {
		var sb strings.Builder
		sb.WriteString(head)
		for i := 0; sb.Len() < 6*window; i++ {
			sb.WriteString(line(i))
		}
		return sb.String()
	}
	longHeader := func(n int) string {
		var hdr, delim strings.Builder
		hdr.WriteString("|")
		delim.WriteString("|")
		for i := 0; hdr.Len() < n; i++ {
			fmt.Fprintf(&hdr, " h%d |", i)
			delim.WriteString("---|")
		}
		return hdr.String() + "\n" + delim.String() + "\n"
	}
	cl, err := cl100k()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name             string
		block            sdk.Block
		counter          sdk.TokenCounter
		maxTokens, overl int
	}{
		{"rows cut at words", sdk.Block{Kind: sdk.KindTable, Text: build("| row | says |\n|---|---|\n", func(i int) string {
			return fmt.Sprintf("| %d | %s|\n", i, strings.Repeat("word ", 20+i%7))
		})}, sdk.Words{}, 16, chunkers.NoOverlap},
		{"indented code", sdk.Block{Kind: sdk.KindCode, Text: build("```go\nfunc f() {\n", func(i int) string {
			return fmt.Sprintf("\tx%d := %d // %s\n", i, i, strings.Repeat("note ", i%9))
		}) + "}\n```"}, sdk.Words{}, 64, 16},
		{"rows with leading spaces", sdk.Block{Kind: sdk.KindTable, Text: build("| row | says |\n|---|---|\n", func(i int) string {
			return fmt.Sprintf("   | %d | %s|\n", i, strings.Repeat("more ", i%30))
		})}, sdk.Words{}, 64, 16},
		{"blank-line runs through tiktoken", sdk.Block{Kind: sdk.KindCode, Text: build("```\n", func(i int) string {
			return fmt.Sprintf("x%d = %d\n\n\n", i, i*i)
		}) + "```"}, cl, 512, 64},
		{"a header longer than a part", sdk.Block{Kind: sdk.KindTable, Text: build(longHeader(70<<10), func(i int) string {
			return fmt.Sprintf("| %d | %s|\n", i, strings.Repeat("more ", 200))
		})}, sdk.Words{}, 60000, chunkers.NoOverlap},
		{"a header too long for lines but not for an overlap", sdk.Block{Kind: sdk.KindTable, Text: build(longHeader(100), func(i int) string {
			return fmt.Sprintf("| %d | a b |\n", i)
		})}, sdk.Words{}, 40, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.block.Text = strings.TrimSuffix(tc.block.Text, "\n")
			doc := &sdk.Document{ID: "large", Blocks: []sdk.Block{para("Before."), tc.block, para("After.")}}
			whole := chunkers.HeadingAware{Config: chunkers.Config{Counter: tc.counter, MaxTokens: tc.maxTokens, OverlapTokens: tc.overl}, WindowBytes: -1}
			want, got, m := atOnceAndInWindows(t, whole, doc, window)
			if tc.maxTokens < 1000 && m.maxBytes > 4*window { // a chunk far smaller than a window
				t.Errorf("one Boundaries call measured %d bytes of a %d-byte block", m.maxBytes, len(tc.block.Text))
			}
			key := func(c sdk.Chunk) string { return fmt.Sprint(c.Start, c.End, c.Metadata["prefix"], c.Content) }
			if len(got) != len(want) {
				t.Errorf("%d chunks in windows, %d at once", len(got), len(want))
			}
			for k := range min(len(got), len(want)) {
				if key(got[k]) != key(want[k]) {
					t.Fatalf("chunk %d of %d: in windows [%d, %d) prefix %.20q %.60q; at once [%d, %d) prefix %.20q %.60q", k, len(got),
						got[k].Start, got[k].End, got[k].Metadata["prefix"], got[k].Content, want[k].Start, want[k].End, want[k].Metadata["prefix"], want[k].Content)
				}
			}
		})
	}
}

// atOnceAndInWindows returns the chunks whole (one window) makes of doc and those it makes in
// windows of window bytes, which it checks with the conformance kit, with what the counter
// was asked to measure in windows.
func atOnceAndInWindows(t *testing.T, whole chunkers.HeadingAware, doc *sdk.Document, window int) (want, got []sdk.Chunk, m *measuring) {
	t.Helper()
	want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
	if err != nil {
		t.Fatal(err)
	}
	m = &measuring{TokenCounter: whole.Counter}
	windowed := whole
	windowed.Counter, windowed.WindowBytes = m, window
	got, err = windowed.Chunk(context.Background(), conformance.Request(), doc)
	if err := conformance.CheckResult(context.Background(), doc, conformance.Request(), got, err, conformance.OptionsFor(&windowed, whole.Counter)); err != nil {
		t.Fatal(err)
	}
	return want, got, m
}

// checkWhole fails the test unless got, the chunks of doc a window at a time, are whole's
// chunks of it, whole chunking it in one window.
func checkWhole(t *testing.T, whole sdk.Chunker, doc *sdk.Document, got []sdk.Chunk) {
	t.Helper()
	want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("windows differ from the whole document (-whole +windows):\n%s", diff)
	}
}

// seqChunks returns the chunks sc's ChunkSeq yields of doc, failing at an error.
func seqChunks(t *testing.T, name string, sc sdk.StreamChunker, doc *sdk.Document) []sdk.Chunk {
	t.Helper()
	var got []sdk.Chunk
	for ch, err := range sc.ChunkSeq(context.Background(), conformance.Request(), doc) {
		if err != nil {
			t.Fatalf("%s: %s: ChunkSeq: %v", name, doc.ID, err)
		}
		got = append(got, ch)
	}
	return got
}

// checkPartsGiveTheWhole holds, for each of sources (by ID), the ChunkParts of at(window),
// reading markdown.ParseParts at a piece's bytes, to whole's Chunk of the document
// markdown.Parse gives, for every {piece, window} of sizes.
func checkPartsGiveTheWhole(t *testing.T, name string, sources map[string]string, whole sdk.Chunker, sizes [][2]int, at func(window int) sdk.PartChunker) {
	t.Helper()
	for id, src := range sources {
		doc, err := markdown.Parse([]byte(src), markdown.Options{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sizes {
			checkChunkParts(t, fmt.Sprintf("%s/%s/piece=%d/window=%d", name, id, s[0], s[1]), at(s[1]), src, id, s[0], want)
		}
	}
}

// checkChunkParts checks that pc's ChunkParts of src, id, read by markdown.ParseParts at piece
// bytes a piece, gives want, the chunks of the whole document at once.
func checkChunkParts(t *testing.T, name string, pc sdk.PartChunker, src, id string, piece int, want []sdk.Chunk) {
	t.Helper()
	pd, parts, err := markdown.ParseParts([]byte(src), markdown.Options{ID: id}, piece)
	if err != nil {
		t.Fatal(err)
	}
	var got []sdk.Chunk
	for ch, err := range pc.ChunkParts(context.Background(), conformance.Request(), pd, parts) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got = append(got, ch)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: ChunkParts differs from Chunk of the whole document (-whole +parts):\n%s", name, diff)
	}
}

// exhaustive skips t under -short, as make test's race run of this package does: the window
// and part comparisons take minutes with the race detector, and make test runs them plain,
// by name: a test that calls exhaustive is named ...Give(s)TheWholeDocumentsChunks.
func exhaustive(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("an exhaustive window/part comparison, skipped under -short: make test runs it without -race (go test ./sdk/chunkers)")
	}
}
