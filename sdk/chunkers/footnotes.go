package chunkers

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// Sections' footnotes: what a window's chunks hold and reference (footnotesOf), and how the
// document's chunks are linked as they come (footnoteLinker).

// footnoteBlock is a labelled footnote block: its label, and where it starts in the
// document's canonical text, which tells one definition of a label from a later one.
type footnoteBlock struct {
	label string
	at    int
}

// chunkNotes is what linking footnotes needs of one chunk: the footnote block whose text it
// holds alone (label "" for none), the labelled footnote blocks whose text it holds, one a
// block, in order, and the labels of the footnote references in its text, in order (see
// windowRefs).
type chunkNotes struct {
	alone footnoteBlock
	holds []footnoteBlock
	refs  []string
}

// footnoteRef is a footnote reference in a window: where its "[^" is in the window's
// canonical text, and its label.
type footnoteRef struct {
	at    int
	label string
}

// footnoteRefs holds, per block of a window, the footnote references in its text.
type footnoteRefs [][]footnoteRef

// windowRefs returns the footnote references in the text of l's blocks (see eachReference),
// none in a code block, or nil when there is none at all.
func windowRefs(l *layout) footnoteRefs {
	var refs footnoteRefs
	for i, b := range l.doc.Blocks {
		if b.Kind == sdk.KindCode || !strings.Contains(b.Text, "[^") {
			continue
		}
		eachReference(b.Text, func(at int, label string) {
			if refs == nil {
				refs = make(footnoteRefs, len(l.doc.Blocks))
			}
			refs[i] = append(refs[i], footnoteRef{l.canon.Starts[i] + at, label})
		})
	}
	return refs
}

// each calls f with the label of every reference wholly inside [start, end) of l's canonical
// text, in order.
func (refs footnoteRefs) each(l *layout, start, end int, f func(label string)) {
	if refs == nil || start >= end {
		return
	}
	for i := l.blockAt(start); i < len(refs) && l.canon.Starts[i] < end; i++ {
		for _, r := range refs[i] {
			if r.at >= start && r.at+len("[^]")+len(r.label) <= end {
				f(r.label)
			}
		}
	}
}

// within reports whether [start, end) of l's canonical text references label.
func (refs footnoteRefs) within(l *layout, start, end int, label string) bool {
	found := false
	if label != "" {
		refs.each(l, start, end, func(r string) { found = found || r == label })
	}
	return found
}

// footnotesOf returns the chunkNotes of every draft, or nil when the window has neither a
// labelled footnote block nor a footnote reference.
func footnotesOf(l *layout, drafts []*draft, refs footnoteRefs) []chunkNotes {
	labels := make([]string, len(l.doc.Blocks)) // per block, the label of a footnote block
	any := refs != nil
	for i, b := range l.doc.Blocks {
		if b.Kind == sdk.KindFootnote {
			labels[i] = footnoteLabel(b)
			any = any || labels[i] != ""
		}
	}
	if !any {
		return nil
	}
	notes := make([]chunkNotes, len(drafts))
	for k, d := range drafts {
		n := &notes[k]
		if i := l.blockAt(d.start); labels[i] != "" && d.end <= l.blockEnd(i) {
			n.alone = footnoteBlock{labels[i], l.base + l.canon.Starts[i]}
		}
		for i := l.blockAt(d.start); i < len(labels) && l.canon.Starts[i] < d.end; i++ {
			if labels[i] != "" && l.blockEnd(i) > d.start {
				n.holds = append(n.holds, footnoteBlock{labels[i], l.base + l.canon.Starts[i]})
			}
		}
		refs.each(l, d.start, d.end, func(label string) { n.refs = append(n.refs, label) })
	}
	return notes
}

// footnoteLinker links the footnotes of a document's chunks as they come, in order (add, a
// window's chunks at a time, then endWindow), and hands each chunk back once its links are
// final (take), the rest at the end (finish). A reference "[^label]" goes to the first
// footnote block with that label, as goldmark links it; a later one with the same label is a
// chunk like any other and is linked to nothing. The first chunk that references a label
// lists the other chunks that hold that footnote's text in Metadata[MetaFootnotes]; a chunk
// that holds nothing but footnote text carries Metadata[MetaFootnoteLabel], and when it holds
// a label's first footnote, it takes the path of the label's first referencing chunk, and has
// it as parent when the reference comes first. So a chunk waits only while it is the first to
// reference a label whose footnote is not chunked yet, or holds a footnote alone whose first
// reference has not come; and the chunks after it wait with it, to keep their order.
type footnoteLinker struct {
	queue []*linkedChunk             // the chunks added and not taken yet, in order
	refs  map[string]*firstReference // per label, its first reference
	defs  map[string]*footnoteDef    // per label, its first footnote block
	fresh []*footnoteDef             // the footnotes first seen in the window being added
	// scan, when set, says which labels the document may define and reference: a chunk
	// does not wait for a footnote or a reference that is not among them (sdk.FootnoteScan).
	scan *sdk.FootnoteScan
}

// mayDefine reports whether a footnote with label may come.
func (l *footnoteLinker) mayDefine(label string) bool {
	return l.scan == nil || l.scan.Defined == nil || l.scan.Defined[label]
}

// mayReference reports whether a reference to label may come.
func (l *footnoteLinker) mayReference(label string) bool {
	return l.scan == nil || l.scan.Referenced == nil || l.scan.Referenced[label]
}

// scanBlocks returns what blocks, a whole document's, define and reference, as the linker
// reads them.
func scanBlocks(blocks []sdk.Block) *sdk.FootnoteScan {
	s := &sdk.FootnoteScan{Defined: map[string]bool{}, Referenced: map[string]bool{}}
	for _, b := range blocks {
		if b.Kind == sdk.KindFootnote {
			if label := footnoteLabel(b); label != "" {
				s.Defined[label] = true
			}
		}
		if b.Kind != sdk.KindCode && strings.Contains(b.Text, "[^") {
			eachReference(b.Text, func(_ int, label string) { s.Referenced[label] = true })
		}
	}
	return s
}

// linkedChunk is a chunk the linker holds.
type linkedChunk struct {
	c     *sdk.Chunk
	waits int            // the links it waits for
	notes []heldFootnote // the chunks that hold the footnotes of the labels it references first
	// held says that the chunk is held past its window without its Content, and texts are
	// the pieces the Content is made of (sectionWindows.hold).
	held  bool
	texts []string
}

// heldFootnote is a chunk that holds a footnote's text.
type heldFootnote struct {
	position int
	id       string
}

// firstReference is a label's first referencing chunk, as the chunks linked to it need it.
type firstReference struct {
	id      string
	path    []string
	title   string
	waiting *linkedChunk // the chunk, while it waits for the label's footnote to be chunked
}

// footnoteDef is a label's first footnote block.
type footnoteDef struct {
	footnoteBlock
	holders []heldFootnote // the chunks that hold its text, in order
	chunked bool           // all of them are known
	alone   []*linkedChunk // chunks that hold its text alone, waiting for its first reference
}

// add takes the next chunk of the document and its notes.
func (l *footnoteLinker) add(c *sdk.Chunk, n chunkNotes) {
	lc := &linkedChunk{c: c}
	l.queue = append(l.queue, lc)
	for _, label := range n.refs {
		if label == n.alone.label || l.refs[label] != nil {
			continue // a footnote's own label, or one referenced before
		}
		label = strings.Clone(label)
		r := &firstReference{id: c.ID, title: strings.Clone(c.SectionTitle), path: make([]string, len(c.SectionPath))}
		for k, s := range c.SectionPath {
			r.path[k] = strings.Clone(s)
		}
		if l.refs == nil {
			l.refs = map[string]*firstReference{}
		}
		l.refs[label] = r
		d := l.defs[label]
		if d != nil && d.chunked {
			lc.notes = append(lc.notes, d.holders...)
		} else if d != nil || l.mayDefine(label) {
			r.waiting = lc
			lc.waits++
		}
		if d != nil {
			for _, a := range d.alone { // footnote chunks that came before this reference
				a.c.SectionPath, a.c.SectionTitle = slices.Clone(r.path), r.title
				a.waits--
			}
			d.alone = nil
		}
	}
	for _, h := range n.holds {
		d := l.defs[h.label]
		if d == nil {
			d = &footnoteDef{footnoteBlock: footnoteBlock{strings.Clone(h.label), h.at}}
			if l.defs == nil {
				l.defs = map[string]*footnoteDef{}
			}
			l.defs[d.label] = d
			l.fresh = append(l.fresh, d)
		}
		if h.at != d.at {
			continue // a later footnote with the label: linked to nothing
		}
		if k := len(d.holders); k == 0 || d.holders[k-1].position != c.Position {
			d.holders = append(d.holders, heldFootnote{c.Position, c.ID})
		}
	}
	if a := n.alone; a.label != "" {
		c.Metadata[MetaFootnoteLabel] = strings.Clone(a.label)
		d := l.defs[a.label] // holds added it
		if d == nil || d.at != a.at {
			return // a later footnote with the label
		}
		if r := l.refs[a.label]; r != nil {
			c.SectionPath, c.SectionTitle = slices.Clone(r.path), r.title
			c.ParentID = r.id
		} else if l.mayReference(a.label) {
			d.alone = append(d.alone, lc)
			lc.waits++
		}
	}
}

// endWindow says that the chunks of a window are all added: the footnotes first seen in it
// are chunked, and the first chunk that references one of them learns which chunks hold it.
func (l *footnoteLinker) endWindow() {
	for _, d := range l.fresh {
		d.chunked = true
		if r := l.refs[d.label]; r != nil && r.waiting != nil {
			r.waiting.notes = append(r.waiting.notes, d.holders...)
			r.waiting.waits--
			r.waiting = nil
		}
	}
	l.fresh = l.fresh[:0]
}

// finish says that the document has no more chunks: what the chunks still wait for will not
// come (a label without a footnote, a footnote without a reference).
func (l *footnoteLinker) finish() {
	l.endWindow()
	for _, lc := range l.queue {
		lc.waits = 0
	}
	for _, r := range l.refs {
		r.waiting = nil
	}
	for _, d := range l.defs {
		d.alone = nil
	}
}

// take hands the chunks whose links are final, from the first added on, to yield until it
// returns false, and reports whether it did not.
func (l *footnoteLinker) take(yield func(*linkedChunk) bool) bool {
	for len(l.queue) > 0 && l.queue[0].waits == 0 {
		lc := l.queue[0]
		l.queue[0] = nil
		l.queue = l.queue[1:]
		lc.link()
		if !yield(lc) {
			return false
		}
	}
	if len(l.queue) == 0 {
		l.queue = nil // let the array go
	}
	return true
}

// link lists the other chunks that hold the footnotes of the labels the chunk references
// first in Metadata[MetaFootnotes].
func (lc *linkedChunk) link() {
	notes := lc.notes
	if len(notes) == 0 {
		return
	}
	slices.SortFunc(notes, func(a, b heldFootnote) int { return cmp.Compare(a.position, b.position) })
	notes = slices.CompactFunc(notes, func(a, b heldFootnote) bool { return a.position == b.position })
	ids := make([]string, 0, len(notes))
	for _, h := range notes {
		if h.position != lc.c.Position {
			ids = append(ids, h.id)
		}
	}
	if len(ids) > 0 {
		lc.c.Metadata[MetaFootnotes] = ids
	}
	lc.notes = nil
}

// linkWhole links the footnotes of chunks, a whole document's, with notes their chunkNotes
// (nil for none).
func linkWhole(chunks []sdk.Chunk, notes []chunkNotes) {
	if notes == nil {
		return // no labelled footnote block and no reference: nothing to link
	}
	var l footnoteLinker
	for k := range chunks {
		l.add(&chunks[k], notes[k])
	}
	l.finish()
	l.take(func(*linkedChunk) bool { return true })
}

// footnoteLabel returns a footnote block's label: Attrs[AttrFootnoteLabel] when it is a
// non-empty string, else the label of the "[^label]:" the text starts with, else "".
func footnoteLabel(b sdk.Block) string {
	if s, ok := b.Attrs[AttrFootnoteLabel].(string); ok && strings.TrimSpace(s) != "" {
		return strings.TrimSpace(s)
	}
	return sdk.FootnoteDefinition(b.Text)
}

// eachReference calls f with the offset and label of every footnote reference "[^label]" in
// s that is not a definition (followed by ":"), not escaped ("\[^label]") and not inside a
// code span (see codeSpans), where goldmark would not read one either.
func eachReference(s string, f func(at int, label string)) {
	spans := codeSpans(s)
	for i := 0; ; {
		j := strings.Index(s[i:], "[^")
		if j < 0 {
			return
		}
		at := i + j
		for len(spans) > 0 && spans[0][1] <= at {
			spans = spans[1:]
		}
		if len(spans) > 0 && spans[0][0] <= at {
			i = spans[0][1] // in a code span: go on after it
			continue
		}
		i = at + len("[^")
		rest := s[i:]
		k, ok := sdk.FootnoteLabelAt(rest) // up to the first byte no label holds: linear
		if !ok {
			i += k
			continue
		}
		if label := rest[:k]; !strings.HasPrefix(rest[k+1:], ":") && !escaped(s, at) {
			f(at, label)
		}
	}
}

// escaped reports whether the byte of s at i follows an odd number of backslashes.
func escaped(s string, i int) bool {
	n := 0
	for i-n > 0 && s[i-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// codeSpans returns where s has code spans, as [start, end) pairs in order: CommonMark's, from
// a run of backticks to the next run of as many. A backslash before a run escapes its first
// backtick, so the run opens a span one backtick shorter; it does not escape a run that closes
// one, whose content is literal.
func codeSpans(s string) [][2]int {
	if strings.IndexByte(s, '`') < 0 {
		return nil
	}
	type run struct {
		at, n int
		esc   bool // escaped: it opens a span one backtick shorter, at at+1
	}
	var runs []run
	byLen := map[int][]int{} // the runs of each length, in order
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			break
		}
		at, n := i+j, 1
		for at+n < len(s) && s[at+n] == '`' {
			n++
		}
		byLen[n] = append(byLen[n], len(runs))
		runs = append(runs, run{at, n, escaped(s, at)})
		i = at + n
	}
	var spans [][2]int
	for k := 0; k < len(runs); k++ {
		at, n := runs[k].at, runs[k].n
		if runs[k].esc {
			at, n = at+1, n-1
		}
		same := byLen[n]
		if j := sort.SearchInts(same, k+1); n > 0 && j < len(same) {
			end := runs[same[j]]
			spans = append(spans, [2]int{at, end.at + end.n})
			k = same[j]
		}
	}
	return spans
}
