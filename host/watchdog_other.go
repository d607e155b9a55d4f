//go:build !unix

package host

import "errors"

// watchdog does nothing without Unix process groups and /bin/sh.
type watchdog struct{}

func startWatchdog(string) (*watchdog, error) {
	return nil, errors.New("no watchdog on this system")
}

func (*watchdog) add(int)    {}
func (*watchdog) remove(int) {}
func (*watchdog) close()     {}
