//go:build linux

package host

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// execByFD is true where the host can execute the very file it checked (see execTarget).
const execByFD = true

// procAttr puts the plugin in a process group of its own, which the host kills as a whole,
// and makes the kernel SIGKILL it when the thread that forks it exits. The supervisor forks
// from a goroutine locked to its OS thread that lives as long as the process, so the signal
// arrives when the host dies, even by SIGKILL. Pdeathsig reaches only this process, not its
// children: the host's watchdog (watchdog_unix.go) kills the rest of the group.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// openedPath returns the path of the file f was opened as, every symlink resolved, as the
// kernel knows it: there is no window between checking this path and using f.
func openedPath(f *os.File, _ string) (string, error) {
	return os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
}

// fdPath is the path that executes the open file f in a child process forked from this one:
// the child inherits f (close-on-exec only closes it once the new program is loaded).
func fdPath(f *os.File) string { return fmt.Sprintf("/proc/self/fd/%d", f.Fd()) }

// awaitExit blocks until the process pid has exited, without reaping it: while it is a
// zombie its PID, and so its process group's ID, cannot be reused, so killing the group is
// safe.
func awaitExit(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}

// groupGone reports whether no process of the process group pgid is still running. Zombies
// do not count: a child killed with its parent is reparented to init, which reaps it when it
// does (some container inits never do).
func groupGone(pgid int) bool {
	if pgid <= 0 || syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return true
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	want := []byte(strconv.Itoa(pgid))
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		fields := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		if len(fields) >= 3 && bytes.Equal(fields[2], want) && !bytes.Equal(fields[0], []byte("Z")) {
			return false
		}
	}
	return true
}
