package pipeline

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Collector sizes Go's garbage collector to a run's work, for a command that owns its process
// (chunkkit chunk uses one): pass its InFlight as Options.InFlight and call Done when the run
// ends. It sets GOGC so that the heap grows by about 48 MiB between collections, whatever the
// work, where Go's default (100) lets it grow by as much as is live:
//
//   - While a document over 24 MiB is in flight, what will be live is about twice its bytes
//     (the bytes, the source map of its blocks, what the chunker holds of it), known before it
//     is parsed: GOGC goes down, to 50 for a 48 MiB file, never below 25, so a 50 MB file
//     peaks near 2× its size rather than 4×.
//   - Otherwise what is live is what the last collection found (runtime/metrics
//     /gc/heap/live:bytes), small for a corpus of small documents (12 MB on the Node.js API
//     documents): GOGC goes up, to 400 there, never above 1000 nor below Go's default, so the
//     run collects a quarter as often for at most ~48 MiB more heap.
//
// A GOGC set in the environment is left alone. A Collector is safe for concurrent use.
type Collector struct {
	mu      sync.Mutex // InFlight's calls may come after the run, from its reading goroutine
	percent int        // set now
	live    []metrics.Sample
}

const (
	gcSmall  = 24 << 20 // a document over it sets GOGC by its size
	gcGrowth = 2 * gcSmall
	gcFloor  = 25
	gcCeil   = 1000
	liveHeap = "/gc/heap/live:bytes"
)

// NewCollector returns the collector of a run, or nil when GOGC is set in the environment.
func NewCollector() *Collector { return newCollector(os.LookupEnv) }

func newCollector(lookup func(string) (string, bool)) *Collector {
	if _, set := lookup("GOGC"); set {
		return nil
	}
	return &Collector{percent: 100, live: []metrics.Sample{{Name: liveHeap}}}
}

// InFlight sets GOGC for the documents in flight, of which the largest has largest bytes
// (Options.InFlight's arguments).
func (c *Collector) InFlight(_, largest int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	live := 0
	if largest <= gcSmall {
		metrics.Read(c.live)
		if v := c.live[0].Value; v.Kind() == metrics.KindUint64 {
			live = int(min(v.Uint64(), 1<<40))
		}
	}
	c.set(gcPercent(live, largest))
}

// Done sets Go's default again.
func (c *Collector) Done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(100)
}

// set sets GOGC to p, unless it is within an eighth of the percentage set now: the live heap
// moves a little with every collection, and the collector need not follow each move.
func (c *Collector) set(p int) {
	if p == c.percent || (p != 100 && c.percent != 100 && abs(p-c.percent) < c.percent/8) {
		return
	}
	debug.SetGCPercent(p)
	c.percent = p
}

func abs(n int) int { return max(n, -n) }

// gcPercent is the GOGC that lets the heap grow by about gcGrowth: while the largest document
// in flight has largest bytes, over gcSmall, by its size; otherwise by live, what the last
// collection found live (0 before the first one), between Go's default and gcCeil (see
// Collector).
func gcPercent(live, largest int) int {
	if largest > gcSmall {
		return max(100*gcSmall/largest, gcFloor)
	}
	if live <= 0 {
		return gcCeil
	}
	return min(max(100*gcGrowth/live, 100), gcCeil)
}
