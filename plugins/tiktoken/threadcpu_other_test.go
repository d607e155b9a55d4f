//go:build !linux

package tiktoken_test

import "time"

// threadCPU is 0 where there is no per-thread CPU clock: benchmarks then report no CPU metric.
func threadCPU() time.Duration { return 0 }

// processCPU is 0 here too.
func processCPU() time.Duration { return 0 }
