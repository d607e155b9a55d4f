//go:build unix && !linux

package host

import "syscall"

// procAttr puts the plugin in a process group of its own, which the host kills as a whole.
// There is no Pdeathsig here: the host's watchdog and the plugin's own parent watch
// (sdk/serve) end a plugin whose host died.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
