package main

import "testing"

// TestGCPercentFollowsTheBytesInFlight checks the collector's rule: Go's default while the
// largest document in flight has up to gcSmall bytes, then a percentage that keeps the growth near 2 × gcSmall, falling
// as the bytes grow, never below gcFloor.
func TestGCPercentFollowsTheBytesInFlight(t *testing.T) {
	for _, tc := range []struct{ bytes, want int }{
		{0, 100}, {1 << 20, 100}, {gcSmall, 100}, {2 * gcSmall, 50}, {4 * gcSmall, 25}, {1 << 40, gcFloor},
	} {
		if got := gcPercent(tc.bytes); got != tc.want {
			t.Errorf("gcPercent(%d) = %d, want %d", tc.bytes, got, tc.want)
		}
	}
	prev := gcPercent(0)
	for b := 0; b < 1<<30; b += 1 << 20 {
		p := gcPercent(b)
		if p > prev || p < gcFloor || p > 100 {
			t.Fatalf("gcPercent(%d) = %d after %d: want it falling from 100 to %d", b, p, prev, gcFloor)
		}
		prev = p
	}
}
