//go:build !linux

package host

import "os/exec"

// dieWithParent does nothing outside Linux, which alone has Pdeathsig: there the plugin's own
// parent watch (sdk/serve) ends a plugin whose host died without closing it.
func dieWithParent(*exec.Cmd) {}
