package host

import (
	"bytes"
	"strings"
	"sync"
)

// maxTailLine bounds each line a tail keeps, and the partial line it buffers.
const maxTailLine = 512

// tail is an io.Writer that keeps the last lines written to it: a plugin's stderr, for error
// messages about its death. It also keeps the first line that starts a Go panic or fatal
// error, which a long stack trace would push out of the last lines. It is safe for concurrent
// use.
type tail struct {
	mu      sync.Mutex
	max     int
	buf     []string
	partial []byte
	panic   string // the first "panic: " or "fatal error: " line
	seen    int    // lines pushed, to tell whether panic is still among buf
	panicAt int    // the value of seen when panic was pushed
}

func newTail(lines int) *tail { return &tail{max: lines} }

// Write records p, split into lines. It never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rest := p
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		t.partial = append(t.partial, rest[:i]...)
		t.push()
		rest = rest[i+1:]
	}
	t.partial = append(t.partial, rest...)
	if len(t.partial) > maxTailLine {
		t.partial = t.partial[:maxTailLine]
	}
	return len(p), nil
}

// push moves the partial line into the ring, dropping empty lines.
func (t *tail) push() {
	line := string(bytes.TrimRight(t.partial, "\r"))
	t.partial = t.partial[:0]
	if len(line) > maxTailLine {
		line = line[:maxTailLine]
	}
	if line == "" {
		return
	}
	t.seen++
	if t.panic == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")) {
		t.panic, t.panicAt = line, t.seen
	}
	t.buf = append(t.buf, line)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
}

// lines returns the last lines written, oldest first, including an unterminated last line;
// when a panic line has scrolled out of them, it comes first, followed by "...".
func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.buf...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	if len(out) > t.max {
		out = out[len(out)-t.max:]
	}
	if t.panic != "" && t.seen-t.panicAt >= len(t.buf) {
		out = append([]string{t.panic, "..."}, out...)
	}
	return out
}
