//go:build !linux

package bench_test

import "time"

// processCPU is not measured off Linux.
func processCPU() (time.Duration, bool) { return 0, false }
