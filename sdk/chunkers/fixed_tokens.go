package chunkers

import (
	"context"
	"iter"
	"slices"

	"github.com/chunkkit/chunkkit/sdk"
)

// FixedTokens cuts the canonical text into windows of MaxTokens tokens, each starting
// OverlapTokens tokens before the previous one ended, at token boundaries and ignoring the
// document's structure and words: the baseline the bench compares structured chunkers against.
// Every chunk is a body chunk with no parent, and Content == canonical[Start:End] trimmed of
// white space. Its Context is empty by default (ContextNone); ContextTitle and ContextTitlePath
// give the document's title, and ContextPath nothing, as FixedTokens knows no headings. Counter is
// required; zero MaxTokens and OverlapTokens mean 512 and 64 (NoOverlap means none); Sentences
// and KeepTablesWhole are not read. Calls and verification are as for HeadingAware: one
// Boundaries and one Count call per window of WindowBytes.
type FixedTokens struct {
	Config
	// WindowBytes is the canonical text FixedTokens measures at least at once (0 means
	// DefaultWindowBytes, a negative value the whole document): ChunkSeq and ChunkParts make
	// the chunks whose tokens it holds and go on with the next blocks and those of the chunk
	// that goes on past them, whose token ends they keep, so that the chunks are the same
	// whatever it is. The next window's blocks are measured while one is chunked (see
	// fixedWindows), so the Counter is called from a goroutine of the chunker's own too.
	WindowBytes int
}

// KeepsWords reports false: FixedTokens cuts at token boundaries wherever they fall.
func (f *FixedTokens) KeepsWords() bool { return false }

const fixedTokensName = "fixed-tokens chunker"

// Chunk implements sdk.Chunker: it returns the chunks ChunkSeq yields.
func (f *FixedTokens) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	return collect(f.ChunkSeq(ctx, req, doc))
}

// ChunkSeq implements sdk.StreamChunker: it yields the document's chunks a window of blocks at
// a time (see WindowBytes).
func (f *FixedTokens) ChunkSeq(ctx context.Context, req sdk.Request, doc *sdk.Document) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		maxTokens, overlap, err := f.check(fixedTokensName)
		if err == nil {
			err = checkInput(fixedTokensName, f.Counter, doc)
		}
		if err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		w := f.windows(ctx, req, doc, maxTokens, overlap, yield)
		defer w.stop()
		w.source = func() *sdk.SourceMap { return doc.Source }
		if feedBlocks(doc.Blocks, w.size, func(all []sdk.Block) { w.run = all }, w.add) {
			w.end()
		}
	}
}

// ChunkParts implements sdk.PartChunker: it yields the chunks of the document whose blocks
// parts yields, a window at a time as in ChunkSeq, reading the parts only one window beyond
// the window it is chunking (see fixedWindows).
func (f *FixedTokens) ChunkParts(ctx context.Context, req sdk.Request, doc *sdk.Document, parts iter.Seq2[sdk.DocumentPart, error]) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		maxTokens, overlap, err := f.check(fixedTokensName)
		if err == nil {
			err = checkInput(fixedTokensName, f.Counter, &sdk.Document{ID: doc.ID})
		}
		if err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		w := f.windows(ctx, req, doc, maxTokens, overlap, yield)
		defer w.stop()
		if readParts(doc.ID, parts, &w.source, &w.drop, w.add, failedAfter(func() bool { return w.chunkPending(false) }, yield)) {
			w.end()
		}
	}
}

// fixedWindows hands a document's blocks to FixedTokens a window at a time: once the blocks
// read since the last window ended reach size bytes, it makes the chunks whose tokens the
// window holds and keeps, for the next window, the blocks from the one the next chunk starts
// in, with their token ends. It reads one window ahead, as HeadingAware's windows do: a
// window's blocks are measured on a goroutine of their own while the window before is
// chunked, and then while the next window's blocks are read.
type fixedWindows struct {
	f                  *FixedTokens
	ctx                context.Context
	req                sdk.Request
	doc                *sdk.Document // the document's identity; its blocks come through add
	maxTokens, overlap int
	yield              func(sdk.Chunk, error) bool
	size               int // the text a window holds at least; 0 for one window
	measure            measurer
	run                []sdk.Block // the blocks read since the last window ended
	runBytes           int         // their canonical text, with the separators before them
	read               bool        // a block was read
	pending            *fixedPending
	held               heldBlocks // the blocks of the window chunked last the next chunk starts in
	at                 part       // where the pending window's first block is in the whole document
	next               int        // the next chunk's first token, counted in the pending window
	prevEnd            int        // the whole-document offset the last chunk made ends at; -1 for none
	source             func() *sdk.SourceMap
	drop               func(next int)
}

// fixedPending is a window of FixedTokens that has ended and is not yet chunked: its blocks
// after those held, and their measurement, under way once it has begun.
type fixedPending struct {
	blocks   []sdk.Block
	measured *measuring
}

func (f *FixedTokens) windows(ctx context.Context, req sdk.Request, doc *sdk.Document, maxTokens, overlap int, yield func(sdk.Chunk, error) bool) *fixedWindows {
	return &fixedWindows{f: f, ctx: ctx, req: req, doc: doc, maxTokens: maxTokens, overlap: overlap, yield: yield, size: windowSize(f.WindowBytes), prevEnd: -1,
		measure: measurer{ctx: ctx, name: fixedTokensName, counter: f.Counter, doc: doc}}
}

// add takes the next block, and ends the window once the blocks read since the last one ended
// reach its size. It reports false when the chunks are no longer wanted or chunking failed.
func (w *fixedWindows) add(b sdk.Block) bool {
	if w.read {
		w.runBytes += len(sdk.Separator)
	}
	w.read = true
	w.run = append(w.run, b)
	w.runBytes += len(b.Text)
	if w.size > 0 && w.runBytes >= w.size { // a window's worth of new text: each is measured once
		return w.endWindow(false)
	}
	return true
}

// end chunks the rest.
func (w *fixedWindows) end() {
	if w.endWindow(true) {
		w.chunkPending(true)
	}
}

// endWindow ends the window being read, the last when last: it starts measuring its blocks,
// unless it is the document's only window, and chunks the window before.
func (w *fixedWindows) endWindow(last bool) bool {
	p := &fixedPending{blocks: w.run}
	w.run, w.runBytes = nil, 0
	p.measured = w.measure.ahead(p.blocks, last, w.pending != nil)
	ok := w.chunkPending(false)
	w.pending = p
	return ok
}

// stop abandons a measurement under way once the chunks are no longer wanted.
func (w *fixedWindows) stop() {
	if p := w.pending; p != nil {
		p.measured.abandon()
	}
	w.pending = nil
}

// chunkPending makes the chunks of the pending window's tokens — all of them when last, else
// those whose window of tokens its blocks hold — yields them, and keeps the blocks the next
// chunk starts in for the next window.
func (w *fixedWindows) chunkPending(last bool) bool {
	p := w.pending
	if p == nil {
		return true
	}
	w.pending = nil
	m, err := w.measure.result(p.measured, p.blocks)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	blocks := p.blocks
	if len(w.held.run.blocks) > 0 {
		blocks = slices.Concat(w.held.run.blocks, p.blocks)
	}
	doc := *w.doc
	doc.Blocks, doc.Source = blocks, nil
	l := newWindowLayout(&doc, nil, w.held.ends, m)
	l.base = w.at.base
	cx := newContexter(l, w.f.contextMode(ContextNone), w.maxTokens)
	title := cx.render(nil) // FixedTokens knows no sections: a context is the title at most
	all := l.all
	startOf := func(i int) int {
		if i == 0 {
			return 0
		}
		return all[i-1]
	}
	var drafts []*draft
	i := w.next
	for i < len(all) && (last || i+w.maxTokens <= len(all)) {
		// The window is tokens i..j; separators between blocks count too, so shrink to fit.
		j := min(i+w.maxTokens, len(all)) - 1
		for j > i && l.tokens(startOf(i), all[j])+title.cost > w.maxTokens {
			j--
		}
		d := &draft{kind: sdk.ChunkBody, start: startOf(i), body: startOf(i), end: all[j], context: title.text}
		if prev := w.prevEnd - w.at.base; w.prevEnd >= 0 && prev > d.start {
			d.body, d.overlapEnd = prev, prev
		}
		if d.trimmed(l.canon.Text) {
			drafts = append(drafts, d)
			w.prevEnd = w.at.base + d.end
		}
		if last && j == len(all)-1 {
			i = len(all)
			break
		}
		i = max(i+1, j+1-w.overlap)
	}
	drafts, err = verify(w.ctx, fixedTokensName, w.f.Counter, l, drafts, w.maxTokens)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	w.at.source = w.source()
	for _, c := range finishPart(l, drafts, w.req, w.at) {
		if !w.yield(c, nil) {
			return false
		}
	}
	if last {
		return true
	}
	// Keep the blocks from the one the next chunk starts in: the end of token i-1.
	keep := 0
	if i > 0 {
		keep = l.blockAt(startOf(i))
	}
	tokens := 0 // the tokens of the blocks let go
	for _, e := range l.ends[:keep] {
		tokens += len(e)
	}
	next := w.at.base + l.canon.Starts[keep]
	if w.drop != nil {
		w.drop(next)
	}
	w.held = heldBlocks{run: blockRun{blocks: slices.Clone(blocks[keep:])}, ends: l.heldEnds(keep)}
	w.at = part{base: next, first: w.at.first + len(drafts)}
	w.next = i - tokens
	return true
}
