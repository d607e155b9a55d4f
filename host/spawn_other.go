//go:build !unix

package host

import (
	"io/fs"
	"os"
	"syscall"
)

// procAttr is nil: without Unix process groups the host kills the plugin process alone.
func procAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the process pgid alone.
func killGroup(pgid int) {
	if p, err := os.FindProcess(pgid); err == nil {
		_ = p.Kill()
	}
}

// groupGone is true: there is no process group to wait for.
func groupGone(int) bool { return true }

// fileOwner is unknown: file ownership is not checked.
func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

// alivePID reports whether a process pid exists.
func alivePID(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
