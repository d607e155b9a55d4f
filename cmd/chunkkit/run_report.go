package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chunkkit/chunkkit/pipeline"
)

// stringList is a flag that may be given many times.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// runSummary tallies a chunk run: per corpus, and the documents that failed.
type runSummary struct {
	docs, chunks, tokens int
	bytes                int64
	corpora              map[string]*corpusTotals
	failures             []failure
	// pending tallies the Partial Results of the document being streamed, which its final
	// Result adds to the totals.
	pending struct {
		chunks, tokens int
		corpus         string
	}
}

type corpusTotals struct {
	docs, chunks, tokens int
	bytes                int64
}

// failure is a document that could not be chunked, as --keep-going records it.
type failure struct {
	index int
	name  string
	err   error
}

func newRunSummary() *runSummary { return &runSummary{corpora: map[string]*corpusTotals{}} }

// part tallies a Partial Result: chunks of a document whose final Result comes later.
func (s *runSummary) part(r pipeline.Result) {
	if s.pending.chunks == 0 && len(r.Chunks) > 0 {
		s.pending.corpus = r.Chunks[0].CorpusID
	}
	s.pending.chunks += len(r.Chunks)
	for _, c := range r.Chunks {
		s.pending.tokens += c.TokenCount
	}
}

func (s *runSummary) add(r pipeline.Result) {
	corpus := r.Document.CorpusID
	if len(r.Chunks) > 0 {
		corpus = r.Chunks[0].CorpusID
	}
	if s.pending.chunks > 0 {
		corpus = s.pending.corpus
	}
	pending := s.pending
	s.pending.chunks, s.pending.tokens = 0, 0
	t := s.corpora[corpus]
	if t == nil {
		t = &corpusTotals{}
		s.corpora[corpus] = t
	}
	tokens := pending.tokens
	for _, c := range r.Chunks {
		tokens += c.TokenCount
	}
	chunks := pending.chunks + len(r.Chunks)
	s.docs++
	s.chunks += chunks
	s.tokens += tokens
	s.bytes += int64(r.Bytes)
	t.docs++
	t.chunks += chunks
	t.tokens += tokens
	t.bytes += int64(r.Bytes)
}

func (s *runSummary) fail(r pipeline.Result) {
	s.chunks += s.pending.chunks // written before the document failed
	s.pending.chunks, s.pending.tokens = 0, 0
	s.failures = append(s.failures, failure{index: r.Index, name: r.Input.Name(), err: r.Err})
}

// text renders the totals of a run of several documents, per corpus when there are several.
func (s *runSummary) text() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n%d documents, %s: %d chunks, %d tokens in all", s.docs, mb(s.bytes), s.chunks, s.tokens)
	if len(s.failures) > 0 {
		fmt.Fprintf(&sb, "; %d failed", len(s.failures))
	}
	sb.WriteString("\n")
	if len(s.corpora) > 1 {
		names := make([]string, 0, len(s.corpora))
		for name := range s.corpora {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			t := s.corpora[name]
			label := name
			if label == "" {
				label = "(no corpus)"
			}
			fmt.Fprintf(&sb, "  corpus %s: %d documents, %s, %d chunks, %d tokens\n", label, t.docs, mb(t.bytes), t.chunks, t.tokens)
		}
	}
	return sb.String()
}

// failuresError lists the documents that failed, each with its position in the input and its
// reason, as the error of a --keep-going run.
func (s *runSummary) failuresError() error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d of %d documents failed:", len(s.failures), s.docs+len(s.failures))
	for _, f := range s.failures {
		fmt.Fprintf(&sb, "\n  document %d: %v", f.index+1, f.err)
	}
	return errors.New(sb.String())
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// runProgress writes a progress line to standard error while a run goes on, when it is a
// terminal (or --progress always): documents, megabytes, MB/s and, when the size of the
// input is known, the time left.
type runProgress struct {
	w          io.Writer
	on         bool
	start      time.Time
	last       time.Time
	total      int64
	docs       int
	failed     int
	bytes      int64
	wroteAline bool
}

// newRunProgress returns the progress line for mode; total, the size of the input for the
// time left, is asked only when the line is shown (it walks the input a second time).
func newRunProgress(w io.Writer, mode string, total func() int64) *runProgress {
	on := mode == "always"
	if mode == "auto" {
		if f, ok := w.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				on = true
			}
		}
	}
	p := &runProgress{w: w, on: on, start: time.Now()}
	if on {
		p.total = total()
	}
	return p
}

func (p *runProgress) update(r pipeline.Result) {
	p.docs++
	if r.Err != nil {
		p.failed++
	}
	p.bytes += int64(r.Bytes)
	if !p.on || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.print("\r\033[K")
}

func (p *runProgress) print(prefix string) {
	elapsed := time.Since(p.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.bytes) / 1e6 / elapsed
	}
	line := fmt.Sprintf("%s%d documents, %s, %.1f MB/s", prefix, p.docs, mb(p.bytes), rate)
	if p.failed > 0 {
		line += fmt.Sprintf(", %d failed", p.failed)
	}
	if p.total > 0 && rate > 0 && p.bytes < p.total {
		left := time.Duration(float64(p.total-p.bytes) / 1e6 / rate * float64(time.Second))
		line += fmt.Sprintf(", %s left", left.Round(time.Second))
	}
	io.WriteString(p.w, line)
	p.wroteAline = true
}

// done ends the progress line with the final figures.
func (p *runProgress) done() {
	if !p.on {
		return
	}
	p.print("\r\033[K")
	io.WriteString(p.w, "\n")
}

// leftOut tells standard error about the files a walk leaves out as not in their extension's
// format (pipeline.WalkOptions.Mismatched) and the symbolic links to directories it does not
// follow (LinkedDir): each of the first leftOutShown, then how many in all, so that a tree of
// package.json files does not flood the terminal. The walk calls note and linkedDir from the
// pipeline's reader, so they only record (under the lock); the run's own goroutine writes what
// was recorded with flush, between its progress lines, and done at the end: one goroutine
// writes standard error.
type leftOut struct {
	w                io.Writer
	mu               sync.Mutex
	notFormat, links int
	pending          []string
}

// leftOutShown is how many left-out files leftOut names.
const leftOutShown = 10

func (l *leftOut) note(path string, f pipeline.Format, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notFormat++
	l.add(fmt.Sprintf("chunkkit chunk: left out %s, %s. Give the file by itself to read it as %s anyway; --exclude leaves it out quietly.\n", path, why, f))
}

func (l *leftOut) linkedDir(path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.links++
	l.add(fmt.Sprintf("chunkkit chunk: left out %s, a symbolic link to a directory: a walk does not follow them (one can loop, or lead out of the tree). Give it as an argument of its own to chunk what it links to; --exclude leaves it out quietly.\n", path))
}

// output records that the walk or a stream named the --out file (name), which the run leaves
// out: it is writing it. Each is named, outside the limit: there is one such file.
func (l *leftOut) output(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, fmt.Sprintf("chunkkit chunk: left out %s, the --out file: the run is writing it.\n", name))
}

// add records line when it is among the first leftOutShown; l.mu is held.
func (l *leftOut) add(line string) {
	if l.notFormat+l.links <= leftOutShown {
		l.pending = append(l.pending, line)
	}
}

// flush writes the notes recorded since the last flush, on a line of their own when the
// progress line p is showing.
func (l *leftOut) flush(p *runProgress) {
	l.mu.Lock()
	lines := l.pending
	l.pending = nil
	l.mu.Unlock()
	if len(lines) == 0 {
		return
	}
	if p != nil && p.on && p.wroteAline {
		io.WriteString(l.w, "\r\033[K")
		p.wroteAline = false
		p.last = time.Time{} // show the line again at the next document
	}
	for _, line := range lines {
		io.WriteString(l.w, line)
	}
}

// done writes the notes not yet written, then how many files were left out when it named
// only some of them.
func (l *leftOut) done() {
	l.flush(nil)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.notFormat+l.links <= leftOutShown {
		return
	}
	var what []string
	if l.notFormat > 0 {
		what = append(what, fmt.Sprintf("%d %s not in their extension's format", l.notFormat, plural(l.notFormat, "file", "files")))
	}
	if l.links > 0 {
		what = append(what, fmt.Sprintf("%d symbolic %s to directories", l.links, plural(l.links, "link", "links")))
	}
	fmt.Fprintf(l.w, "chunkkit chunk: left out %d in all (%d named above): %s\n", l.notFormat+l.links, leftOutShown, strings.Join(what, " and "))
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
