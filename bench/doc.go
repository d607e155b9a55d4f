// Package bench is chunkkit's benchmark harness: it chunks a corpus with every strategy ×
// tokenizer × budget of a matrix, measures throughput and the quality of the chunks, and —
// given an evaluation set in the Chroma format — how well a BM25 retriever over the chunks
// finds the excerpts each question is about, computed exactly from chunk offsets.
//
// Run executes a Config and writes, into Config.Out, the results in the Go benchmark format
// (bench.txt, one benchmark per cell, written with golang.org/x/perf/benchfmt so that
// benchstat compares runs and strategies), a benchstat comparison across strategies
// (benchstat.txt), a summary table (summary.txt, also printed) and an HTML report with plots
// (report.html, viewable offline). docs/bench.md explains how to run it and how to read it.
//
// # Cells and names
//
// A cell is one strategy, one tokenizer, one budget and one overlap. Its benchmark name
// carries them as configuration keys,
//
//	BenchmarkChunk/strategy=heading/tokenizer=tiktoken:cl100k_base/via=plugin/max=256/overlap=64-2
//
// so that `go tool benchstat -col /strategy bench.txt` puts strategies side by side. One
// operation is one pass over every document of the corpus. With an evaluation set, each cell
// also has one BenchmarkRetrieval line per evaluation corpus (key corpus=ID) with its
// retrieval scores.
//
// # Metrics
//
// Throughput, measured Count times per cell: sec/op, B/s (corpus bytes per second), B/op
// and allocs/op (runtime.MemStats deltas of the harness process; a plugin's own allocations
// are not seen), chunks/op, calls/doc (Count and Boundaries calls per document, counted by
// an sdk.Recorder).
//
// Quality, computed once per cell (chunking is deterministic), over body chunks and recounted
// with the cell's counter: violations (chunks over the budget), fill (mean tokens / budget),
// tokens-p50 and tokens-p95, sentence-ends (share ending at a sentence boundary of
// sdk/sentence), multi-section (share spanning more than one heading section) and coverage
// (share of the canonical text's non-space bytes inside some chunk).
//
// Retrieval, with an evaluation set: for every question the k (default 5) best chunks by
// BM25 over all chunks of all evaluation corpora are scored as in Chroma's report
// ("Evaluating Chunking Strategies for Retrieval", Smith & Troynikov, 2024) — recall,
// precision, iou and precision_omega — in code points of the corpus files, using the chunks'
// exact offsets mapped back to the files (see SourceMap). Scores are means over questions,
// overall and per corpus.
package bench
