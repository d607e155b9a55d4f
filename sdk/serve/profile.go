package serve

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/hashicorp/go-hclog"
)

// CPUProfileEnv is the environment variable that, set to a path, has a served plugin write a
// pprof CPU profile of its process to that path followed by "." and its process ID, from the
// start of serving until it stops; the host passes it to the plugins it starts. Unset, nothing
// is profiled. It is for measuring the plugin side of the protocol (go tool pprof BINARY FILE).
const CPUProfileEnv = "CHUNKKIT_PLUGIN_CPUPROFILE"

// startCPUProfile starts the profile CPUProfileEnv asks for, if any, and returns the function
// that ends it. A profile that cannot start is logged, never fatal: the plugin serves anyway.
func startCPUProfile(getenv func(string) string, logger hclog.Logger) (stop func()) {
	base := getenv(CPUProfileEnv)
	if base == "" {
		return func() {}
	}
	path := fmt.Sprintf("%s.%d", base, os.Getpid())
	f, err := os.Create(path)
	if err != nil {
		logger.Warn("cannot write the CPU profile", "env", CPUProfileEnv, "error", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		logger.Warn("cannot start the CPU profile", "env", CPUProfileEnv, "error", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			logger.Warn("cannot write the CPU profile", "path", path, "error", err)
		}
	}
}
