package doc2mark_test

// The compatibility tests run three case files through ChunkContent and through Compat (the
// `chunkkit compat doc2mark` path) and compare with the expected chunks byte for byte,
// content_types as a set:
//
//   - ../shared/fixtures/doc2mark/chunk_content_cases.json: doc2mark's own outputs (skipped,
//     saying so, when ../shared is absent);
//   - testdata/cases.json: doc2mark-shaped cases written for chunkkit, their outputs worked out
//     by hand from doc2mark's rules (docs/reference/doc2mark.md) — they always run;
//   - testdata/tokens.json: token-mode cases whose outputs come from an independent
//     JavaScript twin of chunk_content with OpenAI's tiktoken. To regenerate it:
//
//	cd tools/doc2mark-golden && npm ci && node check.mjs && node generate.mjs
//
// (check.mjs holds the JavaScript twin to doc2mark's own outputs and to testdata/cases.json
// first.)

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

func TestChunkContentMatchesDoc2marksOwnOutputs(t *testing.T) {
	t.Parallel()
	runCases(t, readCases(t, filepath.Join(sharedDir(t), "chunk_content_cases.json")))
}

func TestChunkContentMatchesHandWrittenCases(t *testing.T) {
	t.Parallel()
	runCases(t, readCases(t, filepath.Join("testdata", "cases.json")))
}

func TestChunkContentMatchesTiktokenGoldens(t *testing.T) {
	t.Parallel()
	runCases(t, readCases(t, filepath.Join("testdata", "tokens.json")))
}

func runCases(t *testing.T, cases []fixtureCase) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			want := setTypes(tc.Want)
			if want == nil {
				want = []doc2mark.Chunk{}
			}
			items, err := doc2mark.ParseItems(tc.Input)
			if err != nil {
				t.Fatalf("ParseItems: %v", err)
			}
			cfg, err := doc2mark.ParseConfig(string(tc.Config))
			if err != nil {
				t.Fatalf("ParseConfig: %v", err)
			}
			var counter sdk.TokenCounter
			if cfg.Tokens() {
				if counter, err = tiktoken.New(cfg.EncodingName, tiktoken.Fast); err != nil {
					t.Fatal(err)
				}
			}
			got, err := doc2mark.ChunkContent(ctx, items, cfg, counter)
			if err != nil {
				t.Fatalf("ChunkContent: %v", err)
			}
			if diff := cmp.Diff(want, setTypes(got)); diff != "" {
				t.Errorf("ChunkContent (-want +got):\n%s", diff)
			}
			out, err := doc2mark.Compat(ctx, tc.Input, string(tc.Config), counters(t))
			if err != nil {
				t.Fatalf("Compat: %v", err)
			}
			var viaJSON []doc2mark.Chunk
			if err := json.Unmarshal(out, &viaJSON); err != nil {
				t.Fatalf("Compat output is not a JSON list of chunks: %v\n%s", err, out)
			}
			if diff := cmp.Diff(want, setTypes(viaJSON)); diff != "" {
				t.Errorf("Compat (-want +got):\n%s", diff)
			}
		})
	}
}
