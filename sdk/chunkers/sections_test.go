package chunkers_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func footnote(text string) sdk.Block { return sdk.Block{Kind: sdk.KindFootnote, Text: text} }

// sectionOutline renders chunks as "position parent [section path]: content" lines.
func sectionOutline(chunks []sdk.Chunk) []string {
	pos := map[string]int{}
	var out []string
	for _, c := range chunks {
		pos[c.ID] = c.Position
		parent := "-"
		if c.ParentID != "" {
			parent = fmt.Sprint(pos[c.ParentID])
		}
		out = append(out, fmt.Sprintf("%d %s [%s]: %s", c.Position, parent, strings.Join(c.SectionPath, " > "), c.Content))
	}
	return out
}

// footnoteMeta is what a chunk records of footnotes: its label, its parent and the chunks it
// lists.
type footnoteMeta struct {
	Label, Parent string
	Notes         any
}

func footnoteMetas(chunks []sdk.Chunk) []footnoteMeta {
	var metas []footnoteMeta
	for _, c := range chunks {
		label, _ := c.Metadata[chunkers.MetaFootnoteLabel].(string)
		metas = append(metas, footnoteMeta{label, c.ParentID, c.Metadata[chunkers.MetaFootnotes]})
	}
	return metas
}

// chunkSections runs s on doc, checks every conformance invariant on the result and fails the
// test on an error.
func chunkSections(t *testing.T, s *chunkers.Sections, doc *sdk.Document) []sdk.Chunk {
	t.Helper()
	got, err := s.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := conformance.CheckChunks(context.Background(), doc, req, got, conformance.OptionsFor(s, s.Counter)); err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		if c.Kind != sdk.ChunkBody {
			t.Errorf("chunk %d is a %s chunk, want body", c.Position, c.Kind)
		}
	}
	return got
}

func TestSectionsOutlines(t *testing.T) {
	t.Parallel()
	guide := &sdk.Document{ID: "d", Blocks: []sdk.Block{
		para("Preface text."),
		heading(1, "Guide"),
		para("Intro."),
		heading(2, "Install"),
		para("Run it."),
		heading(3, "Deep"),
		para("Deep text."),
		heading(2, "Use"),
		para("Use text."),
	}}
	table := "| k | v |\n|---|---|\n| a | 1 |\n| b | 2 |\n| c | 3 |"
	for _, tc := range []struct {
		name string
		s    chunkers.Sections
		doc  *sdk.Document
		want []string
	}{
		{
			name: "a section that fits is one chunk whose first line is its heading, and deeper headings are body text",
			s:    chunkers.Sections{},
			doc:  guide,
			want: []string{
				"0 - []: Preface text.",
				"1 - [Guide]: Guide\n\nIntro.",
				"2 - [Guide > Install]: Install\n\nRun it.\n\nDeep\n\nDeep text.",
				"3 - [Guide > Use]: Use\n\nUse text.",
			},
		},
		{
			name: "an h3 nests under the h2 before it at split level 3",
			s:    chunkers.Sections{Config: chunkers.Config{}, SplitLevel: 3},
			doc:  guide,
			want: []string{
				"0 - []: Preface text.",
				"1 - [Guide]: Guide\n\nIntro.",
				"2 - [Guide > Install]: Install\n\nRun it.",
				"3 - [Guide > Install > Deep]: Deep\n\nDeep text.",
				"4 - [Guide > Use]: Use\n\nUse text.",
			},
		},
		{
			name: "split level 1 starts sections at h1 only",
			s:    chunkers.Sections{Config: chunkers.Config{}, SplitLevel: 1},
			doc:  guide,
			want: []string{
				"0 - []: Preface text.",
				"1 - [Guide]: Guide\n\nIntro.\n\nInstall\n\nRun it.\n\nDeep\n\nDeep text.\n\nUse\n\nUse text.",
			},
		},
		{
			name: "NoSplit makes the document one untitled section",
			s:    chunkers.Sections{Config: chunkers.Config{}, SplitLevel: chunkers.NoSplit},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "A"), para("a"), heading(2, "B"), para("b")}},
			want: []string{"0 - []: A\n\na\n\nB\n\nb"},
		},
		{
			name: "sibling sections do not nest and the untitled section is no one's ancestor",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				para("Before."), heading(2, "A"), para("a"), heading(2, "B"), para("b"), heading(1, "C"), heading(2, "D"),
			}},
			want: []string{
				"0 - []: Before.",
				"1 - [A]: A\n\na",
				"2 - [B]: B\n\nb",
				"3 - [C > D]: C\n\nD",
			},
		},
		{
			name: "a skipped level nests under the nearest lower level",
			s:    chunkers.Sections{Config: chunkers.Config{}, SplitLevel: 3},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "A"), heading(3, "C"), para("c"), heading(2, "B"), para("b")}},
			want: []string{"0 - [A > C]: A\n\nC\n\nc", "1 - [A > B]: B\n\nb"}, // A has no text of its own: it travels with C's
		},
		{
			name: "blank headings and blank blocks start nothing and make nothing",
			s:    chunkers.Sections{},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "A"), para(" "), heading(2, "  "), para("a")}},
			want: []string{"0 - [A]: A\n\n \n\n  \n\na"}, // the canonical text, blank blocks included
		},
		{
			name: "a section over budget is packed block by block",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 8, OverlapTokens: chunkers.NoOverlap, Context: chunkers.ContextNone}},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "H"), para(words(4, "a")), para(words(4, "b")), para(words(4, "c"))}},
			want: []string{
				"0 - [H]: H\n\na a a a",
				"1 - [H]: b b b b\n\nc c c c",
			},
		},
		{
			name: "the context's tokens count against the budget",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 8, OverlapTokens: chunkers.NoOverlap}},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "H"), para(words(4, "a")), para(words(4, "b")), para(words(4, "c"))}},
			want: []string{
				"0 - [H]: H\n\na a a a",
				"1 - [H]: b b b b",
				"2 - [H]: c c c c",
			},
		},
		{
			name: "overlap is taken from the previous chunk's own text, within a section only",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 10, OverlapTokens: 4}},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				heading(1, "H"), para("w1 w2 w3 w4 w5 w6 w7 w8"), para("x1 x2"), para("y1 y2 y3 y4 y5"),
				heading(1, "K"), para("z1 z2"),
			}},
			want: []string{
				"0 - [H]: H\n\nw1 w2 w3 w4 w5 w6 w7 w8",
				"1 - [H]: w5 w6 w7 w8\n\nx1 x2",
				"2 - [H]: x1 x2\n\ny1 y2 y3 y4 y5", // not "w7 w8\n\nx1 x2\n\ny1 ...": no cascade
				"3 - [K]: K\n\nz1 z2",
			},
		},
		{
			name: "an oversized paragraph is split at sentences, then at tokens",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 7, OverlapTokens: chunkers.NoOverlap}},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{para("One two three. Four five six. Seven eight nine. " + words(30, "z") + ".")}},
			want: []string{
				"0 - []: One two three. Four five six.",
				"1 - []: Seven eight nine. z z z z",
				"2 - []: z z z z z z z",
				"3 - []: z z z z z z z",
				"4 - []: z z z z z z z",
				"5 - []: z z z z z.",
			},
		},
		{
			name: "a table over budget is split at rows with its header repeated",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 16, OverlapTokens: chunkers.NoOverlap}},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(2, "T"), {Kind: sdk.KindTable, Text: table}}},
			want: []string{
				"0 - [T]: T\n\n| k | v |\n|---|---|\n| a | 1 |",
				"1 - [T]: | k | v |\n|---|---|\n| b | 2 |",
				"2 - [T]: | k | v |\n|---|---|\n| c | 3 |",
			},
		},
		{
			name: "KeepTablesWhole keeps a table over budget whole in a chunk of its own",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 14, OverlapTokens: chunkers.NoOverlap, KeepTablesWhole: true}},
			doc:  &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(2, "T"), {Kind: sdk.KindTable, Text: table}, para("after")}},
			want: []string{"0 - [T]: T", "1 - [T]: " + table, "2 - [T]: after"},
		},
		{
			name: "a footnote joins the chunk that references it when it fits, as doc2mark attaches it",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				para("Some text with a reference [^1] here."), footnote("[^1]: This is the footnote definition."), para("More."),
			}},
			want: []string{"0 - []: Some text with a reference [^1] here.\n\n[^1]: This is the footnote definition.\n\nMore."},
		},
		{
			name: "a footnote the chunk being packed does not reference is a chunk of its own, parented to the first chunk that does",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				heading(1, "T"), para("Body [^1] here."), heading(1, "U"), para("More."), footnote("[^1]: The note."),
			}},
			want: []string{
				"0 - [T]: T\n\nBody [^1] here.",
				"1 - [U]: U\n\nMore.",
				"2 0 [T]: [^1]: The note.",
			},
		},
		{
			name: "a footnote that does not fit beside its reference is a chunk of its own and stops overlap",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 6, OverlapTokens: 2}},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				heading(1, "T"), para("a [^n] b"), footnote("[^n]: note one two"), para("c d"),
			}},
			want: []string{"0 - [T]: T\n\na [^n] b", "1 0 [T]: [^n]: note one two", "2 - [T]: c d"},
		},
		{
			name: "a footnote before its first reference keeps its place and has no parent",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				heading(1, "Notes"), footnote("[^x]: early"), heading(1, "Body"), para("see [^x]"),
			}},
			want: []string{"0 - [Notes]: Notes", "1 - [Body]: [^x]: early", "2 - [Body]: Body\n\nsee [^x]"},
		},
		{
			name: "an unreferenced or unlabelled footnote is still a chunk, never lost",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				para("text [^2]: is a definition, not a reference"), footnote("[^2]: orphan"), footnote("* a note without a label"),
			}},
			want: []string{
				"0 - []: text [^2]: is a definition, not a reference",
				"1 - []: [^2]: orphan",
				"2 - []: * a note without a label",
			},
		},
		{
			name: "a footnote label comes from the block's attributes",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				heading(1, "T"), para("Claim.[^a]"), {Kind: sdk.KindFootnote, Text: "a. Source.", Attrs: map[string]any{chunkers.AttrFootnoteLabel: "a"}},
			}},
			want: []string{"0 - [T]: T\n\nClaim.[^a]\n\na. Source."},
		},
		{
			name: "an oversized footnote is split within the budget and every part is linked",
			s:    chunkers.Sections{Config: chunkers.Config{MaxTokens: 4, OverlapTokens: chunkers.NoOverlap}},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				para("ref [^1]"), footnote("[^1]: one two three four five six"),
			}},
			want: []string{"0 - []: ref [^1]", "1 0 []: [^1]: one two three", "2 0 []: four five six"},
		},
		{
			name: "a reference goes to the first footnote with its label, as goldmark links it; a later one keeps its own section",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				heading(1, "A"), para("see [^1]"), heading(1, "B"), footnote("[^1]: first"), heading(1, "C"), footnote("[^1]: again"),
			}},
			want: []string{"0 - [A]: A\n\nsee [^1]", "1 - [B]: B", "2 0 [A]: [^1]: first", "3 - [C]: C", "4 - [C]: [^1]: again"},
		},
		{
			name: "a footnote reference in code is no reference",
			s:    chunkers.Sections{},
			doc: &sdk.Document{ID: "d", Blocks: []sdk.Block{
				heading(1, "A"), {Kind: sdk.KindCode, Text: "```\ngrep '[^1]' x\n```"}, para("match `[^1]` or ``a ` [^1]``, not [^1"),
				heading(1, "B"), footnote("[^1]: note"),
			}},
			want: []string{"0 - [A]: A\n\n```\ngrep '[^1]' x\n```\n\nmatch `[^1]` or ``a ` [^1]``, not [^1", "1 - [B]: B", "2 - [B]: [^1]: note"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.s.Counter = sdk.Words{}
			got := chunkSections(t, &tc.s, tc.doc)
			if diff := cmp.Diff(tc.want, sectionOutline(got)); diff != "" {
				t.Errorf("chunks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSectionsMetadata(t *testing.T) {
	t.Parallel()
	t.Run("overlap bytes count the repeated text of the previous chunk", func(t *testing.T) {
		doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
			heading(1, "H"), para("w1 w2 w3 w4 w5 w6 w7 w8"), para("x1 x2"), para("y1 y2 y3 y4 y5"),
		}}
		got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 10, OverlapTokens: 4}}, doc)
		var overlaps []any
		for _, c := range got {
			overlaps = append(overlaps, c.Metadata[sdk.MetaOverlapBytes])
		}
		if diff := cmp.Diff([]any{nil, len("w5 w6 w7 w8"), len("x1 x2")}, overlaps); diff != "" {
			t.Errorf("overlap bytes (-want +got):\n%s", diff)
		}
	})
	t.Run("footnote chunks carry their label and the referencing chunk lists them", func(t *testing.T) {
		doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
			para("a[^1] b[^2]"), footnote("[^1]: one"), footnote("[^2]: two"), footnote("[^3]: three"),
		}}
		got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 3, OverlapTokens: chunkers.NoOverlap}}, doc)
		want := []footnoteMeta{
			{"", "", []string{"d#1", "d#2"}},
			{"1", "d#0", nil},
			{"2", "d#0", nil},
			{"3", "", nil},
		}
		if diff := cmp.Diff(want, footnoteMetas(got)); diff != "" {
			t.Errorf("footnote metadata (-want +got):\n%s", diff)
		}
	})
	t.Run("the first chunk that references a footnote lists the later chunk that holds it", func(t *testing.T) {
		doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
			heading(1, "A"), para("see [^1]"), heading(1, "B"), para("again [^1]"), footnote("[^1]: n"),
		}}
		got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}}}, doc)
		if diff := cmp.Diff([]string{"0 - [A]: A\n\nsee [^1]", "1 - [B]: B\n\nagain [^1]\n\n[^1]: n"}, sectionOutline(got)); diff != "" {
			t.Fatalf("chunks (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"d#1"}, got[0].Metadata[chunkers.MetaFootnotes]); diff != "" {
			t.Errorf("footnotes of chunk 0 (-want +got):\n%s", diff)
		}
		if _, ok := got[1].Metadata[chunkers.MetaFootnotes]; ok {
			t.Errorf("chunk 1 lists footnotes %v; it holds its own", got[1].Metadata[chunkers.MetaFootnotes])
		}
	})
	t.Run("only the first footnote with a label is listed, and a later one only carries its label", func(t *testing.T) {
		doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
			heading(1, "A"), para("a [^1] and [^2]"), heading(1, "B"), footnote("[^2]: two"), footnote("[^1]: one"),
			heading(1, "C"), para("again [^1]"), footnote("[^1]: one more"),
		}}
		got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 5, OverlapTokens: chunkers.NoOverlap}}, doc)
		want := []footnoteMeta{
			{"", "", []string{"d#2", "d#3"}}, // A: a [^1] and [^2]
			{"", "", nil},                    // B
			{"2", "d#0", nil},                // [^2]: two
			{"1", "d#0", nil},                // [^1]: one
			{"", "", nil},                    // C: again [^1]
			{"1", "", nil},                   // [^1]: one more: not the first with its label
		}
		if diff := cmp.Diff(want, footnoteMetas(got)); diff != "" {
			t.Errorf("footnote metadata (-want +got):\n%s", diff)
		}
	})
	t.Run("KeepTablesWhole marks the table's chunk over budget", func(t *testing.T) {
		doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{{Kind: sdk.KindTable, Text: "| k |\n|---|\n| a b c d e f g h |"}}}
		got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 4, OverlapTokens: chunkers.NoOverlap, KeepTablesWhole: true}}, doc)
		if len(got) != 1 || got[0].Metadata[sdk.MetaOverBudget] != true || got[0].TokenCount <= 4 {
			t.Errorf("got %q, metadata %v", sectionOutline(got), got[0].Metadata)
		}
	})
	t.Run("a later part of a split table records the repeated header as its prefix", func(t *testing.T) {
		doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{{Kind: sdk.KindTable, Text: "| k | v |\n|---|---|\n| a | 1 |\n| b | 2 |\n| c | 3 |"}}}
		got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 16, OverlapTokens: chunkers.NoOverlap}}, doc)
		if len(got) != 3 || got[1].Metadata[sdk.MetaPrefix] != "| k | v |\n|---|---|\n" {
			t.Errorf("got %q, second prefix %q", sectionOutline(got), got[len(got)-1].Metadata[sdk.MetaPrefix])
		}
	})
	t.Run("pages and content types span the blocks of the chunk", func(t *testing.T) {
		onPage := func(p int, b sdk.Block) sdk.Block { b.Page = p; return b }
		doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{
			onPage(1, heading(1, "H")), onPage(2, para("p")), {Kind: sdk.KindList, Text: "- l"}, onPage(3, heading(1, "K")), {Kind: sdk.KindCaption, Text: "c"},
		}}
		got := chunkSections(t, &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}}}, doc)
		type span struct {
			Start, End int
			Types      []string
			Title      string
		}
		var spans []span
		for _, c := range got {
			spans = append(spans, span{c.PageStart, c.PageEnd, c.ContentTypes, c.SectionTitle})
		}
		want := []span{{1, 2, []string{"heading", "list", "paragraph"}, "H"}, {3, 3, []string{"caption", "heading"}, "K"}}
		if diff := cmp.Diff(want, spans); diff != "" {
			t.Errorf("spans (-want +got):\n%s", diff)
		}
	})
}

func TestSectionsMakesConstantCounterCalls(t *testing.T) {
	t.Parallel()
	var blocks []sdk.Block
	for i := range 200 {
		blocks = append(blocks, heading(1+i%3, fmt.Sprintf("Section %d", i)))
		blocks = append(blocks, para(words(100+i, "word")+". "+words(50, "more")+" [^"+fmt.Sprint(i)+"]."))
		blocks = append(blocks, footnote(fmt.Sprintf("[^%d]: note %d", i, i)))
	}
	doc := &sdk.Document{ID: "d", Blocks: blocks}
	longestBlock := 0
	for _, b := range blocks {
		longestBlock = max(longestBlock, len(b.Text))
	}
	rec := &sdk.Recorder{Counter: sdk.Words{}}
	if _, err := (&chunkers.Sections{Config: chunkers.Config{Counter: rec, MaxTokens: 64}}).Chunk(context.Background(), req, doc); err != nil {
		t.Fatal(err)
	}
	st := rec.Stats()
	if st.BoundariesCalls != 1 || st.CountCalls != 1 {
		t.Errorf("calls: %d Boundaries, %d Count; want 1 and 1", st.BoundariesCalls, st.CountCalls)
	}
	if st.LongestText > longestBlock {
		t.Errorf("longest text sent: %d bytes, longer than the longest block (%d)", st.LongestText, longestBlock)
	}
}

func TestSectionsResplitsAChunkThatFailsVerification(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{heading(1, "H"), para(words(40, "abc"))}}
	rec := &sdk.Recorder{Counter: skewed{}}
	s := &chunkers.Sections{Config: chunkers.Config{Counter: rec, MaxTokens: 8, OverlapTokens: 2}}
	got, err := s.Chunk(context.Background(), req, doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := conformance.CheckChunks(context.Background(), doc, req, got, conformance.OptionsFor(s, skewed{})); err != nil {
		t.Error(err)
	}
	if st := rec.Stats(); st.CountCalls < 2 {
		t.Errorf("Count calls = %d; a failed verification should cost a second call", st.CountCalls)
	}
}

func TestSectionsRejectsBadInputAndConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		s    *chunkers.Sections
		doc  *sdk.Document
		want error
	}{
		{"invalid UTF-8 is invalid input", &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}}},
			&sdk.Document{Blocks: []sdk.Block{para("fine"), footnote("bad \xff byte")}}, sdk.ErrInvalidInput},
		{"a heading of level 0 is invalid input", &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}}},
			&sdk.Document{Blocks: []sdk.Block{heading(0, "x")}}, sdk.ErrInvalidInput},
		{"overlap at the budget is a config error", &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 8, OverlapTokens: 8}}, &sdk.Document{}, sdk.ErrInvalidConfig},
		{"a negative budget is a config error", &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: -1}}, &sdk.Document{}, sdk.ErrInvalidConfig},
		{"a missing counter is a config error", &chunkers.Sections{}, &sdk.Document{}, sdk.ErrInvalidConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.s.Chunk(context.Background(), req, tc.doc)
			if !errors.Is(err, tc.want) || got != nil {
				t.Errorf("got %d chunks, err %v; want no chunks and %v", len(got), err, tc.want)
			}
		})
	}
}

func TestSectionsBudget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name             string
		s                chunkers.Sections
		wantMax, wantOvl int
	}{
		{"the zero value means 512 and 64", chunkers.Sections{}, 512, 64},
		{"the default overlap is at most a quarter of the budget", chunkers.Sections{Config: chunkers.Config{MaxTokens: 16}}, 16, 4},
		{"NoOverlap means none", chunkers.Sections{Config: chunkers.Config{MaxTokens: 16, OverlapTokens: chunkers.NoOverlap}}, 16, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if m, o := tc.s.Budget(); m != tc.wantMax || o != tc.wantOvl {
				t.Errorf("Budget() = %d, %d; want %d, %d", m, o, tc.wantMax, tc.wantOvl)
			}
		})
	}
}

func ExampleSections() {
	src := []byte("# Guide\n\nChunkers cut documents.[^1]\n\n## Install\n\nRun go get.\n\n### From source\n\nClone it.\n")
	doc, err := markdown.Parse(src, markdown.Options{ID: "guide.md"})
	if err != nil {
		log.Fatal(err)
	}
	doc.Blocks = append(doc.Blocks, sdk.Block{Kind: sdk.KindFootnote, Text: "[^1]: Into chunks."})
	chunker := &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 64}}
	chunks, err := chunker.Chunk(context.Background(), sdk.Request{}, doc)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range chunks {
		fmt.Printf("%s parent=%-12q %q %q\n", c.ID, c.ParentID, c.SectionPath, c.Content)
	}
	// Output:
	// guide.md#0 parent=""           ["Guide"] "Guide\n\nChunkers cut documents.[^1]"
	// guide.md#1 parent=""           ["Guide" "Install"] "Install\n\nRun go get.\n\nFrom source\n\nClone it."
	// guide.md#2 parent="guide.md#0" ["Guide"] "[^1]: Into chunks."
}
