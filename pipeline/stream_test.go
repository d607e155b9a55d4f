package pipeline_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// bigDoc returns a Markdown input of many level-1 sections, so that a HeadingAware with small
// windows makes its chunks in many bursts.
func bigDoc(id string, sections int) pipeline.Input {
	var sb strings.Builder
	for s := range sections {
		fmt.Fprintf(&sb, "# Section %d\n\n%s\n\n## Sub %d\n\n%s\n\n", s, strings.Repeat("alpha beta gamma. ", 20), s, strings.Repeat("delta epsilon. ", 15))
	}
	return pipeline.Input{ID: id, Format: pipeline.FormatMarkdown, Data: []byte(sb.String())}
}

// bigFlat returns an input of many paragraphs and no heading, in format f (Markdown or plain
// text), so that windows end between paragraphs only.
func bigFlat(id string, f pipeline.Format, paragraphs int) pipeline.Input {
	var sb strings.Builder
	for p := range paragraphs {
		fmt.Fprintf(&sb, "Paragraph %d: %s\n\n", p, strings.Repeat("alpha beta gamma. ", 1+p%20))
	}
	return pipeline.Input{ID: id, Format: f, Data: []byte(sb.String())}
}

// bigItems returns a doc2mark json_content input of many items under one title.
func bigItems(id string, items int) pipeline.Input {
	var sb strings.Builder
	sb.WriteString(`[{"type": "text:title", "content": "Items"}`)
	for i := range items {
		fmt.Fprintf(&sb, `, {"type": "text:normal", "content": "Item %d: %s"}`, i, strings.Repeat("alpha beta gamma. ", 1+i%20))
	}
	sb.WriteString("]")
	return pipeline.Input{ID: id, Format: pipeline.FormatDoc2mark, Data: []byte(sb.String())}
}

// TestRunStreamGivesTheSameChunksInParts holds Options.Stream to the chunks of a run without
// it: per document, its Results' chunks joined are the chunks of its one Result, in input
// order whatever the workers, every Result but the document's last is Partial and holds
// chunks, and a large document does come in several parts. The documents are Markdown (with
// and without headings), plain text and doc2mark, so they are parsed in parts too
// (pipeline.ParseParts, sdk.PartChunker), and their blocks, let go part by part, are tallied
// (BlockKinds) as in the run without Stream.
func TestRunStreamGivesTheSameChunksInParts(t *testing.T) {
	t.Parallel()
	ins := append(docs(20), bigDoc("big-a", 400), bigDoc("big-b", 300), bigFlat("big-flat.md", pipeline.FormatMarkdown, 600), bigFlat("big-flat.txt", pipeline.FormatText, 600), bigItems("big-items.json", 600))
	ins = append(ins, docs(5)...)
	for i := range ins[len(ins)-5:] {
		ins[len(ins)-5+i].ID += "-tail"
	}
	chunker := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 24}, WindowBytes: 4096}
	want := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: chunker, Workers: 1})
	for _, workers := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("with %d workers", workers), func(t *testing.T) {
			t.Parallel()
			got := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: chunker, Workers: workers, Stream: true})
			var joined []pipeline.Result
			parts := map[int]int{}
			for k, r := range got {
				if r.Partial {
					if len(r.Chunks) == 0 {
						t.Fatalf("result %d: a Partial Result without chunks", k)
					}
					if k+1 == len(got) || got[k+1].Index != r.Index {
						t.Fatalf("result %d: document %d ends on a Partial Result", k, r.Index)
					}
				}
				parts[r.Index]++
				if n := len(joined); n > 0 && joined[n-1].Index == r.Index && joined[n-1].Partial {
					last := &joined[n-1]
					last.Chunks = append(last.Chunks, r.Chunks...)
					last.Partial, last.Bytes, last.Err, last.BlockKinds = r.Partial, r.Bytes, r.Err, r.BlockKinds
					continue
				}
				joined = append(joined, r)
			}
			// A document parsed in parts (Markdown) went to the chunker a part at a time.
			if diff := cmp.Diff(want, joined, cmpopts.IgnoreFields(sdk.Document{}, "Blocks", "Source")); diff != "" {
				t.Fatalf("streamed chunks differ from the run without Stream (-want +got):\n%s", diff)
			}
			for i, in := range ins {
				if strings.HasPrefix(in.ID, "big-") && parts[i] < 3 {
					t.Errorf("document %s came in %d Results, want it streamed in several", in.ID, parts[i])
				}
			}
			// Markdown, plain text and doc2mark, headings or not, were parsed in parts:
			// their documents hold no blocks.
			for _, r := range got {
				if id := r.Input.ID; strings.HasPrefix(id, "big-") && !r.Partial && len(r.Document.Blocks) > 0 {
					t.Errorf("document %s was parsed whole (%d blocks), want it parsed in parts", id, len(r.Document.Blocks))
				}
			}
		})
	}
}

// TestRunStreamWithAChunkerThatDoesNotStream gives one Result per document.
func TestRunStreamWithAChunkerThatDoesNotStream(t *testing.T) {
	t.Parallel()
	ins := append(docs(3), bigDoc("big", 200))
	chunker := struct{ sdk.Chunker }{&chunkers.Sections{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 24}}} // only sdk.Chunker: it does not stream
	want := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: chunker, Workers: 2})
	got := collect(t, context.Background(), seq(ins), pipeline.Options{Chunker: chunker, Workers: 2, Stream: true})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}
