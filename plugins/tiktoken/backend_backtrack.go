package tiktoken

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/chunkkit/chunkkit/internal/pretok"
	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe"
	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe/data"
	"github.com/chunkkit/chunkkit/sdk"
)

// backtrackEncoder is the Backtrack backend: text split into pieces by internal/pretok's
// scanners, as the Fast backend splits it, and each piece that is not itself a token encoded
// by internal/bpe's backtracking encoder, linear in the piece's length. Its vocabularies are
// the three backends' (readTokens), with the split tables internal/bpe's generator derived
// from them.
type backtrackEncoder struct {
	split   pretok.Func
	vocab   *bpe.Vocab
	scratch scratches
}

// scratches keeps the encoder's working memory for the next text: the one returned last is
// handed out first, and up to max of them are kept where the garbage collector does not empty
// them. Each Scratch had a piece cache of its own when this was written, and a sync.Pool,
// which often gave a request through the plugin (a goroutine of its own) a Scratch other than
// the one the request before used, or a new one after a collection, had the encoder encode
// again pieces it had seen. The cache is now the Vocab's, for every Scratch (internal/bpe,
// cache.go); what this still saves is allocating a Scratch per call after each collection
// and growing its buffers again. Scratches beyond max, returned when more texts were counted
// at once, go to a sync.Pool, so that a burst of concurrent calls neither allocates anew each
// time nor keeps its Scratches for good. Buffers a long piece grew past keepScratchBytes are
// dropped on return (bpe.Scratch.Trim).
type scratches struct {
	mu    sync.Mutex
	free  []*bpe.Scratch
	max   int
	extra sync.Pool
}

// keepScratchBytes is the largest buffer a kept Scratch keeps: enough for a 1 MB piece of
// CJK text (349,525 tokens), which reallocating on every call made 23% slower (cpu-s/MB
// 0.0166 to 0.0205, over the 0.02 the issue asks).
const keepScratchBytes = 4 << 20

// get returns the Scratch returned last, or one of the extra ones, or a new one.
func (p *scratches) get() *bpe.Scratch {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return s
	}
	p.mu.Unlock()
	if s, ok := p.extra.Get().(*bpe.Scratch); ok {
		return s
	}
	return new(bpe.Scratch)
}

// put returns s for reuse: kept if fewer than max are, else among the extra ones.
func (p *scratches) put(s *bpe.Scratch) {
	s.Trim(keepScratchBytes)
	p.mu.Lock()
	if len(p.free) < p.max {
		p.free = append(p.free, s)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.extra.Put(s)
}

func newBacktrack(encoding string) (*backtrackEncoder, error) {
	split := pretok.ForPattern(pattern(encoding))
	if split == nil {
		return nil, fmt.Errorf("loading %s: no scanner for its pattern", encoding)
	}
	table, ok := data.Split(encoding)
	if !ok {
		return nil, fmt.Errorf("loading %s: no split table", encoding)
	}
	tokens, starts, err := readTokens(encoding)
	if err != nil {
		return nil, err
	}
	vocab, err := bpe.Load(tokens, starts, table)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", encoding, err)
	}
	return &backtrackEncoder{split: split, vocab: vocab, scratch: scratches{max: max(2, runtime.GOMAXPROCS(0))}}, nil
}

// batch returns a backtrackBatch with a Scratch of e's for the call, which its end returns.
func (e *backtrackEncoder) batch() (encoder, func()) {
	s := e.scratch.get()
	return &backtrackBatch{e, s}, func() { e.scratch.put(s) }
}

// backtrackBatch is the Backtrack backend for the texts of one call, on one goroutine, with one
// Scratch.
type backtrackBatch struct {
	*backtrackEncoder
	s *bpe.Scratch
}

func (b *backtrackBatch) count(text string) (int, error) {
	e, s, n := b.backtrackEncoder, b.s, 0
	for at := 0; at < len(text); {
		end := e.split(text, at)
		if end <= at || end > len(text) {
			return 0, fmt.Errorf("splitting: no piece at byte %d", at)
		}
		n += e.vocab.CountAt(text, at, end, s)
		at = end
	}
	return n, nil
}

func (b *backtrackBatch) appendTokenLens(dst []int, text string) ([]int, error) {
	e, s := b.backtrackEncoder, b.s
	for at := 0; at < len(text); {
		end := e.split(text, at)
		if end <= at || end > len(text) {
			return nil, fmt.Errorf("splitting: no piece at byte %d", at)
		}
		dst = e.vocab.AppendLensAt(dst, text, at, end, s)
		at = end
	}
	return dst, nil
}

func (b *backtrackBatch) appendTokenLensMarked(dst []int, text string, at, toks []int32) ([]int, []int32, []int32, error) {
	e, s := b.backtrackEncoder, b.s
	from := len(dst)
	// A checkpoint at 0, then at the first piece end at least checkpointGap bytes past the one
	// before.
	next := 0
	for pos := 0; pos < len(text); {
		if pos >= next {
			at, toks, next = append(at, int32(pos)), append(toks, int32(len(dst)-from)), pos+checkpointGap
		}
		end := e.split(text, pos)
		if end <= pos || end > len(text) {
			return nil, at, toks, fmt.Errorf("splitting: no piece at byte %d", pos)
		}
		dst = e.vocab.AppendLensAt(dst, text, pos, end, s)
		pos = end
	}
	return dst, at, toks, nil
}

// vocabulary returns the vocabulary b encodes with, which marks remember.
func (b *backtrackBatch) vocabulary() *bpe.Vocab { return b.vocab }

// countMarked is count's loop with jumps between the checkpoints of ranges (marks.go). count
// keeps a loop of its own, every Count's, without the checks for ranges: count as
// countMarked(text, nil) was 4-9% slower on BenchmarkCountGenerated (10 rounds, benchstat).
func (b *backtrackBatch) countMarked(text string, ranges []sdk.MarkedRange) (int, error) {
	e, s, n := b.backtrackEncoder, b.s, 0
	var j jumper
	r := -1 // the range j is set up for
	for at := 0; at < len(text); {
		for r+1 < len(ranges) && ranges[r+1].At <= at {
			r++
			j.reset(text, ranges[r], e.vocab)
		}
		if r >= 0 && at < ranges[r].At+ranges[r].Len {
			if to, toks, ok := j.jump(at); ok {
				if jumped != nil {
					jumped(at, to)
				}
				n += toks
				at = to
				continue
			}
		}
		end := e.split(text, at)
		if end <= at || end > len(text) {
			return 0, fmt.Errorf("splitting: no piece at byte %d", at)
		}
		n += e.vocab.CountAt(text, at, end, s)
		at = end
	}
	return n, nil
}
