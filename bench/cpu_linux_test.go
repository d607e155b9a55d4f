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

// processCPU returns the CPU time (user and system), page faults and context switches of this
// process and its running plugin processes (children whose name starts with "chunkkit-") so
// far, with the machine's idle time, and whether it could read them. A plugin that exits in
// between is not counted, so callers compare readings taken while the same plugins run.
func processCPU() (cpuTimes, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuTimes{}, false
	}
	var t cpuTimes
	t.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	t.faults[0] = ru.Minflt + ru.Majflt
	t.switches[0] = ru.Nvcsw + ru.Nivcsw
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return cpuTimes{}, false
	}
	self := os.Getpid()
	tick := time.Second / 100 // USER_HZ, 100 on Linux
	t.idle = machineIdle(tick)
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
		minflt, _ := strconv.ParseInt(f[7], 10, 64)
		majflt, _ := strconv.ParseInt(f[9], 10, 64)
		t.faults[1] += minflt + majflt
		t.switches[1] += contextSwitches(pid)
	}
	return t, true
}

// contextSwitches returns the context switches, voluntary and not, that the threads of process
// pid running now have made, from /proc/PID/task/TID/status, or 0 when it cannot read them.
func contextSwitches(pid int) int64 {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0
	}
	var n int64
	for _, task := range tasks {
		n += taskSwitches(fmt.Sprintf("/proc/%d/task/%s/status", pid, task.Name()))
	}
	return n
}

// taskSwitches returns the context switches, voluntary and not, of the thread whose status file
// is path, or 0 when it cannot read them.
func taskSwitches(path string) int64 {
	status, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var n int64
	for line := range strings.Lines(string(status)) {
		name, value, ok := strings.Cut(line, ":")
		if ok && (name == "voluntary_ctxt_switches" || name == "nonvoluntary_ctxt_switches") {
			v, _ := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			n += v
		}
	}
	return n
}

// machineIdle returns the idle time (idle and iowait) of all the machine's CPUs together so far,
// from the first line of /proc/stat, counted in ticks of tick; 0 when it cannot be read.
func machineIdle(tick time.Duration) time.Duration {
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(stat), "\n")
	// cpu user nice system idle iowait ...
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return 0
	}
	idle, err1 := strconv.ParseInt(f[4], 10, 64)
	iowait, err2 := strconv.ParseInt(f[5], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(idle+iowait) * tick
}
