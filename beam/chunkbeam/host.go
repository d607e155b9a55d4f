package chunkbeam

import (
	"strings"
	"sync"

	"github.com/chunkkit/chunkkit/host"
)

// hosts holds the plugin hosts of this worker process, one per set of plugin directories,
// shared by every instance of the DoFn. It is package state, against the project's rule,
// because that is what the requirement is: a runner makes many DoFn instances in one worker
// process (one per concurrent bundle, and anew after a failed bundle), and they must share one
// set of plugin processes rather than start one each. Nothing outside acquireHost and
// releaseHost touches it.
var hosts = struct {
	mu sync.Mutex
	m  map[string]*sharedHost
}{m: map[string]*sharedHost{}}

// sharedHost is a host and the number of DoFn instances holding it.
type sharedHost struct {
	h    *host.Host
	refs int
}

// hostKey identifies a set of plugin directories.
func hostKey(dirs []string) string { return strings.Join(dirs, "\x00") }

// acquireHost returns the process's host for dirs, opening it on the first call; each call
// must be matched by one releaseHost with the same dirs.
func acquireHost(dirs []string) (*host.Host, error) {
	hosts.mu.Lock()
	defer hosts.mu.Unlock()
	key := hostKey(dirs)
	if sh, ok := hosts.m[key]; ok {
		sh.refs++
		return sh.h, nil
	}
	h, err := host.Open(host.Options{PluginDirs: dirs})
	if err != nil {
		return nil, err
	}
	hosts.m[key] = &sharedHost{h: h, refs: 1}
	return h, nil
}

// releaseHost drops one hold on the host for dirs; the last one closes it, stopping its
// plugins.
func releaseHost(dirs []string) error {
	hosts.mu.Lock()
	key := hostKey(dirs)
	sh, ok := hosts.m[key]
	if !ok {
		hosts.mu.Unlock()
		return nil
	}
	sh.refs--
	if sh.refs > 0 {
		hosts.mu.Unlock()
		return nil
	}
	delete(hosts.m, key)
	hosts.mu.Unlock()
	return sh.h.Close()
}
