// Package pipeline chunks many documents in one run: documents in as an iterator, results out
// as an iterator, in input order, with a pool of workers sharing one chunker (and so one set of
// plugins, when the chunker's counter is a plugin client).
//
// The pieces are separate so other engines can take what they need:
//
//   - Formats, FormatOf and Parse are the one input registry: file extension → format →
//     adapter. The CLI, the bench and Run all read documents through it.
//   - Walk turns files and directories into Inputs, with stable IDs (paths relative to the
//     directory given), and ReadJSONL turns a stream of JSON documents into Inputs.
//   - Run parses and chunks Inputs, Options.Workers at a time, and yields one Result per
//     Input, in input order, holding at most Options.Window documents in flight. A document
//     waiting on a plugin's answer (sdk.StartWait) gives its place to another meanwhile.
//   - Collector sizes Go's garbage collector to the documents in flight, for a command that
//     owns its process (Options.InFlight): a large file is collected sooner, a corpus of small
//     documents less often.
//
// Memory is bounded by the documents in flight, not by the corpus: an Input read from a file
// is read by the worker that chunks it, and nothing of a document is kept after its Result is
// yielded.
package pipeline
