package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// Output files written into Config.Out.
const (
	// BenchFile holds the results in the Go benchmark format.
	BenchFile = "bench.txt"
	// BenchstatFile holds `benchstat -col /strategy` of BenchFile.
	BenchstatFile = "benchstat.txt"
	// SummaryFile holds the summary table Run prints.
	SummaryFile = "summary.txt"
	// ReportFile is the HTML report.
	ReportFile = "report.html"
	// JSONFile holds the Report as JSON.
	JSONFile = "report.json"
)

// unit describes a custom unit and which direction is better: "higher", "lower", or "" for
// neither (chunk sizes are a choice, not a score). All of them are computed, not sampled, so
// they are declared assume=exact.
type unit struct {
	name   string
	better string
}

// Units of the BenchmarkChunk lines besides ns/op, MB/s, B/op and allocs/op; the retrieval
// units also appear on BenchmarkRetrieval lines.
var (
	chunkUnits = []unit{
		{"chunks/op", ""}, {"calls/doc", "lower"}, {"violations", "lower"},
		{"fill", "higher"}, {"tokens-p50", ""}, {"tokens-p95", ""},
		{"sentence-ends", "higher"}, {"multi-section", "lower"}, {"coverage", "higher"},
		{"tiny", "lower"}, {"mid-word", "lower"},
	}
	retrievalUnits = []unit{{"recall", "higher"}, {"precision", "higher"}, {"iou", "higher"}, {"precision_omega", "higher"}}
)

func scoreValues(s Scores) []float64 {
	return []float64{s.Recall, s.Precision, s.IoU, s.PrecisionOmega}
}

// WriteBenchmarks writes rep in the Go benchmark format: file configuration, unit metadata,
// then for each cell and sample one BenchmarkChunk line and, with retrieval scores, one
// BenchmarkRetrieval line per evaluation corpus.
func WriteBenchmarks(w io.Writer, rep *Report) error {
	bw := benchfmt.NewWriter(w)
	for _, u := range append(append([]unit(nil), chunkUnits...), retrievalUnits...) {
		mds := []benchfmt.UnitMetadata{{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.name, Key: "assume"}, OrigUnit: u.name, Value: "exact"}}
		if u.better != "" {
			mds = append(mds, benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.name, Key: "better"}, OrigUnit: u.name, Value: u.better})
		}
		for _, md := range mds {
			if err := bw.Write(&md); err != nil {
				return err
			}
		}
	}
	config := []benchfmt.Config{
		{Key: "goos", Value: []byte(runtime.GOOS), File: true},
		{Key: "goarch", Value: []byte(runtime.GOARCH), File: true},
		{Key: "pkg", Value: []byte("github.com/chunkkit/chunkkit/bench"), File: true},
		{Key: "corpus", Value: []byte(rep.Corpus), File: true},
		{Key: "documents", Value: []byte(strconv.Itoa(rep.Documents)), File: true},
		{Key: "corpus-bytes", Value: []byte(strconv.Itoa(rep.Bytes)), File: true},
	}
	if rep.Eval != "" {
		config = append(config,
			benchfmt.Config{Key: "eval", Value: []byte(rep.Eval), File: true},
			benchfmt.Config{Key: "questions", Value: []byte(strconv.Itoa(rep.Questions)), File: true},
			benchfmt.Config{Key: "k", Value: []byte(strconv.Itoa(rep.Config.K)), File: true})
	}
	procs := "-" + strconv.Itoa(runtime.GOMAXPROCS(0))
	for _, c := range rep.Cells {
		for _, s := range c.Samples {
			res := &benchfmt.Result{Config: config, Name: benchfmt.Name(c.Name() + procs), Iters: s.Iters}
			res.Values = []benchfmt.Value{
				{Value: s.NsPerOp, Unit: "ns/op"}, {Value: s.MBPerSec, Unit: "MB/s"},
				{Value: s.BytesPerOp, Unit: "B/op"}, {Value: s.AllocsPerOp, Unit: "allocs/op"},
			}
			q := c.Quality
			for i, v := range []float64{float64(c.ChunksPerOp), c.CallsPerDoc, float64(q.Violations), q.Fill,
				float64(q.TokensP50), float64(q.TokensP95), q.SentenceEnds, q.MultiSection, q.Coverage, q.Tiny, q.MidWord} {
				res.Values = append(res.Values, benchfmt.Value{Value: v, Unit: chunkUnits[i].name})
			}
			if c.Retrieval != nil {
				for i, v := range scoreValues(c.Retrieval.Overall) {
					res.Values = append(res.Values, benchfmt.Value{Value: v, Unit: retrievalUnits[i].name})
				}
			}
			if err := bw.Write(res); err != nil {
				return err
			}
			if c.Retrieval == nil {
				continue
			}
			for _, cs := range c.Retrieval.Corpora {
				name := strings.Replace(c.Name(), "Chunk/", "Retrieval/corpus="+cs.Corpus+"/", 1)
				r := &benchfmt.Result{Config: config, Name: benchfmt.Name(name + procs), Iters: 1}
				for i, v := range scoreValues(cs.Scores) {
					r.Values = append(r.Values, benchfmt.Value{Value: v, Unit: retrievalUnits[i].name})
				}
				if err := bw.Write(r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// summarize returns the center of values: the median for measured units, with its 95%
// confidence interval as a ± percentage (benchmath, as benchstat computes it).
func summarize(values []float64) (center float64, pm string) {
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(append([]float64(nil), values...), &benchmath.DefaultThresholds), 0.95)
	return s.Center, s.PctRangeString()
}

// WriteSummary writes one row per cell: throughput as a median ± its 95% confidence interval
// (benchmath), then the chunk and retrieval metrics.
func WriteSummary(w io.Writer, rep *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "strategy\ttokenizer\tvia\tmax\toverlap\tMB/s\t±\tallocs/op\tchunks\tcalls/doc\tviolations\tfill\tp50\tp95\tsent-end\tmulti-sec\tcoverage\ttiny\tmid-word\t"
	if rep.Eval != "" {
		head += "recall\tprecision\tiou\tprec_Ω\t"
	}
	fmt.Fprintln(tw, head)
	for _, c := range rep.Cells {
		var mbs, allocs []float64
		for _, s := range c.Samples {
			mbs = append(mbs, s.MBPerSec)
			allocs = append(allocs, s.AllocsPerOp)
		}
		mb, pm := summarize(mbs)
		al, _ := summarize(allocs)
		q := c.Quality
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.2f\t%s\t%.0f\t%d\t%.2f\t%d\t%.3f\t%d\t%d\t%.3f\t%.3f\t%.4f\t%.3f\t%.3f\t",
			c.Strategy, c.Tokenizer, c.Via, c.MaxTokens, c.OverlapTokens, mb, pm, al, c.ChunksPerOp, c.CallsPerDoc,
			q.Violations, q.Fill, q.TokensP50, q.TokensP95, q.SentenceEnds, q.MultiSection, q.Coverage, q.Tiny, q.MidWord)
		if c.Retrieval != nil {
			o := c.Retrieval.Overall
			fmt.Fprintf(tw, "%.3f\t%.4f\t%.4f\t%.4f\t", o.Recall, o.Precision, o.IoU, o.PrecisionOmega)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writePeers(w, rep); err != nil {
		return err
	}
	if rep.Eval == "" || len(rep.Cells) == 0 || rep.Cells[0].Retrieval == nil {
		return nil
	}
	fmt.Fprintf(w, "\nretrieval per corpus (k=%d, BM25; recall / iou):\n", rep.Config.K)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head = "strategy\ttokenizer\tvia\tmax\toverlap\t"
	for _, cs := range rep.Cells[0].Retrieval.Corpora {
		head += cs.Corpus + "\t"
	}
	fmt.Fprintln(tw, head)
	for _, c := range rep.Cells {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t", c.Strategy, c.Tokenizer, c.Via, c.MaxTokens, c.OverlapTokens)
		for _, cs := range c.Retrieval.Corpora {
			fmt.Fprintf(tw, "%.3f / %.4f\t", cs.Recall, cs.IoU)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// writeOutputs prints the summary to out and writes the output files into rep.Config.Out.
func writeOutputs(ctx context.Context, rep *Report, out io.Writer) error {
	var summary bytes.Buffer
	if err := WriteSummary(&summary, rep); err != nil {
		return err
	}
	if out != nil {
		if _, err := out.Write(summary.Bytes()); err != nil {
			return err
		}
	}
	dir := rep.Config.Out
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	var bench bytes.Buffer
	if err := WriteBenchmarks(&bench, rep); err != nil {
		return fmt.Errorf("bench: writing %s: %w", BenchFile, err)
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	var html bytes.Buffer
	if err := WriteHTML(&html, rep, summary.String()); err != nil {
		return fmt.Errorf("bench: writing %s: %w", ReportFile, err)
	}
	benchPath := filepath.Join(dir, BenchFile)
	files := []struct {
		name string
		data []byte
	}{{BenchFile, bench.Bytes()}, {SummaryFile, summary.Bytes()}, {JSONFile, js}, {ReportFile, html.Bytes()}}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		rep.Files = append(rep.Files, filepath.Join(dir, f.name))
	}
	stat := benchstat(ctx, benchPath)
	if err := os.WriteFile(filepath.Join(dir, BenchstatFile), stat, 0o644); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	rep.Files = append(rep.Files, filepath.Join(dir, BenchstatFile))
	return nil
}

// benchstat returns `go tool benchstat -col /strategy` of file, or, when the go command or the
// benchstat tool is not at hand (outside the chunkkit module), a note saying how to get it.
func benchstat(ctx context.Context, file string) []byte {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "tool", "benchstat", "-col", "/strategy", file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err == nil {
		return stdout.Bytes()
	} else {
		return fmt.Appendf(nil, "benchstat could not run here (%v: %s).\nIn the chunkkit module run:\n\n\tgo tool benchstat -col /strategy %s\n\nor install it (go install golang.org/x/perf/cmd/benchstat@latest) and run benchstat -col /strategy %s\n",
			err, strings.TrimSpace(stderr.String()), file, file)
	}
}

// writePeers writes the peers' scores beside the cells', overall and per corpus, with the
// ratio of the first cell's recall and IoU to the peer's.
func writePeers(w io.Writer, rep *Report) error {
	if len(rep.Peers) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\npeers, scored by the same retriever (k=%d, BM25); ratios are %s over the peer:\n", rep.Config.K, firstCellLabel(rep))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "peer\tchunks\tcorpus\trecall\tiou\tprecision\tprec_Ω\tours recall\tours iou\trecall ×\tiou ×\t")
	for _, p := range rep.Peers {
		rows := append([]CorpusScores{{Corpus: "all", Scores: p.Retrieval.Overall}}, p.Retrieval.Corpora...)
		for i, cs := range rows {
			ours, ok := firstCellScores(rep, cs.Corpus, i == 0)
			fmt.Fprintf(tw, "%s\t%d\t%s\t%.3f\t%.4f\t%.4f\t%.4f\t", p.Name, p.Chunks, cs.Corpus, cs.Recall, cs.IoU, cs.Precision, cs.PrecisionOmega)
			if ok {
				fmt.Fprintf(tw, "%.3f\t%.4f\t%s\t%s\t", ours.Recall, ours.IoU, times(ours.Recall, cs.Recall), times(ours.IoU, cs.IoU))
			}
			fmt.Fprintln(tw)
		}
	}
	return tw.Flush()
}

func firstCellLabel(rep *Report) string {
	if len(rep.Cells) == 0 || rep.Cells[0].Retrieval == nil {
		return "(no cell)"
	}
	return rep.Cells[0].Label()
}

// firstCellScores returns the first cell's scores overall or on one corpus.
func firstCellScores(rep *Report, corpus string, overall bool) (Scores, bool) {
	if len(rep.Cells) == 0 || rep.Cells[0].Retrieval == nil {
		return Scores{}, false
	}
	r := rep.Cells[0].Retrieval
	if overall {
		return r.Overall, true
	}
	for _, cs := range r.Corpora {
		if cs.Corpus == corpus {
			return cs.Scores, true
		}
	}
	return Scores{}, false
}

func times(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}
