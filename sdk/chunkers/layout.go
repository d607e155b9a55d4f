package chunkers

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// layout is a document prepared for packing: its canonical text, the absolute end offset of
// every token of the blocks that were measured, what the parts of a context cost, and where a
// chunk may start or end without breaking a word.
type layout struct {
	doc   *sdk.Document
	canon sdk.Canonical
	// base is the offset of canon in the whole document's canonical text when doc is a
	// window of it (stream.go), for messages that name a position.
	base int
	// joined says, per block, that it continues the block before without a separator (the
	// parts of a large block, see splitLarge); nil when none does.
	joined []bool
	// heads holds, per block, the header it shares with the other parts of the table or code
	// block splitLarge cut it from (see partHead); nil when no block is such a part.
	heads    []*partHead
	sepTok   int     // tokens the separator between two blocks (and sdk.ContextJoin) costs
	arrowTok int     // tokens ContextSeparator costs
	ends     [][]int // per block, absolute token ends; nil for blocks not measured
	// retained counts the final chunks from pieces of the measured blocks (sdk.Retained), so
	// that a plugin counter is not sent their text again; textOf holds, per block, the index
	// of its text in the Boundaries call (-1 for blocks not measured). retained is nil when
	// nothing was measured.
	retained sdk.Retained
	textOf   []int
	all      []int // every measured token end, ascending
	// textTok holds the tokens of the document's title and of every measured heading's
	// trimmed text: the parts contexts are made of.
	textTok map[string]int
	// reserve holds, per block, the tokens a chunk of that block's section spends before its
	// content: its context and sdk.ContextJoin. The strategy fills it before making units.
	reserve []int
	// sentEnds holds, per prose block, its absolute sentence ends (set by splitter.units).
	sentEnds [][]int
	// strong holds, per block, its strong cuts, made on first use by blockStrong (cuts.go);
	// words, for blocks with long stretches without spaces, all its word starts.
	strong, words [][]int
}

// newLayout validates doc and measures, with one Boundaries call, the blocks that measure
// selects together with the document's title and the separators; a nil measure measures
// nothing and makes no call.
func newLayout(ctx context.Context, name string, counter sdk.TokenCounter, doc *sdk.Document, measure func(sdk.Block) bool) (*layout, error) {
	if err := checkInput(name, counter, doc); err != nil {
		return nil, err
	}
	return measureLayout(ctx, name, counter, doc, measure)
}

// checkInput reports a missing counter or a document that does not validate.
func checkInput(name string, counter sdk.TokenCounter, doc *sdk.Document) error {
	if counter == nil {
		return fmt.Errorf("%w: %s: no TokenCounter set", sdk.ErrInvalidConfig, name)
	}
	return doc.Validate()
}

// measureLayout is newLayout for a counter and document checkInput has passed.
func measureLayout(ctx context.Context, name string, counter sdk.TokenCounter, doc *sdk.Document, measure func(sdk.Block) bool) (*layout, error) {
	return measureWindow(ctx, name, counter, doc, nil, measure)
}

// measureWindow is measureLayout for a window whose block i continues block i-1 without a
// separator where joined[i] (the parts of a large block; see splitLarge); nil joined means
// none does.
func measureWindow(ctx context.Context, name string, counter sdk.TokenCounter, doc *sdk.Document, joined []bool, measure func(sdk.Block) bool) (*layout, error) {
	if measure == nil {
		return newWindowLayout(doc, joined, nil, nil), nil
	}
	m, err := measureBlocks(ctx, name, counter, doc.ID, doc.Title, doc.Blocks, measure)
	if err != nil {
		return nil, err
	}
	return newWindowLayout(doc, joined, nil, m), nil
}

// measurement is what one Boundaries call measured of a run of blocks: the separators and
// the title first (measuredExtra texts), then the blocks idx names, in order.
type measurement struct {
	bounds   [][]int
	retained sdk.Retained
	idx      []int // per text from measuredExtra on, the index of its block in the run
}

// measuredExtra is how many texts a measurement sends before the blocks': sdk.Separator,
// ContextSeparator and the document's title.
const measuredExtra = 3

// measureBlocks measures, with one Boundaries call, the blocks of a run (of document docID,
// titled title) that measure selects and are not blank, together with the title and the
// separators.
func measureBlocks(ctx context.Context, name string, counter sdk.TokenCounter, docID, title string, blocks []sdk.Block, measure func(sdk.Block) bool) (*measurement, error) {
	texts := []string{sdk.Separator, ContextSeparator, oneLine(title)}
	var idx []int
	for i, b := range blocks {
		if measure(b) && !sdk.IsBlank(b.Text) {
			texts = append(texts, b.Text)
			idx = append(idx, i)
		}
	}
	bounds, retained, err := sdk.RetainBoundaries(ctx, counter, texts)
	if err != nil {
		return nil, fmt.Errorf("%s: token boundaries of document %q: %w", name, docID, err)
	}
	if err := sdk.CheckBoundaries(texts, bounds); err != nil {
		return nil, fmt.Errorf("%s: token boundaries of document %q: %w", name, docID, err)
	}
	return &measurement{bounds: bounds, retained: retained, idx: idx}, nil
}

// newWindowLayout returns the layout of doc, whose block i continues block i-1 without a
// separator where joined[i], from what is known of its blocks' tokens: held[i], for the first
// len(held) blocks, holds the token ends of block i relative to its start, as an earlier
// window measured them (nil for a block not measured), and m measured the blocks after those;
// a nil m measured nothing. Pieces of the held blocks are counted as literals: the texts m
// retained are those of the later blocks only.
func newWindowLayout(doc *sdk.Document, joined []bool, held [][]int, m *measurement) *layout {
	if !slices.Contains(joined, true) {
		joined = nil
	}
	canon := doc.Canonical()
	if joined != nil {
		canon = joinedCanonical(doc, joined)
	}
	l := &layout{doc: doc, canon: canon, joined: joined, ends: make([][]int, len(doc.Blocks)),
		reserve: make([]int, len(doc.Blocks)), textTok: map[string]int{},
		strong: make([][]int, len(doc.Blocks)), words: make([][]int, len(doc.Blocks))}
	if m == nil {
		return l
	}
	from := len(held)
	bounds := m.bounds
	l.retained = m.retained
	l.textOf = make([]int, len(doc.Blocks))
	for i := range l.textOf {
		l.textOf[i] = -1
	}
	for k, i := range m.idx {
		l.textOf[from+i] = k + measuredExtra
	}
	l.sepTok, l.arrowTok = len(bounds[0]), len(bounds[1])
	if title := oneLine(doc.Title); title != "" {
		l.textTok[title] = len(bounds[2])
	}
	// rel holds, per block, its token ends relative to its start: the held blocks', then those
	// m measured; nil for a block not measured (a blank one among them), and only for those.
	rel := make([][]int, len(doc.Blocks))
	copy(rel, held)
	for k, i := range m.idx {
		rel[from+i] = bounds[k+measuredExtra]
	}
	n := 0
	for _, ends := range rel {
		n += len(ends)
	}
	// Every block's ends are its run of l.all, which is sized to hold them all and so never
	// moves; a window whose one measured block starts it has the counter's ends as they are.
	if from == 0 && len(m.idx) == 1 && l.canon.Starts[m.idx[0]] == 0 {
		i := m.idx[0]
		l.all = slices.Clip(rel[i])
		if l.all == nil {
			l.all = []int{}
		}
		l.ends[i] = l.all
	} else {
		l.all = make([]int, 0, n)
		for i, ends := range rel {
			if ends == nil {
				continue
			}
			start, from := l.canon.Starts[i], len(l.all)
			for _, e := range ends {
				l.all = append(l.all, start+e)
			}
			l.ends[i] = l.all[from:len(l.all):len(l.all)]
		}
	}
	for i, b := range doc.Blocks {
		if l.ends[i] != nil && b.Kind == sdk.KindHeading {
			a, b := trim(l.canon.Text, l.canon.Starts[i], l.blockEnd(i))
			l.textTok[oneLine(l.canon.Text[a:b])] = l.tokens(a, b)
		}
	}
	return l
}

// heldEnds returns, for each block from block from on, its token ends relative to its start,
// nil for a block not measured: what a later window that holds those blocks again knows of
// them (newWindowLayout's held).
func (l *layout) heldEnds(from int) [][]int {
	held := make([][]int, len(l.ends)-from)
	for k, ends := range l.ends[from:] {
		if ends == nil {
			continue
		}
		start := l.canon.Starts[from+k]
		held[k] = make([]int, len(ends))
		for j, e := range ends {
			held[k][j] = e - start
		}
	}
	return held
}

// joinedCanonical is doc.Canonical() without the separator before each block i where
// joined[i].
func joinedCanonical(doc *sdk.Document, joined []bool) sdk.Canonical {
	var sb strings.Builder
	starts := make([]int, len(doc.Blocks))
	for i, b := range doc.Blocks {
		if i > 0 && !joined[i] {
			sb.WriteString(sdk.Separator)
		}
		starts[i] = sb.Len()
		sb.WriteString(b.Text)
	}
	return sdk.Canonical{Text: sb.String(), Starts: starts}
}

// pieces returns canonical[a:b] as sdk.Pieces: ranges of the measured blocks' texts as they
// were sent to Boundaries, and literals for separators and blocks not measured.
func (l *layout) pieces(out []sdk.Piece, a, b int) []sdk.Piece {
	text := l.canon.Text
	for p := a; p < b; {
		i := l.blockAt(p)
		start, end := l.canon.Starts[i], l.blockEnd(i)
		switch {
		case p < start: // in the separator before block i (blockAt names the block after it)
			q := min(b, start)
			out = append(out, sdk.LiteralPiece(text[p:q]))
			p = q
		case p >= end: // in the separator after block i
			q := b
			if i+1 < len(l.canon.Starts) {
				q = min(b, l.canon.Starts[i+1])
			}
			out = append(out, sdk.LiteralPiece(text[p:q]))
			p = q
		default:
			q := min(b, end)
			if k := l.textOf[i]; k >= 0 {
				out = append(out, sdk.Piece{Text: k, Start: p - start, End: q - start})
			} else {
				out = append(out, sdk.LiteralPiece(text[p:q]))
			}
			p = q
		}
	}
	return out
}

// blockEnd returns the end offset of block i in the canonical text.
func (l *layout) blockEnd(i int) int { return l.canon.Starts[i] + len(l.doc.Blocks[i].Text) }

// blockAt returns the index of the block that holds offset off, or the block after the
// separator that holds it.
func (l *layout) blockAt(off int) int {
	i := sort.Search(len(l.canon.Starts), func(i int) bool { return l.canon.Starts[i] > off }) - 1
	return max(i, 0)
}

// tokens estimates the tokens of canonical[a:b]: within each measured block, the tokens that end
// inside the range plus the one that straddles its end, and the separator's cost between two
// blocks. It is an estimate because tokens may merge across the cuts; the final Count decides.
func (l *layout) tokens(a, b int) int {
	if a >= b {
		return 0
	}
	n, blocks := 0, 0
	for i := l.blockAt(a); i < len(l.doc.Blocks) && l.canon.Starts[i] < b; i++ {
		ends := l.ends[i]
		if ends == nil {
			continue
		}
		lo, hi := max(a, l.canon.Starts[i]), min(b, l.blockEnd(i))
		if lo >= hi {
			continue
		}
		j, _ := slices.BinarySearch(ends, lo+1)
		k, _ := slices.BinarySearch(ends, hi)
		n += k - j + 1
		if blocks > 0 && (l.joined == nil || !l.joined[i]) {
			n += l.sepTok
		}
		blocks++
	}
	return n
}

// tailStart returns where the last k tokens before end begin, not before floor.
func (l *layout) tailStart(end, k, floor int) int {
	if k <= 0 {
		return end
	}
	j, _ := slices.BinarySearch(l.all, end) // first token end ≥ end
	if j < len(l.all) && l.all[j] == end {
		j++
	}
	// Tokens j-k .. j-1 end at or before end; the tail starts where token j-k-1 ends.
	if j-k-1 < 0 {
		return floor
	}
	return max(l.all[j-k-1], floor)
}

// midToken returns a token end strictly inside (a, b), as near the middle as can be, or -1.
func (l *layout) midToken(a, b int) int {
	i, _ := slices.BinarySearch(l.all, a+1)
	j, _ := slices.BinarySearch(l.all, b)
	if i >= j {
		return -1
	}
	m := l.all[(i+j)/2]
	if m <= a || m >= b {
		return -1
	}
	return m
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// spanInfo is what a range of the canonical text touches: the kinds of its non-blank blocks,
// sorted, their first and last known page (0 when none is known), and their bounding boxes.
type spanInfo struct {
	kinds              []string
	pageStart, pageEnd int
	bboxes             []sdk.BBox
}

// span describes the range [a, b) of the canonical text.
func (l *layout) span(a, b int) spanInfo {
	var s spanInfo
	for i := l.blockAt(a); i < len(l.doc.Blocks) && l.canon.Starts[i] < b; i++ {
		blk := l.doc.Blocks[i]
		if l.blockEnd(i) <= a || sdk.IsBlank(blk.Text) {
			continue
		}
		if !slices.Contains(s.kinds, string(blk.Kind)) {
			s.kinds = append(s.kinds, string(blk.Kind))
		}
		if blk.Page > 0 {
			if s.pageStart == 0 || blk.Page < s.pageStart {
				s.pageStart = blk.Page
			}
			s.pageEnd = max(s.pageEnd, blk.Page)
		}
		if bb, ok := sdk.BlockBBox(blk); ok {
			s.bboxes = append(s.bboxes, bb)
		}
	}
	slices.Sort(s.kinds)
	return s
}

// trim narrows [a, b) of s to exclude white space at both ends.
func trim(s string, a, b int) (int, int) {
	start := a
	for a < b {
		r, size := utf8.DecodeRuneInString(s[a:b])
		if !unicode.IsSpace(r) {
			break
		}
		a += size
	}
	// A mark after a space (a combining accent, a joiner) is one word with it (UAX #29 WB4),
	// and with the spaces before it: begin at the last offset a cut may take, with them,
	// rather than inside that word. No ASCII character joins the space before it, so only a
	// non-ASCII one asks the segmenter.
	if a > start && a < b && s[a] >= utf8.RuneSelf {
		_, size := utf8.DecodeRuneInString(s[a:b])
		cuts := wordbreak.Starts(s[start : a+size]) // a-start among them unless the mark joins
		a = start
		if len(cuts) > 0 {
			a += cuts[len(cuts)-1]
		}
	}
	for b > a {
		r, size := utf8.DecodeLastRuneInString(s[a:b])
		if !unicode.IsSpace(r) {
			break
		}
		b -= size
	}
	return a, b
}
