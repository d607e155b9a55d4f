package sdk

import (
	"context"
	"sync"
)

// Recorder wraps a TokenCounter and records how it is called: how many Count and Boundaries
// calls were made, how many texts they carried, and the longest text ever sent. Tests use it
// to hold chunkers to O(1) calls per document; the bench reports calls per document with it.
// Set Counter before use; a Recorder is safe for concurrent use and must not be copied.
type Recorder struct {
	Counter TokenCounter

	mu    sync.Mutex
	stats CallStats
}

// CallStats is what a Recorder has seen.
type CallStats struct {
	CountCalls      int // calls to Count
	BoundariesCalls int // calls to Boundaries
	Texts           int // texts sent over all calls
	Bytes           int // bytes sent over all calls
	LongestText     int // length in bytes of the longest text sent
}

// Calls returns the number of calls of either method.
func (s CallStats) Calls() int { return s.CountCalls + s.BoundariesCalls }

// Stats returns what the Recorder has seen so far.
func (r *Recorder) Stats() CallStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// Reset forgets what the Recorder has seen.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats = CallStats{}
}

func (r *Recorder) record(texts []string, count bool) {
	lens := make([]int, len(texts))
	for i, t := range texts {
		lens[i] = len(t)
	}
	r.recordLens(lens, count)
}

func (r *Recorder) recordLens(lens []int, count bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if count {
		r.stats.CountCalls++
	} else {
		r.stats.BoundariesCalls++
	}
	r.stats.Texts += len(lens)
	for _, n := range lens {
		r.stats.Bytes += n
		r.stats.LongestText = max(r.stats.LongestText, n)
	}
}

// RetainBoundaries records a Boundaries call and forwards it with RetainBoundaries, so a
// Recorder keeps its counter's Retainer ability. The Retained it returns records each
// CountPieces call as a Count call of texts as long as the items it builds.
func (r *Recorder) RetainBoundaries(ctx context.Context, texts []string) ([][]int, Retained, error) {
	r.record(texts, false)
	bounds, ret, err := RetainBoundaries(ctx, r.Counter, texts)
	if err != nil {
		return nil, nil, err
	}
	return bounds, recordedRetained{r: r, inner: ret}, nil
}

type recordedRetained struct {
	r     *Recorder
	inner Retained
}

func (rr recordedRetained) CountPieces(ctx context.Context, items [][]Piece) ([]int, error) {
	lens := make([]int, len(items))
	for i, item := range items {
		for _, p := range item {
			if p.Text < 0 {
				lens[i] += len(p.Literal)
			} else {
				lens[i] += p.End - p.Start
			}
		}
	}
	rr.r.recordLens(lens, true)
	return rr.inner.CountPieces(ctx, items)
}

// Count records the call and forwards it.
func (r *Recorder) Count(ctx context.Context, texts []string) ([]int, error) {
	r.record(texts, true)
	return r.Counter.Count(ctx, texts)
}

// Boundaries records the call and forwards it.
func (r *Recorder) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	r.record(texts, false)
	return r.Counter.Boundaries(ctx, texts)
}

// Name returns the wrapped counter's name, when it has one.
func (r *Recorder) Name() string {
	if n, ok := r.Counter.(Namer); ok {
		return n.Name()
	}
	return "recorded"
}
