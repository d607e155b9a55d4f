package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// collector sizes Go's collector to the largest document in flight
// (pipeline.Options.InFlight). GOGC=100, Go's default, lets the heap grow by as much as is
// live before the next collection, and what is live while a document is chunked is about
// twice its bytes (the bytes, the source map of its blocks, what the chunker holds of it): for
// one 50 MB file the heap would reach ~200 MB before a collection. So for a document over
// gcSmall bytes the percentage goes down, to keep the growth near 2 × gcSmall (GOGC 50 for a
// 48 MiB file), and never below gcFloor; for smaller ones, however many, the default stays,
// and with it the throughput of a corpus. A GOGC set in the environment is left alone.
type collector struct {
	mu      sync.Mutex // InFlight's calls may come after the run, from its reading goroutine
	percent int        // set now
}

const (
	gcSmall = 24 << 20
	gcFloor = 25
)

// newCollector returns the collector of a run, or nil when GOGC is set.
func newCollector() *collector {
	if _, set := os.LookupEnv("GOGC"); set {
		return nil
	}
	return &collector{percent: 100}
}

// inFlight sets the percentage for the largest document in flight, of bytes.
func (c *collector) inFlight(_, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := gcPercent(bytes); p != c.percent {
		debug.SetGCPercent(p)
		c.percent = p
	}
}

// done sets Go's default again.
func (c *collector) done() { c.inFlight(0, 0) }

// gcPercent is the GOGC while the largest document in flight has bytes (see collector).
func gcPercent(bytes int) int {
	if bytes <= gcSmall {
		return 100
	}
	return max(100*gcSmall/bytes, gcFloor)
}
