//go:build unix && !linux

package host

import "syscall"

// procAttr puts the plugin in a process group of its own, which the host kills as a whole.
// There is no Pdeathsig here: the host's watchdog and the plugin's own parent watch
// (sdk/serve) end a plugin whose host died.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// groupGone reports whether no process of the process group pgid is left, zombies included.
func groupGone(pgid int) bool {
	return pgid <= 0 || syscall.Kill(-pgid, 0) == syscall.ESRCH
}
