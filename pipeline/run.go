package pipeline

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/chunkkit/chunkkit/sdk"
)

// Options configures Run. Chunker is required; the zero value of every other field means the
// documented default.
type Options struct {
	// Chunker chunks every document. Workers call it concurrently, so it must be safe for
	// concurrent use (every chunker of sdk/chunkers is). Its counter and splitter are shared:
	// when they are plugin clients of one host, each plugin runs once for the whole run.
	Chunker sdk.Chunker
	// Request is the tenant, corpus and principal of every document; an Input's own tenant and
	// corpus win, and its ACL labels are added to the principal's.
	Request sdk.Request
	// Workers is how many documents are parsed and chunked at once; 0 means
	// runtime.GOMAXPROCS(0). A document that waits on a plugin's answer (the host's plugin
	// clients call sdk.StartWait) does not count while it waits, so another document's host
	// work runs meanwhile: up to Workers documents work and up to Workers more wait on plugin
	// calls, one call each (a document whose call would be one more queues for its turn).
	Workers int
	// Window bounds the documents in flight: read, being chunked, or done and waiting for the
	// documents before them to be yielded. 0 means 2 × Workers; it is never less than Workers.
	Window int
	// Timeout bounds the chunking of each document (its plugin calls included); 0 means none.
	// A document that runs out of time gets an error naming it and the timeout. Time the
	// document spends queued for its turn (to work, or to call a plugin) does not count, so a
	// plugin that hangs on one document's call ends that document only.
	Timeout time.Duration
	// MinConfidence drops OCR words below it (0–1); see ParseOptions.
	MinConfidence float64
}

// Result is what became of one Input.
type Result struct {
	// Index is the Input's 0-based position in the stream.
	Index int
	// Input is the Input, without its Data.
	Input Input
	// Document is the parsed document (nil when Err is set before or while parsing).
	Document *sdk.Document
	// Chunks are the document's chunks, in order.
	Chunks []sdk.Chunk
	// Bytes is the size of the document's input.
	Bytes int
	// Elapsed is how long the document took to read, parse and chunk.
	Elapsed time.Duration
	// Err says why the document has no chunks: it could not be read, parsed or chunked, or the
	// run was cancelled before its turn. It names the input (Input.Name).
	Err error
}

// Run parses and chunks every Input of inputs, o.Workers at a time, and yields one Result
// per Input, in input order, whatever the number of workers. An error yielded by inputs
// becomes that position's Result.Err; Run goes on with the next Input, so the caller decides
// whether one failure stops the run (by ending its loop) or not.
//
// Run reads inputs only as fast as the window allows, so a caller that writes each Result as
// it comes streams: the first chunks are out before the last input is read. Ending the loop
// early, or cancelling ctx, stops the workers; the Results already queued are yielded (those
// not chunked carry ctx's error) and Run returns once its workers have ended. The goroutine
// reading inputs ends at the iterator's next step, so an iterator blocked on a stream (standard
// input not yet at its end) does not hold Run up.
func Run(ctx context.Context, inputs iter.Seq2[Input, error], o Options) iter.Seq[Result] {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	window := o.Window
	if window <= 0 {
		window = 2 * workers
	}
	window = max(window, workers)
	return func(yield func(Result) bool) {
		if o.Chunker == nil {
			yield(Result{Err: fmt.Errorf("pipeline: %w: Options.Chunker is nil", sdk.ErrInvalidConfig)})
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup // the workers
		defer func() {
			cancel()
			wg.Wait()
		}()

		type job struct {
			Result
			data []byte
			out  chan Result
			// after is closed once the job before it took its work place, turn once this
			// one has: documents start in input order, whichever goroutine got them.
			after, turn chan struct{}
		}
		jobs := make(chan *job)
		order := make(chan *job, window-1) // + the one the consumer waits on = window
		go func() {
			defer close(order)
			defer close(jobs)
			i := 0
			prev := make(chan struct{})
			close(prev)
			for in, err := range inputs {
				j := &job{Result: Result{Index: i, Input: in, Err: err}, data: in.Data, out: make(chan Result, 1)}
				j.Input.Data = nil
				i++
				select {
				case order <- j:
				case <-ctx.Done():
					return
				}
				if err != nil {
					j.out <- j.Result
					continue
				}
				j.after, j.turn = prev, make(chan struct{})
				prev = j.turn
				select {
				case jobs <- j:
				case <-ctx.Done():
					j.Err = fmt.Errorf("%s: %w", in.Name(), ctx.Err())
					j.out <- j.Result
					return
				}
			}
		}()
		slots := newPlaces(workers)
		for range 2 * workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					var j *job
					select {
					case j = <-jobs:
					case <-ctx.Done():
						return
					}
					if j == nil {
						return
					}
					start := time.Now()
					r := j.Result
					h := slots.hold(ctx, j.after)
					close(j.turn)
					r.Document, r.Chunks, r.Bytes, r.Err = o.chunk(ctx, h, j.Input, j.data)
					h.done()
					r.Elapsed = time.Since(start)
					j.data = nil
					j.out <- r
				}
			}()
		}
		for {
			var j *job
			select {
			case j = <-order:
			case <-ctx.Done():
				// Yield what is already queued (those being chunked end soon: their
				// context is done), then stop without waiting for the inputs iterator.
				select {
				case j = <-order:
				default:
				}
			}
			if j == nil {
				return
			}
			if !yield(<-j.out) {
				return
			}
		}
	}
}

// chunk reads, parses and chunks one input, holding h's places.
func (o *Options) chunk(ctx context.Context, h *handoff, in Input, data []byte) (*sdk.Document, []sdk.Chunk, int, error) {
	name := in.Name()
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	if data == nil && in.Path != "" {
		var err error
		if data, err = os.ReadFile(in.Path); err != nil {
			return nil, nil, 0, err // *PathError names the file
		}
	}
	format := in.Format
	if format == "" {
		f, ok := FormatOf(in.Path)
		if !ok {
			return nil, nil, len(data), fmt.Errorf("%s: no input format given and none known for its extension", name)
		}
		format = f
	}
	doc, err := Parse(data, format, ParseOptions{ID: in.ID, TenantID: in.TenantID, CorpusID: in.CorpusID, Title: in.Title, MinConfidence: o.MinConfidence})
	if err != nil {
		return nil, nil, len(data), fmt.Errorf("%s: %w", name, err)
	}
	if len(in.Metadata) > 0 {
		if doc.Metadata == nil {
			doc.Metadata = map[string]any{}
		}
		maps.Copy(doc.Metadata, in.Metadata)
	}
	req := o.Request
	if in.TenantID != "" {
		req.TenantID = in.TenantID
	}
	if in.CorpusID != "" {
		req.CorpusID = in.CorpusID
	}
	if len(in.ACL) > 0 {
		req.Principal.ACLLabels = append(append([]string{}, req.Principal.ACLLabels...), in.ACL...)
	}
	cctx, cancel := h.chunking(ctx, o.Timeout)
	defer cancel()
	chunks, err := o.Chunker.Chunk(cctx, req, doc)
	if err != nil {
		if ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return doc, nil, len(data), fmt.Errorf("%s: not chunked within --timeout %s: %w", name, o.Timeout, err)
		}
		return doc, nil, len(data), fmt.Errorf("%s: %w", name, err)
	}
	return doc, chunks, len(data), nil
}
