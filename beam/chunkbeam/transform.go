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
	held    bool    // a host is acquired (and must be released)
	bundle  *bundle // the documents in flight in this bundle, when Config.Workers > 1
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

// StartBundle starts the bundle's pipeline.Run when documents are chunked several at once. It
// emits nothing; Beam wants a DoFn's bundle methods to name the emitters ProcessElement names.
func (f *chunkFn) StartBundle(ctx context.Context, _ func(sdk.Chunk), _ func(DeadLetter)) error {
	f.stopBundle()
	if f.Config.workers() > 1 {
		f.bundle = f.startBundle(ctx)
	}
	return nil
}

// ProcessElement chunks one document: its chunks to emit, or a DeadLetter to dead. With
// Config.Workers > 1 it hands the document to the bundle's workers and emits what they have
// finished; FinishBundle emits the rest.
func (f *chunkFn) ProcessElement(ctx context.Context, doc Document, emit func(sdk.Chunk), dead func(DeadLetter)) error {
	if doc.ID == "" {
		documentsFailed.Inc(ctx, 1)
		dead(DeadLetter{Path: doc.Path, Reason: "chunkkit: a document has no ID (chunk IDs are built from it)", Attempts: 0})
		return nil
	}
	in := doc.input()
	if f.bundle == nil {
		return f.finish(ctx, in, f.chunk(ctx, in), emit, dead)
	}
	err := f.bundle.add(in, func(in pipeline.Input, r pipeline.Result) error { return f.finish(ctx, in, r, emit, dead) })
	if err != nil {
		f.stopBundle()
	}
	return err
}

// FinishBundle waits for the bundle's documents in flight and emits their chunks.
func (f *chunkFn) FinishBundle(ctx context.Context, emit func(sdk.Chunk), dead func(DeadLetter)) error {
	if f.bundle == nil {
		return nil
	}
	err := f.bundle.drain(func(in pipeline.Input, r pipeline.Result) error { return f.finish(ctx, in, r, emit, dead) })
	f.stopBundle()
	return err
}

// finish emits the chunks of a document's Result, or retries the document when its plugin
// crashed during the call, or sends it to the dead letters, or fails the bundle for an error no
// document caused.
func (f *chunkFn) finish(ctx context.Context, in pipeline.Input, r pipeline.Result, emit func(sdk.Chunk), dead func(DeadLetter)) error {
	for attempts := 1; ; attempts++ {
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
		if !errors.Is(r.Err, sdk.ErrUnavailable) || attempts > f.Config.retries() {
			documentsFailed.Inc(ctx, 1)
			dead(DeadLetter{DocumentID: in.ID, Path: in.Path, Reason: r.Err.Error(), Attempts: attempts})
			return nil
		}
		documentsRetried.Inc(ctx, 1) // the plugin crashed mid-call; the host restarts it
		r = f.chunk(ctx, in)
	}
}

// chunk runs one input through pipeline.Run, as the command line does.
func (f *chunkFn) chunk(ctx context.Context, in pipeline.Input) pipeline.Result {
	one := func(yield func(pipeline.Input, error) bool) { yield(in, nil) }
	var res pipeline.Result
	for r := range pipeline.Run(ctx, iter.Seq2[pipeline.Input, error](one), f.options(1)) {
		res = r
	}
	return res
}

func (f *chunkFn) options(workers int) pipeline.Options {
	return pipeline.Options{
		Chunker: f.chunker, Request: f.Config.request(), Workers: workers,
		Timeout: f.Config.timeout(), MinConfidence: f.Config.MinConfidence,
	}
}

// bundle is one pipeline.Run over the documents of a bundle, fed as ProcessElement gets them.
// Only the goroutine that calls the DoFn's methods touches pending and next.
type bundle struct {
	ctx     context.Context
	cancel  context.CancelFunc
	in      chan pipeline.Input
	out     chan pipeline.Result
	pending map[int]pipeline.Input // by Result.Index: the documents in flight, with their bytes
	next    int
}

func (f *chunkFn) startBundle(ctx context.Context) *bundle {
	ctx, cancel := context.WithCancel(ctx)
	b := &bundle{ctx: ctx, cancel: cancel, in: make(chan pipeline.Input), out: make(chan pipeline.Result), pending: map[int]pipeline.Input{}}
	inputs := func(yield func(pipeline.Input, error) bool) {
		for in := range b.in {
			if !yield(in, nil) {
				return
			}
		}
	}
	go func() {
		defer close(b.out)
		for r := range pipeline.Run(ctx, inputs, f.options(f.Config.workers())) {
			select {
			case b.out <- r:
			case <-ctx.Done():
				return
			}
		}
	}()
	return b
}

// add hands in to the workers, passing each Result that is ready meanwhile to done.
func (b *bundle) add(in pipeline.Input, done func(pipeline.Input, pipeline.Result) error) error {
	b.pending[b.next] = in
	b.next++
	for sent := false; !sent; {
		select {
		case b.in <- in:
			sent = true
		case r, ok := <-b.out:
			if err := b.done(r, ok, done); err != nil {
				return err
			}
		}
	}
	for {
		select {
		case r, ok := <-b.out:
			if err := b.done(r, ok, done); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// drain ends the bundle's input and passes every Result still to come to done.
func (b *bundle) drain(done func(pipeline.Input, pipeline.Result) error) error {
	close(b.in)
	b.in = nil
	for r := range b.out {
		if err := b.done(r, true, done); err != nil {
			return err
		}
	}
	if len(b.pending) > 0 {
		return b.stopped()
	}
	return nil
}

// done passes the Result r of a document in flight to done; ok false means the workers have
// stopped (their context ended) with documents still in flight.
func (b *bundle) done(r pipeline.Result, ok bool, done func(pipeline.Input, pipeline.Result) error) error {
	if !ok {
		return b.stopped()
	}
	in, ok := b.pending[r.Index]
	if !ok {
		return fmt.Errorf("chunkkit: internal error: a result for document %d, which is not in flight", r.Index)
	}
	delete(b.pending, r.Index)
	return done(in, r)
}

func (b *bundle) stopped() error {
	return fmt.Errorf("chunkkit: the bundle's workers stopped with %d documents in flight: %w", len(b.pending), context.Cause(b.ctx))
}

// stopBundle cancels the bundle's workers, if any.
func (f *chunkFn) stopBundle() {
	if f.bundle == nil {
		return
	}
	f.bundle.cancel()
	if f.bundle.in != nil {
		close(f.bundle.in)
	}
	f.bundle = nil
}

// Teardown releases the plugin host; the last DoFn instance of the process closes it.
func (f *chunkFn) Teardown() error {
	f.stopBundle()
	if !f.held {
		return nil
	}
	f.held = false
	return releaseHost(f.Config.PluginDirs)
}
