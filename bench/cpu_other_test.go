//go:build !linux

package bench_test

// processCPU is not measured off Linux.
func processCPU() (cpuTimes, bool) { return cpuTimes{}, false }
