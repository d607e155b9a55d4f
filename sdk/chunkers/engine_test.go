package chunkers_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// chunkAndCheck chunks doc with c, holds the chunks to the conformance kit and returns them.
func chunkAndCheck(t *testing.T, c sdk.Chunker, doc *sdk.Document) []sdk.Chunk {
	t.Helper()
	chunks, err := c.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := conformance.CheckChunks(context.Background(), doc, req, chunks, conformance.OptionsFor(c, sdk.Words{})); err != nil {
		t.Fatal(err)
	}
	return chunks
}

func contexts(chunks []sdk.Chunk) []string {
	var out []string
	for _, c := range chunks {
		out = append(out, fmt.Sprintf("%d [%s] %s", c.Position, c.Context, strings.ReplaceAll(c.Content, "\n\n", " | ")))
	}
	return out
}

func TestCommentAndAnchorBlocksJoinANeighboursChunk(t *testing.T) {
	t.Parallel()
	anchor := sdk.Block{Kind: sdk.KindParagraph, Text: `<a id="ERR_X"></a>`}
	yaml := sdk.Block{Kind: sdk.KindParagraph, Text: "<!-- YAML\nadded: v8.2.0\n-->"}
	for _, tc := range []struct {
		name    string
		chunker sdk.Chunker
		doc     *sdk.Document
		want    []string
	}{
		{
			"an anchor joins the heading after it and a comment the text after it",
			&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 40}},
			&sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "Errors"), para("Intro."), anchor, heading(2, "ERR_X"), yaml, para("Means x.")}},
			[]string{"0 [] Errors | Intro.", `1 [Errors] <a id="ERR_X"></a> | ERR_X | <!-- YAML` + "\nadded: v8.2.0\n-->" + ` | Means x.`},
		},
		{
			"a comment that does not fit beside the text after it joins the text before it",
			&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: chunkers.NoOverlap, Context: chunkers.ContextNone}},
			&sdk.Document{ID: "d", Blocks: []sdk.Block{para("One two."), {Kind: sdk.KindParagraph, Text: "<!-- a note of four -->"}, para(words(7, "w"))}},
			[]string{"0 [] One two. | <!-- a note of four -->", "1 [] " + words(7, "w")},
		},
		{
			"with heading chunks, a comment right after a heading joins the text after it",
			&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 40}, HeadingChunks: true},
			&sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "Errors"), yaml, para("Means x.")}},
			[]string{"0 [] Errors", "1 [Errors] <!-- YAML\nadded: v8.2.0\n--> | Means x."},
		},
		{
			"in Sections an anchor joins the section heading after it",
			&chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 40}},
			&sdk.Document{ID: "d", Blocks: []sdk.Block{heading(2, "A"), para("a."), anchor, heading(2, "B"), para("b.")}},
			[]string{"0 [] A | a.", `1 [] <a id="ERR_X"></a> | B | b.`},
		},
		{
			"a document of nothing but a comment is one chunk",
			&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}},
			&sdk.Document{ID: "d", Blocks: []sdk.Block{yaml}},
			[]string{"0 [] <!-- YAML\nadded: v8.2.0\n-->"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := contexts(chunkAndCheck(t, tc.chunker, tc.doc))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("chunks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestContextModes(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Title: "Handbook", Blocks: []sdk.Block{
		heading(1, "Station"), para("Intro text here."), heading(2, "Power\nand light"), para("Mains power."), para("A diesel set."),
	}}
	for _, tc := range []struct {
		mode chunkers.ContextMode
		want []string
	}{
		{chunkers.ContextDefault, []string{"0 [Handbook] Station | Intro text here.", "1 [Handbook › Station] Power\nand light | Mains power.", "2 [Handbook › Station › Power and light] A diesel set."}},
		{chunkers.ContextTitlePath, []string{"0 [Handbook] Station | Intro text here.", "1 [Handbook › Station] Power\nand light | Mains power.", "2 [Handbook › Station › Power and light] A diesel set."}},
		{chunkers.ContextPath, []string{"0 [] Station | Intro text here.", "1 [Station] Power\nand light | Mains power.", "2 [Station › Power and light] A diesel set."}},
		{chunkers.ContextTitle, []string{"0 [Handbook] Station | Intro text here.", "1 [Handbook] Power\nand light | Mains power.", "2 [Handbook] A diesel set."}},
		{chunkers.ContextNone, []string{"0 [] Station | Intro text here.", "1 [] Power\nand light | Mains power.", "2 [] A diesel set."}},
	} {
		t.Run(fmt.Sprintf("context mode %q", tc.mode), func(t *testing.T) {
			t.Parallel()
			h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 40, OverlapTokens: chunkers.NoOverlap, Context: tc.mode}}
			// Each paragraph gets 20 more words, so the two never share a chunk.
			more := " " + words(20, "more")
			d := *doc
			d.Blocks = append([]sdk.Block(nil), doc.Blocks...)
			d.Blocks[3].Text += more
			d.Blocks[4].Text += more
			got := contexts(chunkAndCheck(t, h, &d))
			for i := range got {
				got[i] = strings.ReplaceAll(got[i], more, "")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("chunks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestContextLosesItsOuterPartsToFitAQuarterOfTheBudget(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Title: "The keeper's handbook", Blocks: []sdk.Block{
		heading(1, "Station"), heading(2, "Power supply"), para(words(100, "w")),
	}}
	for _, tc := range []struct {
		max  int
		want string // the context of the chunks after the first
	}{
		{64, "The keeper's handbook › Station › Power supply"}, // 7 words of 16
		{24, "Station › Power supply"},                         // 4 words of 6
		{12, "Power supply"},                                   // 2 words of 3
		{4, ""},                                                // no part fits 1 word
	} {
		t.Run(fmt.Sprintf("at %d words", tc.max), func(t *testing.T) {
			t.Parallel()
			h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: tc.max, OverlapTokens: chunkers.NoOverlap}}
			chunks := chunkAndCheck(t, h, doc)
			if len(chunks) < 2 {
				t.Fatalf("%d chunks, want the section split", len(chunks))
			}
			if got := chunks[len(chunks)-1].Context; got != tc.want {
				t.Errorf("context %q, want %q", got, tc.want)
			}
		})
	}
}

func TestHeadingChunksCarryTheirParentsPathAsContext(t *testing.T) {
	t.Parallel()
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}}, HeadingChunks: true}
	got := contexts(chunkAndCheck(t, h, headingTree()))
	want := []string{
		"0 [] Preface text.", "1 [] Guide", "2 [Guide] Intro.", "3 [Guide] Deep", "4 [Guide › Deep] Deep text.",
		"5 [Guide] Install", "6 [Guide] Use", "7 [Guide › Use] Use text.", "8 [] Appendix", "9 [Appendix] End.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
}

func TestFixedTokensContextIsTheTitleAtMost(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Title: "Handbook", Blocks: []sdk.Block{heading(1, "Station"), para(words(12, "w"))}}
	for mode, want := range map[chunkers.ContextMode]string{
		chunkers.ContextDefault: "", chunkers.ContextTitle: "Handbook", chunkers.ContextTitlePath: "Handbook", chunkers.ContextPath: "",
	} {
		f := &chunkers.FixedTokens{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: chunkers.NoOverlap, Context: mode}}
		for _, c := range chunkAndCheck(t, f, doc) {
			if c.Context != want {
				t.Errorf("mode %q: chunk %d context %q, want %q", mode, c.Position, c.Context, want)
			}
		}
	}
}

func TestSectionsSplitLevelFollowsTheDocumentsHeadings(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		para("Before."), heading(3, "A"), para("a."), heading(4, "A.1"), para("a1."), heading(3, "B"), para("b."),
	}}
	s := &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}}}
	got := outlineSections(chunkAndCheck(t, s, doc))
	want := []string{"0 - []: Before.", "1 - [A]: A\n\na.\n\nA.1\n\na1.", "2 - [B]: B\n\nb."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a document whose headings start at h3 splits at h3 (-want +got):\n%s", diff)
	}
}

func TestSectionsPacksSmallSiblingSections(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		heading(1, "Guide"), heading(2, "A"), para("a a."), heading(2, "B"), para("b b."), heading(2, "C"), para(words(10, "c")),
	}}
	s := &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 14, OverlapTokens: chunkers.NoOverlap}, PackSections: true}
	got := outlineSections(chunkAndCheck(t, s, doc))
	want := []string{"0 - [Guide]: Guide\n\nA\n\na a.\n\nB\n\nb b.", "1 - [Guide > C]: C\n\n" + words(10, "c")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	s.PackSections = false
	if n := len(chunkAndCheck(t, s, doc)); n != 3 {
		t.Errorf("without PackSections %d chunks, want 3", n)
	}
}

// outlineSections renders chunks as "position parent [path]: content", as the Sections
// tests do.
func outlineSections(chunks []sdk.Chunk) []string {
	var out []string
	for _, c := range chunks {
		parent := "-"
		if c.ParentID != "" {
			parent = c.ParentID
		}
		out = append(out, fmt.Sprintf("%d %s [%s]: %s", c.Position, parent, strings.Join(c.SectionPath, " > "), c.Content))
	}
	return out
}

func TestOverlapStartsAtASentenceOrWordOrWithItsFence(t *testing.T) {
	t.Parallel()
	code := "```sh\nrun one a\nrun two b\n```"
	for _, tc := range []struct {
		name          string
		blocks        []sdk.Block
		max, overlap  int
		wantSecond    string
		wantPrefix    string
		wantOverlapOK bool
	}{
		{
			name:   "at the sentence start within the overlap's tokens",
			blocks: []sdk.Block{para("Alpha beta gamma. Delta epsilon zeta eta."), para("theta iota kappa lambda")},
			max:    10, overlap: 5,
			wantSecond: "Delta epsilon zeta eta.\n\ntheta iota kappa lambda", wantOverlapOK: true,
		},
		{
			name:   "at a word start when no sentence starts within them",
			blocks: []sdk.Block{para("Alpha beta gamma delta epsilon zeta eta"), para("theta iota kappa lambda")},
			max:    10, overlap: 3,
			wantSecond: "epsilon zeta eta\n\ntheta iota kappa lambda", wantOverlapOK: true,
		},
		{
			name:   "inside a fenced code block at a line start, with the fence as prefix",
			blocks: []sdk.Block{para("Intro."), {Kind: sdk.KindCode, Text: code}, para("after the code block")},
			max:    12, overlap: 4,
			wantSecond: "```sh\nrun two b\n```\n\nafter the code block", wantPrefix: "```sh\n", wantOverlapOK: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: tc.max, OverlapTokens: tc.overlap}}
			chunks := chunkAndCheck(t, h, &sdk.Document{ID: "d", Blocks: tc.blocks})
			if len(chunks) != 2 {
				t.Fatalf("%d chunks %q, want 2", len(chunks), contexts(chunks))
			}
			c := chunks[1]
			if c.Content != tc.wantSecond {
				t.Errorf("second chunk %q, want %q", c.Content, tc.wantSecond)
			}
			if p, _ := c.Metadata[sdk.MetaPrefix].(string); p != tc.wantPrefix {
				t.Errorf("prefix %q, want %q", p, tc.wantPrefix)
			}
			if _, ok := c.Metadata[sdk.MetaOverlapBytes]; ok != tc.wantOverlapOK {
				t.Errorf("overlap_bytes present %v, want %v", ok, tc.wantOverlapOK)
			}
		})
	}
}

func TestBlocksOfLinesAreCutAtLineEnds(t *testing.T) {
	t.Parallel()
	var defs, wiki []string
	for i := range 6 {
		defs = append(defs, fmt.Sprintf("[pr-%d]: https://github.com/rust-lang/rust/pull/4000%d a b c", i, i))
		wiki = append(wiki, fmt.Sprintf("Paragraph %d runs on %s and ends here", i, words(100, "w"))) // 233 bytes
	}
	for _, tc := range []struct {
		name  string
		block sdk.Block
		max   int
	}{
		{"a run of link definitions", para(strings.Join(defs, "\n")), 12},
		{"a list with nested items", sdk.Block{Kind: sdk.KindList, Text: "- one two three\n  - four five six\n    - seven eight nine\n  - ten eleven twelve"}, 7},
		{"text with a paragraph on each line and no sentence ends", para(strings.Join(wiki, "\n")), 250},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: tc.max, OverlapTokens: chunkers.NoOverlap}}
			doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{tc.block}}
			chunks := chunkAndCheck(t, h, doc)
			if len(chunks) < 2 {
				t.Fatalf("%d chunks, want the block cut", len(chunks))
			}
			text := doc.Canonical().Text
			for _, c := range chunks[:len(chunks)-1] {
				if c.End < len(text) && !strings.HasPrefix(text[c.End:], "\n") {
					t.Errorf("chunk %d ends at byte %d before %q, not at a line end", c.Position, c.End, text[c.End:min(c.End+10, len(text))])
				}
			}
		})
	}
}

func TestReSplitSectionChunksKeepTheHeadingTree(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		heading(1, "Guide"), para(words(9, "abc")), heading(2, "Install"), para(words(9, "def")), heading(3, "Deep"), para(words(9, "ghi")),
	}}
	counter := skewed{} // counts one more than its boundaries say for texts over 20 bytes
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: 8, OverlapTokens: chunkers.NoOverlap}}
	chunks, err := h.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := conformance.CheckChunks(context.Background(), doc, req, chunks, conformance.OptionsFor(h, counter)); err != nil {
		t.Fatal(err)
	}
	byID := map[string]sdk.Chunk{}
	for _, c := range chunks {
		byID[c.ID] = c
		if c.ParentID == "" {
			if len(c.SectionPath) > 1 {
				t.Errorf("chunk %d in %q has no parent", c.Position, c.SectionPath)
			}
			continue
		}
		p := byID[c.ParentID].SectionPath
		if len(p) > len(c.SectionPath) || !slices.Equal(p, c.SectionPath[:len(p)]) {
			t.Errorf("chunk %d in %q has parent %s in %q, not an enclosing section", c.Position, c.SectionPath, c.ParentID, p)
		}
	}
}
