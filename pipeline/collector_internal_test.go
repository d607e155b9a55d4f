package pipeline

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestGCPercent checks the collector's rule: a document over gcSmall sets the percentage by
// its size, falling as the bytes grow, never below gcFloor; otherwise the live heap does, so
// that the heap grows by about gcGrowth, between Go's default and gcCeil.
func TestGCPercent(t *testing.T) {
	for _, tc := range []struct{ live, largest, want int }{
		{0, 0, gcCeil},
		{1 << 20, 1 << 20, gcCeil},
		{12 << 20, 1 << 20, 400},
		{12 << 20, gcSmall, 400},
		{gcGrowth, 1 << 20, 100},
		{1 << 30, 1 << 20, 100}, // never below Go's default for small documents
		{1 << 30, 2 * gcSmall, 50},
		{0, 2 * gcSmall, 50}, // a large document sets it by its size, whatever is live
		{0, 4 * gcSmall, 25},
		{0, 1 << 40, gcFloor},
	} {
		if got := gcPercent(tc.live, tc.largest); got != tc.want {
			t.Errorf("gcPercent(live %d, largest %d) = %d, want %d", tc.live, tc.largest, got, tc.want)
		}
	}
	prev := gcPercent(0, gcSmall+1)
	for b := gcSmall + 1; b < 1<<30; b += 1 << 20 {
		p := gcPercent(0, b)
		if p > prev || p < gcFloor || p > 100 {
			t.Fatalf("gcPercent(0, %d) = %d after %d: want it falling from 100 to %d", b, p, prev, gcFloor)
		}
		prev = p
	}
	prev = gcPercent(1, 0)
	for live := 1; live < 1<<30; live += 1 << 20 {
		p := gcPercent(live, 0)
		if p > prev || p < 100 || p > gcCeil {
			t.Fatalf("gcPercent(%d, 0) = %d after %d: want it falling from %d to 100", live, p, prev, gcCeil)
		}
		prev = p
	}
}

// TestCollectorSetsGOGC checks that a Collector sets Go's GOGC as the documents in flight
// ask, and Go's default again when done, and that a GOGC in the environment turns it off.
func TestCollectorSetsGOGC(t *testing.T) {
	if c := newCollector(func(k string) (string, bool) { return "200", k == "GOGC" }); c != nil {
		t.Fatal("newCollector with GOGC set: a collector, want none")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	gogc := func() int {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return int(s[0].Value.Uint64())
	}
	c := newCollector(func(string) (string, bool) { return "", false })
	c.InFlight(4*gcSmall, 4*gcSmall)
	if got := gogc(); got != 25 {
		t.Errorf("GOGC with a %d-byte document in flight = %d, want 25", 4*gcSmall, got)
	}
	runtime.GC() // so that no collection comes between InFlight's reading of the live heap and ours
	c.InFlight(1<<20, 1<<20)
	s := []metrics.Sample{{Name: liveHeap}}
	metrics.Read(s)
	if want := gcPercent(int(s[0].Value.Uint64()), 1<<20); gogc() != want {
		t.Errorf("GOGC with small documents in flight = %d, want %d (live heap %d bytes)", gogc(), want, s[0].Value.Uint64())
	}
	if gogc() < 100 {
		t.Errorf("GOGC with small documents in flight = %d, below Go's default", gogc())
	}
	c.Done()
	if got := gogc(); got != 100 {
		t.Errorf("GOGC when done = %d, want 100", got)
	}
}
