package bench_test

import (
	"testing"
	"time"
)

// cpuTimes is what processCPU reads of this process and of its running plugins.
type cpuTimes struct {
	self, plugins time.Duration
	// faults and switches are the page faults and context switches (voluntary and not) of
	// this process and its plugins, in that order.
	faults, switches [2]int64
}

// reportCPU reports the CPU time per op since before (read by processCPU when ok): cpu-ms/op
// for this process and its plugins together, and, when a plugin used any, plugin-cpu-ms/op
// for the plugins alone; then host-faults/op and host-ctxsw/op, and, when a plugin used any,
// plugin-faults/op and plugin-ctxsw/op.
func reportCPU(b *testing.B, before cpuTimes, ok bool) {
	after, ok2 := processCPU()
	if !ok || !ok2 {
		return
	}
	perOp := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(perOp(after.self+after.plugins-before.self-before.plugins), "cpu-ms/op")
	if d := after.plugins - before.plugins; d > 0 {
		b.ReportMetric(perOp(d), "plugin-cpu-ms/op")
	}
	for i, name := range []string{"host", "plugin"} {
		if i == 1 && after.plugins == before.plugins {
			break
		}
		b.ReportMetric(float64(after.faults[i]-before.faults[i])/float64(b.N), name+"-faults/op")
		b.ReportMetric(float64(after.switches[i]-before.switches[i])/float64(b.N), name+"-ctxsw/op")
	}
}
