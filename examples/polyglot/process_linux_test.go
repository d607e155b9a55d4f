//go:build linux

package polyglot

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Tests that kill a host process and read Linux's process table.

func TestKillingTheHostLeavesNoPluginRunning(t *testing.T) {
	need(t)
	for _, tc := range []struct{ mode, why string }{
		{"host", "started by host.Host, which asks Linux to kill its plugins with it"},
		{"bare", "started as a plain child, so only the plugin's watch of its parent ends it"},
	} {
		for _, spec := range []string{"plugin:node-gpt", "plugin:py-sentencepiece"} {
			t.Run(tc.mode+" "+spec, func(t *testing.T) {
				t.Logf("the plugin is %s", tc.why)
				helper := exec.Command(os.Args[0], "-test.run=^$", dir, spec)
				helper.Env = append(os.Environ(), helperEnv+"="+tc.mode)
				var stderr syncBuffer
				helper.Stderr = &stderr
				out, err := helper.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := helper.Start(); err != nil {
					t.Fatal(err)
				}
				defer helper.Process.Kill()
				line, err := bufio.NewReader(out).ReadString('\n')
				if err != nil || line != "ready\n" {
					t.Fatalf("helper said %q, %v; stderr:\n%s", line, err, stderr.String())
				}
				procs := descendants(helper.Process.Pid)
				if len(procs) == 0 {
					t.Fatalf("the helper %d has no child process", helper.Process.Pid)
				}
				for _, p := range procs {
					if !strings.Contains(p.cmdline, dir) {
						t.Errorf("descendant %d %q is not an installed plugin", p.pid, p.cmdline)
					}
				}
				if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				helper.Wait()
				deadline := time.Now().Add(5 * time.Second)
				for _, p := range procs {
					for alive(p.pid) && time.Now().Before(deadline) {
						time.Sleep(20 * time.Millisecond)
					}
					if alive(p.pid) {
						t.Errorf("process %d %q still runs 5s after its host was SIGKILLed", p.pid, p.cmdline)
					}
				}
			})
		}
	}
}

type proc struct {
	pid     int
	cmdline string
}

// descendants returns every process under pid: children, their children, and so on.
func descendants(pid int) []proc {
	entries, _ := os.ReadDir("/proc")
	children := make(map[int][]int)
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(child); ok {
			children[ppid] = append(children[ppid], child)
		}
	}
	var out []proc
	queue := children[pid]
	for len(queue) > 0 {
		p := queue[0]
		queue = append(queue[1:], children[p]...)
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		out = append(out, proc{p, strings.ReplaceAll(string(cmd), "\x00", " ")})
	}
	return out
}

// stat returns the state and parent of pid from /proc/PID/stat.
func stat(pid int) (state byte, ppid int, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	// "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses.
	i := strings.LastIndexByte(string(data), ')')
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(fields[1])
	return fields[0][0], ppid, err == nil
}

func parentOf(pid int) (int, bool) {
	_, ppid, ok := stat(pid)
	return ppid, ok
}

// alive reports whether pid runs: it exists and is not a zombie (dead, waiting to be reaped).
func alive(pid int) bool {
	state, _, ok := stat(pid)
	return ok && state != 'Z' && state != 'X'
}
