package chunkers

import (
	"context"
	"iter"
	"math"

	"github.com/chunkkit/chunkkit/sdk"
)

// Noop makes one body chunk per block that is not blank, with no parent links and no budget:
// the reference for "no chunking". Each chunk's content is its block's text trimmed of white
// space, and TokenCount is measured by Counter in one Count call per window of WindowBytes.
// Counter is required; Noop is safe for concurrent use if Counter is.
type Noop struct {
	Counter sdk.TokenCounter
	// WindowBytes is the text of the blocks ChunkSeq and ChunkParts chunk and count at once
	// at least (0 means DefaultWindowBytes, a negative value the whole document); a block's
	// chunk is the same whatever it is.
	WindowBytes int
}

const noopName = "noop chunker"

// Chunk implements sdk.Chunker: it returns the chunks ChunkSeq yields.
func (n *Noop) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	return collect(n.ChunkSeq(ctx, req, doc))
}

// ChunkSeq implements sdk.StreamChunker: it yields the chunks of a window of blocks at a time.
func (n *Noop) ChunkSeq(ctx context.Context, req sdk.Request, doc *sdk.Document) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		if err := checkInput(noopName, n.Counter, doc); err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		w := n.windows(ctx, req, doc, yield)
		w.source = func() *sdk.SourceMap { return doc.Source }
		if feedBlocks(doc.Blocks, w.size, func(all []sdk.Block) { w.blocks = all }, w.add) {
			w.end()
		}
	}
}

// ChunkParts implements sdk.PartChunker: it yields the chunks of the blocks parts yields, a
// window at a time, reading the parts only as far as the window it is chunking.
func (n *Noop) ChunkParts(ctx context.Context, req sdk.Request, doc *sdk.Document, parts iter.Seq2[sdk.DocumentPart, error]) iter.Seq2[sdk.Chunk, error] {
	return func(yield func(sdk.Chunk, error) bool) {
		if err := checkInput(noopName, n.Counter, &sdk.Document{ID: doc.ID}); err != nil {
			yield(sdk.Chunk{}, err)
			return
		}
		w := n.windows(ctx, req, doc, yield)
		if readParts(doc.ID, parts, &w.source, &w.drop, w.add, yield) {
			w.end()
		}
	}
}

// noopWindows hands a document's blocks to Noop a window at a time: a block's chunk is its
// own, so a window may end before any block.
type noopWindows struct {
	n      *Noop
	ctx    context.Context
	req    sdk.Request
	doc    *sdk.Document // the document's identity; its blocks come through add
	yield  func(sdk.Chunk, error) bool
	size   int         // the text a window holds at least; 0 for one window
	blocks []sdk.Block // the window's
	bytes  int         // the canonical text of blocks
	at     part
	source func() *sdk.SourceMap
	drop   func(next int)
}

func (n *Noop) windows(ctx context.Context, req sdk.Request, doc *sdk.Document, yield func(sdk.Chunk, error) bool) *noopWindows {
	return &noopWindows{n: n, ctx: ctx, req: req, doc: doc, yield: yield, size: windowSize(n.WindowBytes)}
}

// add takes the next block, chunking the window before it once that holds size bytes.
func (w *noopWindows) add(b sdk.Block) bool {
	if len(w.blocks) > 0 && w.size > 0 && w.bytes >= w.size && !w.flush(w.at.base+w.bytes+len(sdk.Separator)) {
		return false
	}
	if len(w.blocks) > 0 {
		w.bytes += len(sdk.Separator)
	}
	w.blocks = append(w.blocks, b)
	w.bytes += len(b.Text)
	return true
}

// end chunks the last window.
func (w *noopWindows) end() { w.flush(w.at.base + w.bytes + len(sdk.Separator)) }

// flush chunks the window and starts the next at canonical offset next.
func (w *noopWindows) flush(next int) bool {
	doc := *w.doc
	doc.Blocks, doc.Source = w.blocks, nil
	l, err := measureLayout(w.ctx, noopName, w.n.Counter, &doc, nil)
	if err != nil {
		w.yield(sdk.Chunk{}, err)
		return false
	}
	l.base = w.at.base
	var drafts []*draft
	for i := range doc.Blocks {
		d := &draft{kind: sdk.ChunkBody, start: l.canon.Starts[i], end: l.blockEnd(i)}
		if d.trimmed(l.canon.Text) {
			drafts = append(drafts, d)
		}
	}
	drafts, err = verify(w.ctx, noopName, w.n.Counter, l, drafts, math.MaxInt)
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
	if w.drop != nil {
		w.drop(next)
	}
	w.blocks, w.bytes = nil, 0
	w.at = part{base: next, first: w.at.first + len(drafts)}
	return true
}
