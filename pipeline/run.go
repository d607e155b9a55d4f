package pipeline

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"runtime"
	"strings"
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
	// documents before them to be yielded. 0 means 16 × Workers; it is never less than Workers.
	Window int
	// InFlightBytes bounds the input bytes of the documents in flight, as Window bounds their
	// number: a document starts only when its bytes fit, or when fewer than Workers documents
	// are in flight, whatever their size. 0 means 64 MiB × Workers.
	InFlightBytes int
	// InFlight, when set, is told the input bytes of the documents in flight, and those of the
	// largest of them, each time they change, as a document is taken in and as it is yielded:
	// what a command that owns its process needs to size its collector to the work
	// (chunkkit's does). Calls come one at a time, from Run's goroutines, and should return
	// quickly.
	InFlight func(bytes, largest int)
	// Timeout bounds the chunking of each document (its plugin calls included); 0 means none.
	// A document that runs out of time gets an error naming it and the timeout. Time the
	// document spends queued for its turn (to work, or to call a plugin) does not count, so a
	// plugin that hangs on one document's call ends that document only.
	Timeout time.Duration
	// MinConfidence drops OCR words below it (0–1); see ParseOptions.
	MinConfidence float64
	// Stream yields each document's chunks as the chunker makes them when it is an
	// sdk.StreamChunker (every chunker of package chunkers is), and, when it is an
	// sdk.PartChunker too, parses Markdown, plain text, doc2mark and OCR JSON regions a piece
	// at a time as the chunker reads it (ParseParts): a document's Results are then zero or more with Partial set, each holding
	// the next of its chunks, and its final Result, with the rest. The document at the head of
	// the output order has its parts yielded as they come, so that neither Run nor a caller
	// that writes each part holds all of a large document's chunks (nor, for those formats, all
	// of its blocks); the parts of the documents after it wait for their turn. A document that
	// fails part way has had its first parts yielded before its final Result carries the error.
	Stream bool
}

// Result is what became of one Input.
type Result struct {
	// Index is the Input's 0-based position in the stream.
	Index int
	// Partial is set on a Result that holds some of a document's chunks, the next ones in
	// order, with more to come in later Results of the same Index (Options.Stream); only the
	// document's last Result, without Partial, carries Bytes, Elapsed and Err.
	Partial bool
	// Input is the Input, without its Data.
	Input Input
	// Document is the parsed document (nil when Err is set before or while parsing). With
	// Options.Stream, a document the chunker read in parts as its adapter parsed them (a
	// Markdown, plain-text or doc2mark one, when the chunker is an sdk.PartChunker) has no Blocks or
	// Source here: they were let go part by part.
	Document *sdk.Document
	// Chunks are the document's chunks, in order.
	Chunks []sdk.Chunk
	// BlockKinds is how many blocks of each kind the document has, counted as they were
	// parsed, so also when Document holds none (Options.Stream); set on the last Result.
	BlockKinds map[sdk.BlockKind]int
	// Bytes is the size of the document's input.
	Bytes int
	// Elapsed is how long the document took to read, parse and chunk.
	Elapsed time.Duration
	// Err says why the document has no chunks: it could not be read, parsed or chunked, or the
	// run was cancelled before its turn. It names the input (Input.Name).
	Err error
}

// inFlight is how many documents per worker Run has in flight by default, and how many
// goroutines it starts per worker: at -j N, N documents work, N wait on plugin calls and the
// others are read and queued for their turn, so that a document whose call must wait for the
// plugin does not leave the host idle, and the documents that queue for a call share one (the
// host merges their calls: host/merge.go). The Node.js corpus bench through the tiktoken plugin
// at -j 1, quiet machine: 2 per worker ran 0.74× as fast as in-process, 4 0.82× (1.30 plugin
// calls a document), 8 0.93× (0.95), 16 1.03× (0.63). inFlightBytes bounds what they hold.
const inFlight = 16

// inFlightBytes is Options.InFlightBytes's default, per worker: small documents are inFlight a
// worker at once, files of 50 MB one a worker (fewer than workers in flight always start).
const inFlightBytes = 64 << 20

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
		window = inFlight * workers
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
			size int // its input bytes, taken from the budget of bytes in flight; -1 when not taken
			out  *parts
			// after is closed once the job before it took its work place, turn once this
			// one has: documents start in input order, whichever goroutine got them.
			after, turn chan struct{}
		}
		jobs := make(chan *job)
		order := make(chan *job, window-1) // + the one the consumer waits on = window
		limit := o.InFlightBytes
		if limit <= 0 {
			limit = inFlightBytes * workers
		}
		// The documents' bytes are taken as they are read, in input order, and given back as
		// they are yielded: what is queued counts as well as what is being chunked.
		bytes := newBudget(limit, workers)
		bytes.notify = o.InFlight
		go func() {
			defer close(order)
			defer close(jobs)
			i := 0
			prev := make(chan struct{})
			close(prev)
			for in, err := range inputs {
				j := &job{Result: Result{Index: i, Input: in, Err: err}, data: in.Data, size: -1, out: newParts()}
				j.Input.Data = nil
				i++
				if err == nil {
					n := inputSize(in, j.data)
					if !bytes.take(ctx, n) {
						return
					}
					j.size = n
				}
				select {
				case order <- j:
				case <-ctx.Done():
					return
				}
				if err != nil {
					j.out.push(j.Result)
					continue
				}
				j.after, j.turn = prev, make(chan struct{})
				prev = j.turn
				select {
				case jobs <- j:
				case <-ctx.Done():
					j.Err = fmt.Errorf("%s: %w", in.Name(), ctx.Err())
					j.out.push(j.Result)
					return
				}
			}
		}()
		slots := newPlaces(workers)
		for range inFlight * workers {
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
					data := j.data
					j.data = nil // the document's bytes are released once it is parsed
					emit := func(doc *sdk.Document, chunks []sdk.Chunk) {
						p := j.Result
						p.Partial, p.Document, p.Chunks = true, doc, chunks
						j.out.push(p)
					}
					h := slots.hold(ctx, j.after)
					close(j.turn)
					r.BlockKinds = map[sdk.BlockKind]int{}
					r.Document, r.Chunks, r.Bytes, r.Err = o.chunk(ctx, h, j.Input, data, r.BlockKinds, emit)
					h.done()
					r.Elapsed = time.Since(start)
					j.out.push(r)
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
			for final := false; !final; {
				for _, r := range j.out.take() {
					if !r.Partial && j.size >= 0 {
						bytes.give(j.size) // yielded, the document is out of flight
					}
					if !yield(r) {
						return
					}
					final = !r.Partial
				}
			}
		}
	}
}

// inputSize is the input bytes of in: data's, or the size of its file (0 when it cannot be
// read; reading it reports why).
func inputSize(in Input, data []byte) int {
	if data != nil || in.Path == "" {
		return len(data)
	}
	fi, err := os.Stat(in.Path)
	if err != nil {
		return 0
	}
	return int(fi.Size())
}

// streamBatch is how many chunks a Partial Result holds at most.
const streamBatch = 256

// parts is the queue of one document's Results, pushed by the worker that chunks it and taken
// by Run's loop when the document's turn comes. It never blocks the worker, so a document that
// is not at the head of the order is chunked on and its parts wait.
type parts struct {
	mu    sync.Mutex
	ready chan struct{} // holds a token when something was pushed since the last take
	queue []Result
}

func newParts() *parts { return &parts{ready: make(chan struct{}, 1)} }

func (p *parts) push(r Result) {
	p.mu.Lock()
	p.queue = append(p.queue, r)
	p.mu.Unlock()
	select {
	case p.ready <- struct{}{}:
	default:
	}
}

// take waits for a push and returns what was pushed since the last take (possibly nothing,
// when an earlier take already had it).
func (p *parts) take() []Result {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.queue
	p.queue = nil
	return q
}

// chunk reads, parses and chunks one input, holding h's places. With o.Stream and a chunker that streams, it
// hands emit the chunks in batches as they are made and returns the last batch.
// It tallies the document's blocks by kind in kinds.
func (o *Options) chunk(ctx context.Context, h *handoff, in Input, data []byte, kinds map[sdk.BlockKind]int, emit func(*sdk.Document, []sdk.Chunk)) (*sdk.Document, []sdk.Chunk, int, error) {
	name := in.Name()
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	read := data == nil && in.Path != "" // read here: the parser may keep the bytes (InPlace)
	if read {
		var err error
		if data, err = os.ReadFile(in.Path); err != nil {
			if in.Line > 0 { // a stream's "path": say which line gave it
				err = fmt.Errorf("%s: %w", name, err)
			}
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
	size := len(data)
	po := ParseOptions{ID: in.ID, TenantID: in.TenantID, CorpusID: in.CorpusID, Title: in.Title, MinConfidence: o.MinConfidence, InPlace: read || in.InPlace}
	var doc *sdk.Document
	var parts iter.Seq2[sdk.DocumentPart, error]
	var err error
	pc, inParts := o.Chunker.(sdk.PartChunker)
	if o.Stream && inParts {
		// Parsed a piece at a time as the chunker reads it: neither the whole document nor
		// its parse tree is ever held.
		doc, parts, inParts, err = ParseParts(data, format, po)
	}
	if !o.Stream || !inParts {
		doc, err = Parse(data, format, po)
		data = nil // the document no longer needs its bytes (but for its blocks' texts, when read in place): let them go while it is chunked
	}
	if err != nil {
		return nil, nil, size, &documentError{name, err}
	}
	if parts != nil {
		parts = tallied(parts, kinds)
	} else {
		for _, b := range doc.Blocks {
			kinds[b.Kind]++
		}
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
	var chunks []sdk.Chunk
	if parts != nil {
		chunks, err = o.stream(pc.ChunkParts(cctx, req, doc, parts), doc, emit)
	} else {
		chunks, err = o.chunkDoc(cctx, req, doc, emit)
	}
	if err != nil {
		if ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return doc, nil, size, fmt.Errorf("%s: not chunked within --timeout %s: %w", name, o.Timeout, err)
		}
		return doc, nil, size, &documentError{name, err}
	}
	return doc, chunks, size, nil
}

// documentError is err, about the document called name: its message is the name and err's,
// less the "chunkkit: " the SDK's errors begin with, which would come twice in a message that
// begins with it too (the CLI's).
type documentError struct {
	name string
	err  error
}

func (e *documentError) Error() string {
	return e.name + ": " + strings.TrimPrefix(e.err.Error(), "chunkkit: ")
}

func (e *documentError) Unwrap() error { return e.err }

// tallied yields parts, counting their blocks by kind in kinds.
func tallied(parts iter.Seq2[sdk.DocumentPart, error], kinds map[sdk.BlockKind]int) iter.Seq2[sdk.DocumentPart, error] {
	return func(yield func(sdk.DocumentPart, error) bool) {
		for part, err := range parts {
			for _, b := range part.Blocks {
				kinds[b.Kind]++
			}
			if !yield(part, err) {
				return
			}
		}
	}
}

// chunkDoc returns doc's chunks, or with o.Stream and a chunker that streams, hands emit all
// but the last batch of streamBatch chunks as they are made and returns the last.
func (o *Options) chunkDoc(ctx context.Context, req sdk.Request, doc *sdk.Document, emit func(*sdk.Document, []sdk.Chunk)) ([]sdk.Chunk, error) {
	sc, ok := o.Chunker.(sdk.StreamChunker)
	if !o.Stream || !ok {
		return o.Chunker.Chunk(ctx, req, doc)
	}
	return o.stream(sc.ChunkSeq(ctx, req, doc), doc, emit)
}

// stream hands emit all but the last batch of streamBatch chunks of seq, and returns the last.
func (o *Options) stream(seq iter.Seq2[sdk.Chunk, error], doc *sdk.Document, emit func(*sdk.Document, []sdk.Chunk)) ([]sdk.Chunk, error) {
	var batch []sdk.Chunk
	for c, err := range seq {
		if err != nil {
			return nil, err
		}
		if len(batch) == streamBatch {
			emit(doc, batch)
			batch = nil
		}
		batch = append(batch, c)
	}
	if batch == nil {
		batch = []sdk.Chunk{}
	}
	return batch, nil
}
