package doc2mark_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// TestSectionsChunksParsedDocumentsWithinTheRules runs chunkers.Sections on the document Parse
// makes of every hand-written and token case input, and holds the chunks to the conformance
// checks: budget, nothing lost, exact offsets, order, propagation.
func TestSectionsChunksParsedDocumentsWithinTheRules(t *testing.T) {
	t.Parallel()
	tk, err := tiktoken.New("cl100k_base", tiktoken.Fast)
	if err != nil {
		t.Fatal(err)
	}
	cases := readCases(t, filepath.Join("testdata", "cases.json"))
	cases = append(cases, readCases(t, filepath.Join("testdata", "tokens.json"))...)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			doc, err := doc2mark.Parse(tc.Input, doc2mark.Options{ID: tc.Name})
			if err != nil {
				t.Fatal(err)
			}
			for _, budget := range []int{16, 64} {
				s := &chunkers.Sections{Config: chunkers.Config{Counter: tk, MaxTokens: budget, OverlapTokens: budget / 4}}
				ctx := context.Background()
				req := conformance.Request()
				chunks, err := s.Chunk(ctx, req, doc)
				if err := conformance.CheckResult(ctx, doc, req, chunks, err, conformance.OptionsFor(s, tk)); err != nil {
					t.Errorf("budget %d: %v", budget, err)
				}
			}
		})
	}
}

// TestSectionsLinksParsedFootnotes checks that the footnote labels Parse sets reach Sections.
func TestSectionsLinksParsedFootnotes(t *testing.T) {
	t.Parallel()
	doc, err := doc2mark.Parse([]byte(`[
	  {"type": "text:normal", "content": "A claim [^src]."},
	  {"type": "text:footnote", "content": "[^src]: The source."}
	]`), doc2mark.Options{ID: "notes"})
	if err != nil {
		t.Fatal(err)
	}
	s := &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 50}}
	chunks, err := s.Chunk(context.Background(), sdk.Request{}, doc)
	if err != nil {
		t.Fatal(err)
	}
	// Sections either packs a footnote that fits with the chunk that references it, or lists
	// the footnote's chunks on that chunk.
	ref := chunks[0]
	if !strings.Contains(ref.Content, "[^src]: The source.") && ref.Metadata[chunkers.MetaFootnotes] == nil {
		t.Errorf("chunks %+v: want the footnote with the chunk that references it, or linked from it", chunks)
	}
}

// TestChunksCarryTheirItemRange chunks every case input and checks each chunk's
// Metadata[sdk.MetaItems]: the first and last json_content item whose block its range touches.
func TestChunksCarryTheirItemRange(t *testing.T) {
	t.Parallel()
	cases := readCases(t, filepath.Join("testdata", "cases.json"))
	checked := 0
	for _, tc := range cases {
		doc, err := doc2mark.Parse(tc.Input, doc2mark.Options{ID: tc.Name})
		if err != nil {
			t.Fatal(err)
		}
		canon := doc.Canonical()
		s := &chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 16}}
		chunks, err := s.Chunk(context.Background(), sdk.Request{}, doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunks {
			first, last := -1, -1
			for i, b := range doc.Blocks {
				if end := canon.Starts[i] + len(b.Text); end > c.Start && canon.Starts[i] < c.End {
					if first < 0 {
						first = i
					}
					last = i
				}
			}
			got, ok := c.Metadata[sdk.MetaItems].([2]int)
			if !ok || got != [2]int{first, last} {
				t.Errorf("%s: chunk %d [%d, %d) has items %v, want [%d %d]", tc.Name, c.Position, c.Start, c.End, c.Metadata[sdk.MetaItems], first, last)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no chunks checked")
	}
}
