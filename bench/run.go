package bench

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/chunkkit/chunkkit/sdk"
)

// Report is what Run measured.
type Report struct {
	// Config is the configuration run, defaults filled in (functions left out of JSON).
	Config Config `json:"-"`
	// Corpus and Eval are the folders read; Eval is empty without an evaluation set.
	Corpus string `json:"corpus"`
	Eval   string `json:"eval,omitempty"`
	// Documents and Bytes are the number of documents in the corpus and the size of their
	// files: one operation chunks them all.
	Documents int `json:"documents"`
	Bytes     int `json:"bytes"`
	// Questions is the number of questions of the evaluation set.
	Questions int `json:"questions,omitempty"`
	// Cells are the cells of the matrix in run order.
	Cells []*Cell `json:"cells"`
	// Peers are the scores of Config.Peers, in order.
	Peers []*PeerResult `json:"peers,omitempty"`
	// Files are the files written into Config.Out.
	Files []string `json:"files,omitempty"`
}

// Cell is one strategy × tokenizer × budget × overlap and what was measured for it.
type Cell struct {
	Strategy      string `json:"strategy"`
	Tokenizer     string `json:"tokenizer"`
	Via           string `json:"via"`
	MaxTokens     int    `json:"max_tokens"`
	OverlapTokens int    `json:"overlap_tokens"`
	// Samples are the Count measurements.
	Samples []Sample `json:"samples"`
	// ChunksPerOp is the number of chunks of one pass over the corpus.
	ChunksPerOp int `json:"chunks_per_op"`
	// CallsPerDoc is the number of Count and Boundaries calls per document.
	CallsPerDoc float64 `json:"calls_per_doc"`
	// Quality describes the chunks.
	Quality Quality `json:"quality"`
	// Retrieval holds the retrieval scores; nil without an evaluation set.
	Retrieval *Retrieval `json:"retrieval,omitempty"`
}

// Sample is one measurement of a cell: Iters passes over the corpus.
type Sample struct {
	Iters       int     `json:"iters"`
	NsPerOp     float64 `json:"ns_per_op"`
	MBPerSec    float64 `json:"mb_per_sec"`
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
}

// Retrieval holds a cell's retrieval scores, overall and per corpus.
type Retrieval struct {
	Overall Scores         `json:"overall"`
	Corpora []CorpusScores `json:"corpora"`
}

// CorpusScores are the mean scores of the questions about one corpus.
type CorpusScores struct {
	Corpus string `json:"corpus"`
	Scores
}

// Name returns the cell's benchmark name without the "Benchmark" prefix and GOMAXPROCS
// suffix: "Chunk/strategy=heading/tokenizer=words/via=inproc/max=256/overlap=64".
func (c *Cell) Name() string {
	return fmt.Sprintf("Chunk/strategy=%s/tokenizer=%s/via=%s/max=%d/overlap=%d", c.Strategy, c.Tokenizer, c.Via, c.MaxTokens, c.OverlapTokens)
}

// Label returns a short label for tables and plots: "heading words 256/64".
func (c *Cell) Label() string {
	via := ""
	if c.Via != "inproc" {
		via = "(" + c.Via + ")"
	}
	return fmt.Sprintf("%s %s%s %d/%d", c.Strategy, c.Tokenizer, via, c.MaxTokens, c.OverlapTokens)
}

// Run runs the matrix cfg describes: it loads the corpus and the evaluation set, measures
// every cell Count times, writes the summary table to out and, when cfg.Out is set, the
// output files (see the package documentation) into cfg.Out. progress receives a progress
// line (a bar redrawn in place when it is a terminal); nil means none.
//
// Errors are configuration errors (matching sdk.ErrInvalidConfig), errors loading the corpus
// or the evaluation set that name the file, a chunker's error naming the cell and document,
// and ctx's error when ctx is done; the report is nil then.
func Run(ctx context.Context, cfg Config, out, progress io.Writer) (*Report, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	rep := &Report{Config: cfg, Corpus: cfg.Corpus, Eval: cfg.Eval}
	if rep.Eval == "" && IsEvalSet(cfg.Corpus) {
		rep.Eval = cfg.Corpus
	}
	var set *EvalSet
	if rep.Eval != "" {
		if set, err = LoadEvalSet(rep.Eval, cfg.Loaders); err != nil {
			return nil, err
		}
		rep.Questions = len(set.Questions)
	}
	if len(cfg.Peers) > 0 && set == nil {
		return nil, fmt.Errorf("bench: %w: peers are scored on an evaluation set, and there is none", sdk.ErrInvalidConfig)
	}
	var docs []*Document
	shared := set != nil && rep.Eval == cfg.Corpus
	if shared {
		for _, c := range set.Corpora {
			docs = append(docs, c.Doc)
		}
	} else if docs, err = LoadCorpus(cfg.Corpus, cfg.Loaders); err != nil {
		return nil, err
	}
	rep.Documents = len(docs)
	for _, d := range docs {
		rep.Bytes += d.Bytes
	}

	var toks []tokenizer
	for _, spec := range cfg.Tokenizers {
		t, err := cfg.resolve(ctx, spec)
		if err != nil && cfg.optionalPlugins && t.via == "plugin" && ctx.Err() == nil {
			if progress != nil {
				fmt.Fprintf(progress, "bench: skipping tokenizer %s: %v\n", spec, err)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
	}
	for _, t := range toks {
		for _, s := range cfg.Strategies {
			for _, budget := range cfg.Budgets {
				probe, err := cfg.Chunkers[s](t.counter, budget, 0)
				if err != nil {
					return nil, fmt.Errorf("bench: strategy %s at %d tokens: %w", s, budget, err)
				}
				_, budgeted := probe.(sdk.Budgeted)
				seen := map[int]bool{}
				for _, frac := range cfg.Overlaps {
					overlap := int(frac * float64(budget))
					if (!budgeted && overlap > 0) || seen[overlap] {
						continue
					}
					seen[overlap] = true
					rep.Cells = append(rep.Cells, &Cell{Strategy: s, Tokenizer: t.name, Via: t.via, MaxTokens: budget, OverlapTokens: overlap})
				}
			}
		}
	}

	bar := newProgress(progress, len(rep.Cells)*cfg.Count)
	byName := map[string]tokenizer{}
	for _, t := range toks {
		byName[t.name+"/"+t.via] = t
	}
	for _, cell := range rep.Cells {
		t := byName[cell.Tokenizer+"/"+cell.Via]
		if err := measure(ctx, cfg, cell, t.counter, docs, set, shared, rep.Bytes, bar); err != nil {
			bar.done()
			return nil, fmt.Errorf("bench: %s: %w", cell.Name(), err)
		}
	}
	bar.done()
	for _, p := range cfg.Peers {
		r, err := scorePeer(p, set, cfg.K)
		if err != nil {
			return nil, err
		}
		rep.Peers = append(rep.Peers, r)
	}
	if err := writeOutputs(ctx, rep, out); err != nil {
		return rep, err
	}
	return rep, nil
}

// measure fills in cell: one warm-up pass gives the chunks for the quality and retrieval
// metrics and the calls per document, then cfg.Count timed measurements follow.
// shared says that docs are the corpora of set, so their chunks are scored as they are.
func measure(ctx context.Context, cfg Config, cell *Cell, counter sdk.TokenCounter, docs []*Document, set *EvalSet, shared bool, bytes int, bar *progress) error {
	rec := &sdk.Recorder{Counter: counter}
	chunker, err := cfg.Chunkers[cell.Strategy](rec, cell.MaxTokens, cell.OverlapTokens)
	if err != nil {
		return err
	}
	bar.status(cell.Label())

	start := time.Now()
	chunks, err := pass(ctx, chunker, docs)
	if err != nil {
		return err
	}
	warm := time.Since(start)
	cell.CallsPerDoc = float64(rec.Stats().Calls()) / float64(len(docs))
	for _, cs := range chunks {
		cell.ChunksPerOp += len(cs)
	}
	if cell.Quality, err = measureQuality(ctx, counter, cell.MaxTokens, docs, chunks); err != nil {
		return err
	}
	if set != nil {
		byCorpus := map[string][]sdk.Chunk{}
		if shared {
			for i, d := range docs {
				byCorpus[d.Doc.ID] = chunks[i]
			}
		}
		for _, c := range set.Corpora {
			if _, ok := byCorpus[c.ID]; ok {
				continue
			}
			cs, err := chunker.Chunk(ctx, sdk.Request{}, c.Doc.Doc)
			if err != nil {
				return fmt.Errorf("evaluation corpus %s: %w", c.ID, err)
			}
			byCorpus[c.ID] = cs
		}
		r := evaluate(set, byCorpus, cfg.K)
		cell.Retrieval = &r
	}

	iters := 1
	if cfg.BenchTime > 0 && warm < cfg.BenchTime {
		iters = int(min(int64(cfg.BenchTime/max(warm, time.Microsecond))+1, 1_000_000))
	}
	for range cfg.Count {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		for range iters {
			if _, err := pass(ctx, chunker, docs); err != nil {
				return err
			}
		}
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		n := float64(iters)
		ns := float64(elapsed.Nanoseconds()) / n
		cell.Samples = append(cell.Samples, Sample{
			Iters:       iters,
			NsPerOp:     ns,
			MBPerSec:    float64(bytes) / 1e6 / (ns / 1e9),
			BytesPerOp:  float64(after.TotalAlloc-before.TotalAlloc) / n,
			AllocsPerOp: float64(after.Mallocs-before.Mallocs) / n,
		})
		bar.step()
	}
	return nil
}

// pass chunks every document once.
func pass(ctx context.Context, chunker sdk.Chunker, docs []*Document) ([][]sdk.Chunk, error) {
	out := make([][]sdk.Chunk, len(docs))
	for i, d := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cs, err := chunker.Chunk(ctx, sdk.Request{}, d.Doc)
		if err != nil {
			return nil, fmt.Errorf("document %s: %w", d.Doc.ID, err)
		}
		out[i] = cs
	}
	return out, nil
}

// evaluate scores retrieval over the chunks of every corpus of set, chunks[id] being the
// chunks of corpus id: a BM25 index over all of them, the top k per question.
func evaluate(set *EvalSet, chunks map[string][]sdk.Chunk, k int) Retrieval {
	var passages []Passage
	var texts []string
	for _, c := range set.Corpora {
		for _, ch := range chunks[c.ID] {
			passages = append(passages, Passage{Corpus: c.ID, Span: c.Map.Span(ch.Start, ch.End)})
			texts = append(texts, EmbedText(ch))
		}
	}
	return retrieve(set, passages, texts, k)
}

// EmbedText returns what the bench indexes and measures of a chunk: its EmbedText, or its
// Content for a chunker that leaves EmbedText empty.
func EmbedText(c sdk.Chunk) string {
	if c.EmbedText != "" {
		return c.EmbedText
	}
	return c.Content
}

// retrieve scores retrieval over passages, whose texts are indexed with BM25: the top k
// per question of set.
func retrieve(set *EvalSet, passages []Passage, texts []string, k int) Retrieval {
	ix := NewBM25(texts)
	var all []Scores
	per := map[string][]Scores{}
	for _, q := range set.Questions {
		hits := ix.Search(q.Text, k)
		got := make([]Passage, len(hits))
		for i, h := range hits {
			got[i] = passages[h.Doc]
		}
		s := Score(q, got)
		s.PrecisionOmega = PrecisionOmega(q, passages)
		all = append(all, s)
		per[q.Corpus] = append(per[q.Corpus], s)
	}
	r := Retrieval{Overall: Mean(all)}
	for _, c := range set.Corpora {
		r.Corpora = append(r.Corpora, CorpusScores{Corpus: c.ID, Scores: Mean(per[c.ID])})
	}
	return r
}
