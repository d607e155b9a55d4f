package tiktoken_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used (user and system), for
// benchmarks that lock their goroutine to a thread: on a machine shared with other work it
// measures the work itself, where wall time also counts the waits for a core.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU returns the CPU time the whole process has used (user and system): the counting
// thread's and the garbage collector's, the measure tools/tiktoken-golden/bench.mjs takes of
// Node.js (process.cpuUsage), so that the two compare on the same footing.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
