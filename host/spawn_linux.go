//go:build linux

package host

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel SIGKILL the plugin when the thread that forks it exits. The
// supervisor forks from a goroutine locked to its OS thread that lives as long as the process,
// so the signal arrives when the host dies, even by SIGKILL. The plugin's own parent watch
// (sdk/serve) is the portable backstop.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
