//go:build unix

package host

import (
	"io/fs"
	"syscall"
)

// killGroup SIGKILLs every process of the process group pgid (a plugin and whatever it
// started that stayed in its group).
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// fileOwner returns the user ID that owns fi.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// alivePID reports whether a process pid exists (possibly another user's).
func alivePID(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
