package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// TestRunQuickEndToEnd runs the quick matrix on the shipped corpus and reads the benchmark
// file back with benchfmt.
func TestRunQuickEndToEnd(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var summary, progress bytes.Buffer
	rep, err := Run(context.Background(), Config{Corpus: "corpus", Out: out, Quick: true, Count: 1}, &summary, &progress)
	if err != nil {
		t.Fatal(err)
	}
	// words and inproc tiktoken × (noop + fixed ×2 + heading ×2 + sections ×2) at max 256.
	if len(rep.Cells) != 14 {
		t.Errorf("quick run has %d cells, want 14", len(rep.Cells))
	}
	if rep.Questions < 30 {
		t.Errorf("quick run scored %d questions, want the shipped set's", rep.Questions)
	}
	for _, c := range rep.Cells {
		if c.Strategy != "noop" && c.Quality.Violations != 0 {
			t.Errorf("%s: %d budget violations, want 0", c.Name(), c.Quality.Violations)
		}
		if c.Quality.Coverage < 0.999 {
			t.Errorf("%s: coverage %.4f, want every non-space byte", c.Name(), c.Quality.Coverage)
		}
		if c.Retrieval == nil || c.Retrieval.Overall.Recall <= 0 {
			t.Errorf("%s: retrieval %+v, want some recall", c.Name(), c.Retrieval)
		}
	}
	if !strings.Contains(summary.String(), "recall") || !strings.Contains(progress.String(), "14/14") {
		t.Errorf("summary or progress incomplete:\n%s\n%s", summary.String(), progress.String())
	}

	f, err := os.Open(filepath.Join(out, BenchFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := benchfmt.NewReader(f, BenchFile)
	chunkLines, retrievalLines, exact := 0, 0, 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("%s", rec)
		case *benchfmt.UnitMetadata:
			if rec.Key == "assume" && rec.Value == "exact" {
				exact++
			}
		case *benchfmt.Result:
			base, parts := rec.Name.Parts()
			keys := map[string]string{}
			for _, p := range parts {
				k, v, _ := strings.Cut(strings.TrimPrefix(string(p), "/"), "=")
				keys[k] = v
			}
			switch string(base) {
			case "Chunk":
				chunkLines++
				for _, k := range []string{"strategy", "tokenizer", "via", "max", "overlap"} {
					if keys[k] == "" {
						t.Errorf("%s: no configuration key %s", rec.Name, k)
					}
				}
				for _, unit := range []string{"sec/op", "B/s", "allocs/op", "recall", "precision", "iou", "precision_omega", "violations", "calls/doc", "fill", "coverage"} {
					if _, ok := rec.Value(unit); !ok {
						t.Errorf("%s: no %s", rec.Name, unit)
					}
				}
			case "Retrieval":
				retrievalLines++
				if keys["corpus"] == "" {
					t.Errorf("%s: no corpus key", rec.Name)
				}
			default:
				t.Errorf("unexpected benchmark %s", rec.Name)
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if chunkLines != len(rep.Cells) || retrievalLines != len(rep.Cells)*13 {
		t.Errorf("read %d Chunk and %d Retrieval lines, want %d and %d", chunkLines, retrievalLines, len(rep.Cells), len(rep.Cells)*13)
	}
	if exact != len(chunkUnits)+len(retrievalUnits) {
		t.Errorf("%d units assumed exact, want %d", exact, len(chunkUnits)+len(retrievalUnits))
	}
	html, err := os.ReadFile(filepath.Join(out, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(html, []byte("<svg")); n < 3 {
		t.Errorf("report has %d plots, want at least 3", n)
	}
	for _, name := range []string{BenchstatFile, SummaryFile, JSONFile} {
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v, want a file with content", name, err)
		}
	}
}

func TestRunResolvesPluginSpecsThroughResolve(t *testing.T) {
	t.Parallel()
	var asked []string
	cfg := Config{
		Corpus:     filepath.Join("corpus", CorporaDir),
		Quick:      true,
		Count:      1,
		Strategies: []string{"heading"},
		Tokenizers: []string{"plugin:fake"},
		Overlaps:   []float64{0},
		Resolve: func(_ context.Context, spec string) (sdk.TokenCounter, error) {
			asked = append(asked, spec)
			return sdk.Words{}, nil
		},
	}
	rep, err := Run(context.Background(), cfg, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || len(rep.Cells) != 1 || rep.Cells[0].Via != "plugin" || rep.Cells[0].Tokenizer != "plugin:fake" {
		t.Errorf("asked %q, cells %+v; want one plugin cell for plugin:fake", asked, rep.Cells)
	}
	if rep.Eval != "" || rep.Cells[0].Retrieval != nil {
		t.Errorf("a folder of documents alone was scored for retrieval against %q", rep.Eval)
	}
	if rep.Cells[0].CallsPerDoc > 3 {
		t.Errorf("heading chunker made %.1f calls per document, want at most 3", rep.Cells[0].CallsPerDoc)
	}
}

func TestRunConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"no corpus is a configuration error", Config{}, sdk.ErrInvalidConfig},
		{"an unknown strategy is a configuration error", Config{Corpus: "corpus", Strategies: []string{"magic"}}, sdk.ErrInvalidConfig},
		{"a plugin spec without a host is a configuration error", Config{Corpus: "corpus", Tokenizers: []string{"tiktoken:cl100k_base"}}, sdk.ErrInvalidConfig},
		{"an overlap of the whole budget is a configuration error", Config{Corpus: "corpus", Overlaps: []float64{1}}, sdk.ErrInvalidConfig},
		{"a corpus folder that does not exist is an error", Config{Corpus: "no-such-folder", Tokenizers: []string{"words"}}, os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Run(context.Background(), tt.cfg, io.Discard, nil)
			if !errors.Is(err, tt.want) {
				t.Errorf("Run = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestRunStopsWhenTheContextIsDone(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Config{Corpus: "corpus", Quick: true}, io.Discard, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
}

func TestRunSkipsDefaultPluginTokenizersItCannotStart(t *testing.T) {
	t.Parallel()
	noPlugins := func(_ context.Context, spec string) (sdk.TokenCounter, error) {
		return nil, fmt.Errorf("no plugin for %s: %w", spec, sdk.ErrUnsupported)
	}
	cfg := Config{Corpus: "corpus", Strategies: []string{"heading"}, Budgets: []int{128}, Overlaps: []float64{0}, Count: 1, BenchTime: -1, Resolve: noPlugins}
	var progress bytes.Buffer
	rep, err := Run(context.Background(), cfg, io.Discard, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cells) != 2 || !strings.Contains(progress.String(), "skipping tokenizer tiktoken:cl100k_base@reference") {
		t.Errorf("%d cells, progress %q; want the two in-process ones and a note for each plugin", len(rep.Cells), progress.String())
	}
	cfg.Tokenizers = []string{"tiktoken:cl100k_base"}
	if _, err := Run(context.Background(), cfg, io.Discard, nil); !errors.Is(err, sdk.ErrUnsupported) {
		t.Errorf("Run with a plugin asked for = %v, want the resolver's error", err)
	}
}

// TestRunWithoutOverlapZeroWritesTheReport is a run whose cells all have overlap, so the
// throughput-without-overlap plot has nothing to draw: the report leaves it out instead of
// panicking on an empty log scale.
func TestRunWithoutOverlapZeroWritesTheReport(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	cfg := Config{Corpus: "corpus", Out: out, Strategies: []string{"heading"}, Tokenizers: []string{"words"},
		Budgets: []int{128}, Overlaps: []float64{0.25}, Count: 1, BenchTime: -1}
	if _, err := Run(context.Background(), cfg, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(out, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "Throughput vs budget") || !strings.Contains(string(html), "recall") {
		t.Errorf("report.html: want no throughput plot and the retrieval figures")
	}
}
