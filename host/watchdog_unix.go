//go:build unix

package host

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
)

// watchdogScript is the host's watchdog, run by /bin/sh: it reads "+ PGID" and "- PGID" lines
// (a plugin's process group started and ended) from its standard input, the read end of a
// pipe only the host holds. When the host dies, however it dies, the kernel closes the write
// end, read sees the end of input, and the watchdog SIGKILLs the groups still listed (the
// plugins and every process they started in their groups) and removes the host's private
// directory ($1). It ignores the signals a terminal sends, so Ctrl-C leaves the cleanup to
// the host.
const watchdogScript = `# chunkkit host watchdog: kills the host's plugins' process groups when the host is gone.
trap '' INT TERM HUP QUIT
groups=
while read -r op pg; do
	case $op in
	+) groups="$groups $pg" ;;
	-) rest=; for g in $groups; do [ "$g" = "$pg" ] || rest="$rest $g"; done; groups=$rest ;;
	esac
done
for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
rm -rf -- "$1"
`

// watchdog is the host's watchdog process (watchdogScript).
type watchdog struct {
	mu  sync.Mutex
	w   *os.File // the write end of its standard input; nil once closed
	cmd *exec.Cmd
}

// startWatchdog starts a watchdog that removes dir once the host is gone. Its script is a
// file in dir, so that ps shows what it is.
func startWatchdog(dir string) (*watchdog, error) {
	script := filepath.Join(dir, "watchdog.sh")
	if err := os.WriteFile(script, []byte(watchdogScript), 0o600); err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("/bin/sh", script, dir)
	cmd.Stdin = r
	// A group of its own: a terminal's signals go to the host's group, not to it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	return &watchdog{w: w, cmd: cmd}, nil
}

// add tells the watchdog about a plugin's process group; remove, that it has ended.
func (wd *watchdog) add(pgid int)    { wd.send("+", pgid) }
func (wd *watchdog) remove(pgid int) { wd.send("-", pgid) }

func (wd *watchdog) send(op string, pgid int) {
	if wd == nil {
		return
	}
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if wd.w != nil {
		fmt.Fprintf(wd.w, "%s %d\n", op, pgid)
	}
}

// close ends the watchdog (it kills the groups still listed, none after a Close) and reaps it.
func (wd *watchdog) close() {
	if wd == nil {
		return
	}
	wd.mu.Lock()
	w := wd.w
	wd.w = nil
	wd.mu.Unlock()
	if w != nil {
		w.Close()
		_ = wd.cmd.Wait()
	}
}
