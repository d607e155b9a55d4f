package chunkbeam

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

// Metrics the DoFn reports, in the namespace "chunkkit".
var (
	documentsChunked = beam.NewCounter("chunkkit", "documents")
	chunksEmitted    = beam.NewCounter("chunkkit", "chunks")
	documentsFailed  = beam.NewCounter("chunkkit", "dead_letters")
	documentsRetried = beam.NewCounter("chunkkit", "retries")
	bytesChunked     = beam.NewCounter("chunkkit", "bytes")
)

func init() {
	register.DoFn4x1[context.Context, Document, func(sdk.Chunk), func(DeadLetter), error](&chunkFn{})
	register.Emitter1[sdk.Chunk]()
	register.Emitter1[DeadLetter]()
}

// Chunk chunks every Document of docs (a PCollection of Document) as `chunkkit chunk` would
// with cfg's options, and returns the chunks (a PCollection of sdk.Chunk, in no particular
// order: each carries its DocumentID and Position) and the documents that failed (a
// PCollection of DeadLetter). The transform fails its bundle only for what no document caused
// (see the package doc).
func Chunk(s beam.Scope, cfg Config, docs beam.PCollection) (chunks, deadLetters beam.PCollection) {
	s = s.Scope("chunkkit.Chunk")
	return beam.ParDo2(s, &chunkFn{Config: cfg}, docs)
}

// chunkFn is the DoFn of Chunk. Beam serializes its exported fields; the rest is made on the
// worker by Setup.
type chunkFn struct {
	Config Config

	chunker sdk.Chunker
	held    bool // a host is acquired (and must be released)
}

// testResolver, when set, wraps the host the DoFn resolves its tokenizer and splitter through:
// the tests' way into a worker (Prism runs the workers in the test's process).
var testResolver func(pipeline.Resolver) pipeline.Resolver

// Setup acquires the worker process's plugin host and builds the chunker.
func (f *chunkFn) Setup(ctx context.Context) error {
	h, err := acquireHost(f.Config.PluginDirs)
	if err != nil {
		return fmt.Errorf("chunkkit: opening the plugin host: %w", err)
	}
	f.held = true
	var r pipeline.Resolver = h
	if testResolver != nil {
		r = testResolver(h)
	}
	if f.chunker, err = f.Config.Chunker.Open(ctx, r); err != nil {
		return fmt.Errorf("chunkkit: %w", err)
	}
	return nil
}

// ProcessElement chunks one document: its chunks to emit, or a DeadLetter to dead.
func (f *chunkFn) ProcessElement(ctx context.Context, doc Document, emit func(sdk.Chunk), dead func(DeadLetter)) error {
	if doc.ID == "" {
		documentsFailed.Inc(ctx, 1)
		dead(DeadLetter{Path: doc.Path, Reason: "chunkkit: a document has no ID (chunk IDs are built from it)", Attempts: 0})
		return nil
	}
	in := doc.input()
	attempts := 0
	for {
		attempts++
		r := f.chunk(ctx, in)
		if r.Err == nil {
			for _, c := range r.Chunks {
				emit(c)
			}
			documentsChunked.Inc(ctx, 1)
			chunksEmitted.Inc(ctx, int64(len(r.Chunks)))
			bytesChunked.Inc(ctx, int64(r.Bytes))
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("chunkkit: %s: %w", in.Name(), err) // the bundle is cancelled
		}
		if errors.Is(r.Err, host.ErrCrashLoop) || errors.Is(r.Err, host.ErrClosed) {
			return r.Err // the worker's plugin is broken: no document's fault
		}
		if errors.Is(r.Err, sdk.ErrUnavailable) && attempts <= f.Config.retries() {
			documentsRetried.Inc(ctx, 1) // the plugin crashed mid-call; the host restarts it
			continue
		}
		documentsFailed.Inc(ctx, 1)
		dead(DeadLetter{DocumentID: doc.ID, Path: doc.Path, Reason: r.Err.Error(), Attempts: attempts})
		return nil
	}
}

// chunk runs one input through pipeline.Run, as the command line does.
func (f *chunkFn) chunk(ctx context.Context, in pipeline.Input) pipeline.Result {
	one := func(yield func(pipeline.Input, error) bool) { yield(in, nil) }
	var res pipeline.Result
	for r := range pipeline.Run(ctx, iter.Seq2[pipeline.Input, error](one), pipeline.Options{
		Chunker: f.chunker, Request: f.Config.request(), Workers: 1,
		Timeout: f.Config.timeout(), MinConfidence: f.Config.MinConfidence,
	}) {
		res = r
	}
	return res
}

// Teardown releases the plugin host; the last DoFn instance of the process closes it.
func (f *chunkFn) Teardown() error {
	if !f.held {
		return nil
	}
	f.held = false
	return releaseHost(f.Config.PluginDirs)
}
