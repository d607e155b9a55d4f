package chunkers_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

var req = sdk.Request{TenantID: "t1", CorpusID: "c1", Principal: sdk.Principal{ID: "u", ACLLabels: []string{"team:a"}}}

func heading(level int, text string) sdk.Block {
	return sdk.Block{Kind: sdk.KindHeading, Level: level, Text: text}
}

func para(text string) sdk.Block { return sdk.Block{Kind: sdk.KindParagraph, Text: text} }

func words(n int, word string) string {
	return strings.TrimSpace(strings.Repeat(word+" ", n))
}

// outline renders chunks as "position kind parent: content" lines for compact comparison.
func outline(chunks []sdk.Chunk) []string {
	pos := map[string]int{}
	var out []string
	for _, c := range chunks {
		pos[c.ID] = c.Position
		parent := "-"
		if c.ParentID != "" {
			parent = fmt.Sprint(pos[c.ParentID])
		}
		out = append(out, fmt.Sprintf("%d %s %s: %s", c.Position, c.Kind, parent, c.Content))
	}
	return out
}

// headingTree is a document whose headings skip a level, re-parent and stack.
func headingTree() *sdk.Document {
	return &sdk.Document{ID: "d", Blocks: []sdk.Block{
		para("Preface text."),
		heading(1, "Guide"),
		para("Intro."),
		heading(3, "Deep"), // skipped level: parents to the h1
		para("Deep text."),
		heading(2, "Install"),
		heading(2, "Use"), // a new h2 re-parents under the same h1
		para("Use text."),
		heading(1, "Appendix"),
		para("End."),
	}}
}

func TestHeadingAwareFoldsHeadingsIntoTheirSectionsChunks(t *testing.T) {
	t.Parallel()
	doc := headingTree()
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}
	got, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 body -: Preface text.",
		"1 body -: Guide\n\nIntro.",
		"2 body 1: Deep\n\nDeep text.",
		"3 body 1: Install\n\nUse\n\nUse text.", // Install has no text of its own: it travels with Use's
		"4 body -: Appendix\n\nEnd.",
	}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Guide", "Use"}, got[3].SectionPath); diff != "" {
		t.Errorf("section path (-want +got):\n%s", diff)
	}
	// A chunk that starts with its section's heading leaves that heading out of its context.
	for i, want := range []string{"", "", "Guide", "Guide", ""} {
		if got[i].Context != want || got[i].EmbedText != sdk.JoinContext(want, got[i].Content) {
			t.Errorf("chunk %d: context %q and embed text %q, want context %q", i, got[i].Context, got[i].EmbedText, want)
		}
	}
}

func TestHeadingAwareBuildsTheHeadingTree(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		para("Preface text."),
		heading(1, "Guide"),
		para("Intro."),
		heading(3, "Deep"), // skipped level: parents to the h1
		para("Deep text."),
		heading(2, "Install"),
		heading(2, "Use"), // a new h2 re-parents under the same h1
		para("Use text."),
		heading(1, "Appendix"),
		para("End."),
	}}
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}, HeadingChunks: true}
	got, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 body -: Preface text.",
		"1 heading -: Guide",
		"2 body 1: Intro.",
		"3 heading 1: Deep",
		"4 body 3: Deep text.",
		"5 heading 1: Install",
		"6 heading 1: Use",
		"7 body 6: Use text.",
		"8 heading -: Appendix",
		"9 body 8: End.",
	}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Guide", "Use"}, got[7].SectionPath); diff != "" {
		t.Errorf("section path (-want +got):\n%s", diff)
	}
	if got[7].SectionTitle != "Use" || got[3].Level != 3 || got[3].Metadata["level"] != 3 {
		t.Errorf("chunk 7 title %q, chunk 3 level %d / %v", got[7].SectionTitle, got[3].Level, got[3].Metadata["level"])
	}
	for _, c := range got {
		if c.TenantID != "t1" || c.CorpusID != "c1" || c.DocumentID != "d" || !cmp.Equal(c.ACLLabels, []string{"team:a"}) {
			t.Errorf("chunk %d identity: %q %q %q %v", c.Position, c.TenantID, c.CorpusID, c.DocumentID, c.ACLLabels)
		}
	}
}

func TestHeadingAwareAccumulatesBlocksUntilTheBudget(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		heading(1, "H"),
		para(words(4, "a")), para(words(4, "b")), para(words(4, "c")),
	}}
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: chunkers.NoOverlap, Context: chunkers.ContextNone}, HeadingChunks: true}
	got, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 heading -: H",
		"1 body 0: a a a a\n\nb b b b",
		"2 body 0: c c c c",
	}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
}

func TestHeadingAwareOverlapsWithinASectionOnly(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		heading(1, "H"),
		para("w1 w2 w3 w4 w5 w6"), para("x1 x2 x3 x4 x5 x6"),
		heading(1, "K"),
		para("y1 y2"),
	}}
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: 2, Context: chunkers.ContextNone}, HeadingChunks: true}
	got, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 heading -: H",
		"1 body 0: w1 w2 w3 w4 w5 w6",
		"2 body 0: w5 w6\n\nx1 x2 x3 x4 x5 x6",
		"3 heading -: K",
		"4 body 3: y1 y2",
	}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if got[2].Metadata[sdk.MetaOverlapBytes] != len("w5 w6") {
		t.Errorf("overlap bytes = %v, want %d", got[2].Metadata[sdk.MetaOverlapBytes], len("w5 w6"))
	}
	canon := doc.Canonical().Text
	for _, c := range got {
		if c.Content != canon[c.Start:c.End] {
			t.Errorf("chunk %d content %q is not canonical[%d:%d] %q", c.Position, c.Content, c.Start, c.End, canon[c.Start:c.End])
		}
	}
}

func TestHeadingAwareSplitsOversizedBlocksAtSentencesThenTokens(t *testing.T) {
	t.Parallel()
	long := words(30, "z")
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		para("One two three. Four five six. Seven eight nine. " + long + "."),
	}}
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 7, OverlapTokens: chunkers.NoOverlap}}
	got, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 body -: One two three. Four five six.",
		"1 body -: Seven eight nine. z z z z",
		"2 body -: z z z z z z z",
		"3 body -: z z z z z z z",
		"4 body -: z z z z z z z",
		"5 body -: z z z z z.",
	}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
}

func TestHeadingAwareKeepsTablesWholeOrRepeatsTheirHeader(t *testing.T) {
	t.Parallel()
	table := "| k | v |\n|---|---|\n| a | 1 |\n| b | 2 |\n| c | 3 |"
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		para("before"),
		{Kind: sdk.KindTable, Text: table},
	}}
	t.Run("a table that fits is never split", func(t *testing.T) {
		h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 40, OverlapTokens: chunkers.NoOverlap}}
		got, err := h.Chunk(context.Background(), req, doc)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"0 body -: before\n\n" + table}
		if diff := cmp.Diff(want, outline(got)); diff != "" {
			t.Errorf("chunks (-want +got):\n%s", diff)
		}
	})
	t.Run("a table over budget is split at rows with its header repeated", func(t *testing.T) {
		h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 16, OverlapTokens: chunkers.NoOverlap}}
		got, err := h.Chunk(context.Background(), req, doc)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"0 body -: before\n\n| k | v |\n|---|---|\n| a | 1 |",
			"1 body -: | k | v |\n|---|---|\n| b | 2 |",
			"2 body -: | k | v |\n|---|---|\n| c | 3 |",
		}
		if diff := cmp.Diff(want, outline(got)); diff != "" {
			t.Errorf("chunks (-want +got):\n%s", diff)
		}
		if p := got[2].Metadata[sdk.MetaPrefix]; p != "| k | v |\n|---|---|\n" {
			t.Errorf("prefix = %q", p)
		}
	})
	t.Run("KeepTablesWhole keeps it whole and says so", func(t *testing.T) {
		h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 14, OverlapTokens: chunkers.NoOverlap, KeepTablesWhole: true}}
		got, err := h.Chunk(context.Background(), req, doc)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[1].Content != table || got[1].Metadata[sdk.MetaOverBudget] != true {
			t.Errorf("got %q", outline(got))
		}
	})
}

func TestHeadingAwareKeepsCodeThatFitsWhole(t *testing.T) {
	t.Parallel()
	code := "```go\nfunc a() {}\n\nfunc b() {}\n```"
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		para(words(6, "p")),
		{Kind: sdk.KindCode, Text: code},
	}}
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 10, OverlapTokens: chunkers.NoOverlap}}
	got, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0 body -: p p p p p p", "1 body -: " + code}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
}

func TestChunkersMakeConstantCounterCalls(t *testing.T) {
	t.Parallel()
	var blocks []sdk.Block
	for i := range 200 {
		blocks = append(blocks, heading(1+i%3, fmt.Sprintf("Section %d", i)))
		blocks = append(blocks, para(words(100+i, "word")+". "+words(50, "more")+"."))
	}
	doc := &sdk.Document{ID: "d", Blocks: blocks}
	longestBlock := 0
	for _, b := range blocks {
		longestBlock = max(longestBlock, len(b.Text))
	}
	for _, tc := range []struct {
		name string
		new  func(sdk.TokenCounter) sdk.Chunker
	}{
		{"heading-aware", func(c sdk.TokenCounter) sdk.Chunker {
			return &chunkers.HeadingAware{Config: chunkers.Config{Counter: c, MaxTokens: 64}}
		}},
		{"fixed-tokens", func(c sdk.TokenCounter) sdk.Chunker {
			return &chunkers.FixedTokens{Config: chunkers.Config{Counter: c, MaxTokens: 64}}
		}},
	} {
		t.Run(tc.name+" makes one Boundaries and one Count call", func(t *testing.T) {
			rec := &sdk.Recorder{Counter: sdk.Words{}}
			if _, err := tc.new(rec).Chunk(context.Background(), req, doc); err != nil {
				t.Fatal(err)
			}
			st := rec.Stats()
			if st.BoundariesCalls != 1 || st.CountCalls != 1 {
				t.Errorf("calls: %d Boundaries, %d Count; want 1 and 1", st.BoundariesCalls, st.CountCalls)
			}
			if st.LongestText > longestBlock {
				t.Errorf("longest text sent: %d bytes, longer than the longest block (%d)", st.LongestText, longestBlock)
			}
		})
	}
}

// skewed counts one token more than its boundaries say for any text over 20 bytes, so the
// chunker's estimates are too low and verification must re-split.
type skewed struct{ sdk.Words }

func (s skewed) Count(ctx context.Context, texts []string) ([]int, error) {
	n, err := s.Words.Count(ctx, texts)
	for i, t := range texts {
		if len(t) > 20 {
			n[i]++
		}
	}
	return n, err
}

func TestHeadingAwareResplitsAChunkThatFailsVerification(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{para(words(40, "abc"))}}
	rec := &sdk.Recorder{Counter: skewed{}}
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: rec, MaxTokens: 8, OverlapTokens: 2}}
	got, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		if c.TokenCount > 8 {
			t.Errorf("chunk %d: %d tokens over budget 8: %q", c.Position, c.TokenCount, c.Content)
		}
	}
	if st := rec.Stats(); st.CountCalls < 2 {
		t.Errorf("Count calls = %d; a failed verification should cost a second call", st.CountCalls)
	}
}

func TestChunkersRejectBadInputAndConfig(t *testing.T) {
	t.Parallel()
	bad := &sdk.Document{ID: "d", Blocks: []sdk.Block{para("fine"), para("bad \xff byte")}}
	for _, tc := range []struct {
		name string
		c    sdk.Chunker
		doc  *sdk.Document
		want error
	}{
		{"invalid UTF-8 is invalid input", &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}, bad, sdk.ErrInvalidInput},
		{"invalid UTF-8 is invalid input for fixed windows", &chunkers.FixedTokens{Config: chunkers.Config{Counter: sdk.Words{}}}, bad, sdk.ErrInvalidInput},
		{"invalid UTF-8 is invalid input for noop", &chunkers.Noop{Counter: sdk.Words{}}, bad, sdk.ErrInvalidInput},
		{"overlap at the budget is a config error", &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: 8}}, &sdk.Document{}, sdk.ErrInvalidConfig},
		{"a missing counter is a config error", &chunkers.HeadingAware{}, &sdk.Document{}, sdk.ErrInvalidConfig},
		{"a heading of level 0 is invalid input", &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}, &sdk.Document{Blocks: []sdk.Block{heading(0, "x")}}, sdk.ErrInvalidInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.c.Chunk(context.Background(), req, tc.doc)
			if !errors.Is(err, tc.want) || got != nil {
				t.Errorf("got %d chunks, err %v; want no chunks and %v", len(got), err, tc.want)
			}
		})
	}
	var ie *sdk.InputError
	_, err := (&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}}).Chunk(context.Background(), req, bad)
	if !errors.As(err, &ie) || ie.Block != 1 || ie.Offset != 4 {
		t.Errorf("error %v does not name block 1 byte 4", err)
	}
}

func TestFixedTokensWindows(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "T"), para("a b c d e f g h i j")}}
	f := &chunkers.FixedTokens{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 4, OverlapTokens: 1}}
	got, err := f.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 body -: T\n\na b c",
		"1 body -: c d e f",
		"2 body -: f g h i",
		"3 body -: i j",
	}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
}

func TestNoopMakesOneChunkPerBlock(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "T"), para("  "), para(" a b ")}}
	got, err := (&chunkers.Noop{Counter: sdk.Words{}}).Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0 body -: T", "1 body -: a b"}
	if diff := cmp.Diff(want, outline(got)); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	if got[1].TokenCount != 2 {
		t.Errorf("token count %d, want 2", got[1].TokenCount)
	}
}
