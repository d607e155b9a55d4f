//go:build unix

package host

import (
	"os"
	"syscall"
)

// raise sends sig to the process itself; with no handler left, its default action ends it.
func raise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
	}
}
