package host

import (
	"bytes"
	"fmt"
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
	// Where the panic happened: the first frame after the first "goroutine N [...]:" line
	// that follows it, its function and its "file:line".
	inTrace       bool
	frame, source string
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
	switch {
	case t.panic == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")):
		t.panic, t.panicAt = line, t.seen
	case t.panic != "" && t.source == "":
		switch {
		case !t.inTrace:
			t.inTrace = strings.HasPrefix(line, "goroutine ")
		case t.frame == "":
			t.frame = line
		case strings.HasPrefix(line, "\t"):
			t.source, _, _ = strings.Cut(strings.TrimSpace(line), " +0x")
		}
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

// note renders what the plugin's stderr says about its end, for an error message, on one
// line: the panic and where it happened if it panicked (the goroutine dump is in the debug
// log), else its last lines (at most four).
func (t *tail) note() string {
	t.mu.Lock()
	p, frame, source := t.panic, t.frame, t.source
	t.mu.Unlock()
	if p != "" {
		if source != "" {
			fn, _, _ := strings.Cut(frame, "(0x")
			fn = strings.TrimSuffix(strings.TrimSuffix(fn, "(...)"), "()")
			return fmt.Sprintf("; it panicked: %s (in %s at %s)", p, fn, source)
		}
		return "; it panicked: " + p
	}
	lines := t.lines()
	if len(lines) > 4 {
		lines = lines[len(lines)-4:]
	}
	return stderrNote(lines)
}

// stderrNote renders the last stderr lines of a plugin for an error message.
func stderrNote(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = fmt.Sprintf("%q", l)
	}
	return "; its last stderr lines: " + strings.Join(q, ", ")
}
