package chunkers_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// The tests of this file hold the windows of HeadingAware, FixedTokens and Sections to reading
// one window ahead (see windows in stream.go, fixedWindows and sectionWindows): a window's blocks are measured while the
// window before is packed, the blocks a window holds again are not measured twice, and neither
// changes the chunks, the order of chunks and errors, or leaves a call running.

// marker is the word only section k's paragraphs have.
func marker(k int) string { return fmt.Sprintf("zq%dzq", k) }

// perSection is the blocks of a section of sectionsDoc: a heading and 12 paragraphs.
const perSection = 13

// sectionsDoc returns a document of n sections of about 3 KiB each, headed "Part k", whose
// paragraphs carry marker(k).
func sectionsDoc(n int) *sdk.Document {
	doc := &sdk.Document{ID: "sections", Title: "Read ahead"}
	for k := range n {
		doc.Blocks = append(doc.Blocks, heading(1, fmt.Sprintf("Part %d", k)))
		for i := range perSection - 1 {
			doc.Blocks = append(doc.Blocks, para(fmt.Sprintf("Paragraph %d of part %d has %s and %s.", i, k, marker(k), strings.Repeat("more words ", 20))))
		}
	}
	return doc
}

// readAheadChunker is HeadingAware over counter with windows of one section of doc (a
// sectionsDoc) each, and the whole document at once over plain words: the chunks the windows
// must give. A window ends at the first block where it may once it holds WindowBytes: the
// length of a section with the separator after it is the least that no paragraph reaches.
func readAheadChunker(t *testing.T, counter sdk.TokenCounter, doc *sdk.Document) (windowed, whole *chunkers.HeadingAware) {
	t.Helper()
	size := doc.Canonical().Starts[perSection]
	if n, want := chunkers.Windows(doc, size), len(doc.Blocks)/perSection; n != want {
		t.Fatalf("%d windows of %d bytes, want one per section (%d)", n, size, want)
	}
	windowed = &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: 96, OverlapTokens: 16}, WindowBytes: size}
	whole = &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 96, OverlapTokens: 16}, WindowBytes: -1}
	return windowed, whole
}

// firstOf returns the index of the first chunk of section "Part k".
func firstOf(t *testing.T, chunks []sdk.Chunk, k int) int {
	t.Helper()
	for i, c := range chunks {
		if c.SectionTitle == fmt.Sprintf("Part %d", k) {
			return i
		}
	}
	t.Fatalf("no chunk of Part %d", k)
	return -1
}

// waitingCounter counts words; its Count of the chunks of the section with marker(verified)
// waits until a Boundaries call has been asked to measure that of measured, for at most a
// few seconds.
type waitingCounter struct {
	sdk.Words
	verified, measured string
	arrived            chan struct{}
	once               sync.Once
	waited             atomic.Bool // Count gave up waiting
}

func (c *waitingCounter) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if anyContains(texts, c.measured) {
		c.once.Do(func() { close(c.arrived) })
	}
	return c.Words.Boundaries(ctx, texts)
}

func (c *waitingCounter) Count(ctx context.Context, texts []string) ([]int, error) {
	if anyContains(texts, c.verified) {
		select {
		case <-c.arrived:
		case <-time.After(5 * time.Second):
			c.waited.Store(true)
		}
	}
	return c.Words.Count(ctx, texts)
}

// anyContains reports whether one of texts contains s.
func anyContains(texts []string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// TestALaterWindowIsMeasuredWhileTheOneBeforeIsPacked holds the windows to measuring a
// window's blocks before the window before it is verified: the counter's Count of the first
// section's chunks waits for the Boundaries call of the second section, which windows chunked
// one after the other would make only after that Count.
func TestALaterWindowIsMeasuredWhileTheOneBeforeIsPacked(t *testing.T) {
	t.Parallel()
	doc := sectionsDoc(4)
	size := doc.Canonical().Starts[perSection]
	for name, newChunker := range readAheadChunkers() {
		t.Run(name, func(t *testing.T) {
			counter := &waitingCounter{verified: marker(0), measured: marker(1), arrived: make(chan struct{})}
			sameChunks(t, newChunker(counter, size), newChunker(sdk.Words{}, -1), doc)
			if counter.waited.Load() {
				t.Error("the first window was verified before the second was measured: the windows were not read ahead")
			}
		})
	}
}

// readAheadChunkers returns, by name, a constructor of each chunker that reads ahead, over
// counter with windows of window bytes (negative: the whole document at once). With a
// section's length and the separator after it (readAheadChunker), HeadingAware and Sections
// end a window at every section of a sectionsDoc, and FixedTokens, which ends one once that
// much text was read since the last, after the first section and the second's heading, then
// after a section's paragraphs and the next heading.
func readAheadChunkers() map[string]func(counter sdk.TokenCounter, window int) sdk.StreamChunker {
	config := func(c sdk.TokenCounter) chunkers.Config {
		return chunkers.Config{Counter: c, MaxTokens: 96, OverlapTokens: 16}
	}
	return map[string]func(sdk.TokenCounter, int) sdk.StreamChunker{
		"heading-aware": func(c sdk.TokenCounter, window int) sdk.StreamChunker {
			return &chunkers.HeadingAware{Config: config(c), WindowBytes: window}
		},
		"fixed-tokens": func(c sdk.TokenCounter, window int) sdk.StreamChunker {
			return &chunkers.FixedTokens{Config: config(c), WindowBytes: window}
		},
		"sections": func(c sdk.TokenCounter, window int) sdk.StreamChunker {
			return &chunkers.Sections{Config: config(c), WindowBytes: window}
		},
	}
}

// sameChunks fails t unless windowed gives doc the chunks whole does.
func sameChunks(t *testing.T, windowed, whole sdk.Chunker, doc *sdk.Document) {
	t.Helper()
	want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := windowed.Chunk(context.Background(), conformance.Request(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("windows differ from the whole document (-whole +windows):\n%s", diff)
	}
}

// measuredBytes is a counter that records the bytes of block texts its Boundaries calls
// measure: every text but the three that each of a chunker's calls sends first (the
// separators and the title).
type measuredBytes struct {
	sdk.TokenCounter
	mu    sync.Mutex
	bytes int
	calls int
}

func (m *measuredBytes) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	m.mu.Lock()
	m.calls++
	for _, s := range texts[min(3, len(texts)):] {
		m.bytes += len(s)
	}
	m.mu.Unlock()
	return m.TokenCounter.Boundaries(ctx, texts)
}

// TestABlockHeldAgainIsNotMeasuredAgain holds windows that end carried (a document without
// headings, where every window holds again the blocks of the chunks before its start), and
// FixedTokens' windows (which hold again the blocks the next chunk starts in), to measuring
// every block once: the next window takes the token ends of the blocks it holds again from the
// window before. The chunks are still the whole document's.
func TestABlockHeldAgainIsNotMeasuredAgain(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "plain"}
	blockBytes := 0
	for i := range 400 {
		b := para(fmt.Sprintf("Paragraph %d says %s. It ends here.", i, strings.Repeat("something longer ", i%30)))
		doc.Blocks = append(doc.Blocks, b)
		blockBytes += len(b.Text)
	}
	for _, counter := range []sdk.TokenCounter{sdk.Words{}, cl100kCounter(t)} {
		t.Run(counterName(counter), func(t *testing.T) {
			m := &measuredBytes{TokenCounter: counter}
			windowed := &chunkers.HeadingAware{Config: chunkers.Config{Counter: m, MaxTokens: 64, OverlapTokens: 12}, WindowBytes: 8 << 10}
			whole := &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: 64, OverlapTokens: 12}, WindowBytes: -1}
			windows := chunkers.Windows(doc, 8<<10)
			if windows < 4 {
				t.Fatalf("%d windows: the test wants several", windows)
			}
			sameChunks(t, windowed, whole, doc)
			if m.calls != windows {
				t.Errorf("%d Boundaries calls for %d windows", m.calls, windows)
			}
			if m.bytes != blockBytes {
				t.Errorf("Boundaries measured %d bytes of blocks; the document has %d: a block was measured more than once, or not at all", m.bytes, blockBytes)
			}
			fm := &measuredBytes{TokenCounter: counter}
			fixed := &chunkers.FixedTokens{Config: chunkers.Config{Counter: fm, MaxTokens: 64, OverlapTokens: 12}, WindowBytes: 8 << 10}
			fixedWhole := &chunkers.FixedTokens{Config: chunkers.Config{Counter: counter, MaxTokens: 64, OverlapTokens: 12}, WindowBytes: -1}
			sameChunks(t, fixed, fixedWhole, doc)
			if fm.calls < 4 {
				t.Errorf("FixedTokens: %d Boundaries calls: the test wants several windows", fm.calls)
			}
			if fm.bytes != blockBytes {
				t.Errorf("FixedTokens: Boundaries measured %d bytes of blocks; the document has %d: a block was measured more than once, or not at all", fm.bytes, blockBytes)
			}
		})
	}
}

// slowCounter counts words; its Boundaries calls of the section with marker(slow) or later
// ones wait until their context is done or a minute has passed, and it tracks the calls in
// flight.
type slowCounter struct {
	sdk.Words
	slow     []string
	inFlight atomic.Int32
	started  atomic.Int32
}

func (c *slowCounter) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	c.inFlight.Add(1)
	defer c.inFlight.Add(-1)
	for _, s := range c.slow {
		if anyContains(texts, s) {
			c.started.Add(1)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Minute):
			}
		}
	}
	return c.Words.Boundaries(ctx, texts)
}

// TestStoppingEarlyLeavesNoCallRunning stops reading a document's chunks while the next
// window is being measured: the measurement is cancelled and waited for, so no call of the
// document is in flight once its chunking has returned.
func TestStoppingEarlyLeavesNoCallRunning(t *testing.T) {
	t.Parallel()
	doc := sectionsDoc(4)
	size := doc.Canonical().Starts[perSection]
	for name, newChunker := range readAheadChunkers() {
		t.Run(name, func(t *testing.T) {
			counter := &slowCounter{slow: []string{marker(1), marker(2), marker(3)}}
			windowed := newChunker(counter, size)
			start := time.Now()
			n := 0
			for _, err := range windowed.ChunkSeq(context.Background(), conformance.Request(), doc) {
				if err != nil {
					t.Fatal(err)
				}
				n++
				break
			}
			if n != 1 {
				t.Fatalf("%d chunks read, want 1", n)
			}
			if counter.started.Load() == 0 {
				t.Fatal("the second window's measurement never began")
			}
			if got := counter.inFlight.Load(); got != 0 {
				t.Errorf("%d Boundaries calls still in flight after ChunkSeq returned", got)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("stopping took %v: the call under way was not cancelled", d)
			}
		})
	}
}

// failingCounter counts words, but fails the Boundaries call of the section with marker(k).
type failingCounter struct {
	sdk.Words
	fail string
}

var errMeasure = errors.New("measure failed on purpose")

func (c failingCounter) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	if anyContains(texts, c.fail) {
		return nil, errMeasure
	}
	return c.Words.Boundaries(ctx, texts)
}

// collectUntilError returns the chunks seq yields before its error, and the error.
func collectUntilError(t *testing.T, seq iter.Seq2[sdk.Chunk, error]) ([]sdk.Chunk, error) {
	t.Helper()
	var chunks []sdk.Chunk
	var failed error
	for c, err := range seq {
		if failed != nil {
			t.Fatalf("something yielded after the error %v", failed)
		}
		if err != nil {
			failed = err
			continue
		}
		chunks = append(chunks, c)
	}
	return chunks, failed
}

// TestAWindowsErrorComesAfterTheChunksBeforeIt holds the windows read ahead to the order of
// windows chunked one after the other: when measuring the third section fails, the chunks of
// the first two come, then the error, and nothing after it.
func TestAWindowsErrorComesAfterTheChunksBeforeIt(t *testing.T) {
	t.Parallel()
	doc := sectionsDoc(5)
	windowed, whole := readAheadChunker(t, failingCounter{fail: marker(2)}, doc)
	want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := collectUntilError(t, windowed.ChunkSeq(context.Background(), conformance.Request(), doc))
	if !errors.Is(err, errMeasure) {
		t.Fatalf("error %v, want the counter's", err)
	}
	if !strings.Contains(err.Error(), `document "sections"`) {
		t.Errorf("error %q does not name the document", err)
	}
	if diff := cmp.Diff(want[:firstOf(t, want, 2)], got); diff != "" {
		t.Fatalf("the chunks before the error are not those of the first two sections (-want +got):\n%s", diff)
	}
}

// TestAPartsErrorComesAfterTheWindowsThatEndedBeforeIt reads a document's parts, one section
// a part, and fails after the third: the windows that ended before it (the first two
// sections; the third's window has not ended) yield their chunks, then the parts' error.
func TestAPartsErrorComesAfterTheWindowsThatEndedBeforeIt(t *testing.T) {
	t.Parallel()
	doc := sectionsDoc(5)
	windowed, whole := readAheadChunker(t, sdk.Words{}, doc)
	want, err := whole.Chunk(context.Background(), conformance.Request(), doc)
	if err != nil {
		t.Fatal(err)
	}
	errRead := errors.New("read failed on purpose")
	parts := func(yield func(sdk.DocumentPart, error) bool) {
		for k := range 3 {
			if !yield(sdk.DocumentPart{Blocks: doc.Blocks[k*perSection : (k+1)*perSection]}, nil) {
				return
			}
		}
		yield(sdk.DocumentPart{}, errRead)
	}
	got, err := collectUntilError(t, windowed.ChunkParts(context.Background(), conformance.Request(), &sdk.Document{ID: doc.ID, Title: doc.Title}, parts))
	if !errors.Is(err, errRead) {
		t.Fatalf("error %v, want the parts'", err)
	}
	if diff := cmp.Diff(want[:firstOf(t, want, 2)], got); diff != "" {
		t.Fatalf("the chunks before the error are not those of the first two sections (-want +got):\n%s", diff)
	}

	// FixedTokens' windows end once a section's worth of text was read since the last: at the
	// error, the second window (the second section's paragraphs and the third's heading) has
	// ended; its chunks come, as far as its tokens make whole chunks, and none of the third's.
	size := doc.Canonical().Starts[perSection]
	fixed := &chunkers.FixedTokens{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 96, OverlapTokens: 16}, WindowBytes: size}
	fixedWhole := &chunkers.FixedTokens{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 96, OverlapTokens: 16}, WindowBytes: -1}
	want, err = fixedWhole.Chunk(context.Background(), conformance.Request(), doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err = collectUntilError(t, fixed.ChunkParts(context.Background(), conformance.Request(), &sdk.Document{ID: doc.ID, Title: doc.Title}, parts))
	if !errors.Is(err, errRead) {
		t.Fatalf("FixedTokens: error %v, want the parts'", err)
	}
	if len(got) > len(want) {
		t.Fatalf("FixedTokens: %d chunks before the error, more than the whole document's %d", len(got), len(want))
	}
	if diff := cmp.Diff(want[:len(got)], got); diff != "" {
		t.Fatalf("FixedTokens: the chunks before the error are not the whole document's first (-want +got):\n%s", diff)
	}
	var texts []string
	for _, c := range got {
		texts = append(texts, c.Content)
	}
	if !anyContains(texts, marker(1)) || anyContains(texts, marker(2)) {
		t.Errorf("FixedTokens: the chunks before the error hold the second section's text: %v, the third's: %v; want true, false",
			anyContains(texts, marker(1)), anyContains(texts, marker(2)))
	}
}
