package bench_test

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process and its running plugin
// processes (children whose name starts with "chunkkit-") have used so far, and whether it
// could read them. A plugin that exits in between is not counted, so callers compare readings
// taken while the same plugins run.
func processCPU() (cpuTimes, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuTimes{}, false
	}
	var t cpuTimes
	t.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return cpuTimes{}, false
	}
	self := os.Getpid()
	tick := time.Second / 100 // USER_HZ, 100 on Linux
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		if !strings.HasPrefix(string(stat[open+1:end]), "chunkkit-") {
			continue
		}
		// Fields after the name: state ppid ... utime (14th of the line) stime (15th).
		f := strings.Fields(string(stat[end+1:]))
		if len(f) < 13 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid != self {
			continue
		}
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		t.plugins += time.Duration(ut+st) * tick
	}
	return t, true
}
