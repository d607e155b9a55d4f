package bench

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress draws a progress line on w: a bar redrawn in place with "\r" when w is a terminal,
// otherwise a plain line every tenth of the way or every 10 seconds, whichever comes first.
type progress struct {
	w        io.Writer
	terminal bool
	total    int
	n        int
	label    string
	start    time.Time
	last     time.Time
	lastTen  int
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: max(total, 1), start: time.Now()}
	p.last = p.start
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// status names the cell being measured.
func (p *progress) status(label string) {
	if p.w == nil {
		return
	}
	p.label = label
	if p.terminal {
		p.draw()
	}
}

// step records one finished measurement.
func (p *progress) step() {
	if p.w == nil {
		return
	}
	p.n++
	if p.terminal {
		p.draw()
		return
	}
	ten := p.n * 10 / p.total
	if ten > p.lastTen || time.Since(p.last) >= 10*time.Second || p.n == p.total {
		p.lastTen = ten
		p.last = time.Now()
		fmt.Fprintf(p.w, "bench: %d/%d measurements (%d%%), %s elapsed, at %s\n", p.n, p.total, p.n*100/p.total, time.Since(p.start).Round(time.Second), p.label)
	}
}

func (p *progress) draw() {
	const width = 30
	filled := p.n * width / p.total
	bar := strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
	line := fmt.Sprintf("%s %3d%% %d/%d %s %s", bar, p.n*100/p.total, p.n, p.total, time.Since(p.start).Round(time.Second), p.label)
	fmt.Fprintf(p.w, "\r\033[K%s", line)
}

// done ends the progress line.
func (p *progress) done() {
	if p.w != nil && p.terminal {
		fmt.Fprintln(p.w)
	}
}
