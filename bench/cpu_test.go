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
	// idle is the machine's idle time so far, summed over its CPUs (0 when unknown): with
	// nothing else running, what the host and its plugins left of the cores.
	idle time.Duration
}

// reportCPU reports the CPU time per op since before (read by processCPU when ok): cpu-ms/op
// for this process and its plugins together, and, when a plugin used any, plugin-cpu-ms/op
// for the plugins alone; then host-faults/op and host-ctxsw/op, and, when a plugin used any,
// plugin-faults/op and plugin-ctxsw/op; and idle-ms/op, the machine's idle time summed over its
// CPUs, when it could be read.
func reportCPU(b *testing.B, before cpuTimes, ok bool) {
	after, ok2 := processCPU()
	if !ok || !ok2 {
		return
	}
	perOp := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	// counts reports process i's (0 this one, 1 its plugins) page faults and switches per op.
	counts := func(i int, name string) {
		b.ReportMetric(float64(after.faults[i]-before.faults[i])/float64(b.N), name+"-faults/op")
		b.ReportMetric(float64(after.switches[i]-before.switches[i])/float64(b.N), name+"-ctxsw/op")
	}
	b.ReportMetric(perOp(after.self+after.plugins-before.self-before.plugins), "cpu-ms/op")
	counts(0, "host")
	if d := after.plugins - before.plugins; d > 0 {
		b.ReportMetric(perOp(d), "plugin-cpu-ms/op")
		counts(1, "plugin")
	}
	if before.idle > 0 && after.idle > 0 {
		b.ReportMetric(perOp(after.idle-before.idle), "idle-ms/op")
	}
}
