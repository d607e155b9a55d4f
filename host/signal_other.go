//go:build !unix

package host

import "os"

// raise ends the process: without Unix signals there is no default action to restore.
func raise(os.Signal) { os.Exit(1) }
