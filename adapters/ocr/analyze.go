package ocr

import (
	"slices"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// wline is a line ready for analysis: the words kept, the words Options.MinConfidence dropped,
// the box of the kept words and the estimated font size.
type wline struct {
	words   []word
	dropped []word
	box     box
	size    float64
}

// wblock is a Tesseract block ready for analysis.
type wblock struct {
	box   box
	paras [][]*wline
}

// segment is one output block before heading levels are known. Its lines are held while it
// is being made; once it is added, what its block needs of them is in its lineSummary and the
// lines (their words) are let go, so that a document's words need not all be held at once.
type segment struct {
	kind   sdk.BlockKind
	text   string
	ratio  float64 // a heading's size relative to the page's body text
	lines  []*wline
	page   int
	table  [][]string
	extras map[string]any
	sum    lineSummary
}

// lineSummary is what a block needs of its lines: their box, the confidences of the words
// kept, and the words dropped, added up line by line in order.
type lineSummary struct {
	box         box
	confSum     float64
	confN       int
	dropped     int
	droppedText []string
}

// add adds lines to the summary.
func (m *lineSummary) add(lines []*wline) {
	for _, l := range lines {
		m.box = m.box.union(l.box)
		for _, w := range l.words {
			if w.conf >= 0 {
				m.confSum += w.conf
				m.confN++
			}
		}
		m.dropped += len(l.dropped)
		for _, w := range l.dropped {
			m.droppedText = append(m.droppedText, strings.TrimSpace(w.text))
		}
	}
}

// confidence is the mean confidence, 0–1, of the summarised lines' kept words that have one;
// ok is false when none has one.
func (m *lineSummary) confidence() (float64, bool) {
	if m.confN == 0 {
		return 0, false
	}
	return round4(m.confSum / float64(m.confN) / 100), true
}

// analyzer turns parsed pages into blocks; one is made per document. Pages are given to it
// one at a time, in order (addPage), and the document is made of them at the end (finish).
type analyzer struct {
	opts     Options
	engine   string
	pages    []map[string]any // Document.Metadata[MetaPages]
	segments []*segment
	dropped  []map[string]any
	nDropped int
}

func newAnalyzer(engine string, opts Options) *analyzer {
	return &analyzer{opts: opts, engine: engine}
}

// analyze sets doc's blocks and metadata from pages.
func analyze(doc *sdk.Document, pages []*page, engine string, opts Options) {
	a := newAnalyzer(engine, opts)
	for _, p := range pages {
		a.addPage(p)
	}
	a.finish(doc)
}

// addPage analyses the next page. The analyzer keeps nothing of p's words but the text and
// summaries of the blocks they make.
func (a *analyzer) addPage(p *page) {
	a.pages = append(a.pages, pageEntry(p.number, float64(p.width), float64(p.height)))
	a.page(p)
}

// finish sets doc's blocks and metadata from the pages added.
func (a *analyzer) finish(doc *sdk.Document) {
	if len(a.pages) > 0 {
		setMeta(doc, MetaPages, sdk.PageEntries{Key: "number", Entries: a.pages})
	}
	doc.Blocks = a.blocks()
	if a.nDropped > 0 {
		setMeta(doc, MetaDroppedWords, a.nDropped)
	}
	if len(a.dropped) > 0 {
		setMeta(doc, MetaDropped, sdk.PageEntries{Key: "page", Entries: a.dropped})
	}
	finishDocument(doc)
}

// prepare drops blank words and words below MinConfidence from a block, estimates line sizes
// and reports the kept words' box. Dropped words are counted and stay with their line.
func (a *analyzer) prepare(b *block, useEngineSize bool) *wblock {
	wb := &wblock{}
	minConf := a.opts.MinConfidence * 100
	for _, p := range b.paras {
		var lines []*wline
		for _, l := range p.lines {
			wl := &wline{}
			for _, w := range l.words {
				switch {
				case sdk.IsBlank(w.text):
				case w.conf >= 0 && w.conf < minConf:
					wl.dropped = append(wl.dropped, w)
					a.nDropped++
				default:
					wl.words = append(wl.words, w)
					wl.box = wl.box.union(w.box)
				}
			}
			if len(wl.words) == 0 && len(wl.dropped) == 0 {
				continue
			}
			if useEngineSize {
				wl.size = l.size
			} else if len(wl.words) > 0 {
				wl.size = lineSize(wl.words)
			}
			wb.box = wb.box.union(wl.box)
			lines = append(lines, wl)
		}
		if len(lines) > 0 {
			wb.paras = append(wb.paras, lines)
		}
	}
	return wb
}

// page analyses one page: blocks in reading order, tables, headings and paragraphs.
func (a *analyzer) page(p *page) {
	// The engine's sizes are used only when every line has one, so that all lines of a page
	// are measured alike.
	useEngineSize := true
	for _, b := range p.blocks {
		for _, pa := range b.paras {
			for _, l := range pa.lines {
				if l.size <= 0 && hasText(l.words) {
					useEngineSize = false
				}
			}
		}
	}
	var blocks []*wblock
	for _, b := range p.blocks {
		wb := a.prepare(b, useEngineSize)
		if len(wb.paras) == 0 {
			continue
		}
		if !blockHasWords(wb) { // every word dropped
			a.dropBlock(wb, p.number)
			continue
		}
		blocks = append(blocks, wb)
	}
	body := bodySize(blocks)
	if gap := a.opts.tableGap(); gap > 0 {
		blocks = mergeColumns(blocks, gap, body)
	}
	boxes := make([]box, len(blocks))
	for i, b := range blocks {
		boxes[i] = b.box
	}
	for _, i := range readingOrder(boxes) {
		a.block(blocks[i], p.number, body)
	}
}

func hasText(words []word) bool {
	for _, w := range words {
		if !sdk.IsBlank(w.text) {
			return true
		}
	}
	return false
}

// dropBlock records a block all of whose words fell below MinConfidence.
func (a *analyzer) dropBlock(wb *wblock, pageNo int) {
	var all []*wline
	for _, p := range wb.paras {
		all = append(all, p...)
	}
	var dropped box
	for _, l := range all {
		for _, w := range l.dropped {
			dropped = dropped.union(w.box)
		}
	}
	var bbox, conf any
	if dropped != (box{}) {
		bbox = dropped.floats()
	}
	if c, ok := droppedConfidence(all); ok {
		conf = c
	}
	var sum lineSummary
	sum.add(all)
	a.dropped = append(a.dropped, droppedEntry(strings.Join(sum.droppedText, " "), pageNo, bbox, conf))
}

// bodySize returns the median font size of a page's lines, each weighted by its word count,
// so that short heading lines barely move it; 0 when no line has a size.
func bodySize(blocks []*wblock) float64 {
	var sizes []float64
	for _, b := range blocks {
		for _, p := range b.paras {
			for _, l := range p {
				if l.size <= 0 {
					continue
				}
				for range l.words {
					sizes = append(sizes, l.size)
				}
			}
		}
	}
	return median(sizes)
}

// block turns one Tesseract block into segments: a table when its rows are cut by wide column
// gaps, and otherwise, per paragraph, runs of heading lines and runs of body lines.
func (a *analyzer) block(b *wblock, pageNo int, body float64) {
	var all []*wline
	for _, p := range b.paras {
		all = append(all, p...)
	}
	if gap := a.opts.tableGap(); gap > 0 {
		if t, ok := findTable(all, gap, body); ok {
			a.lines(all[:t.first], pageNo, body)
			a.add(&segment{kind: sdk.KindTable, text: t.render(), lines: all[t.first : t.last+1], page: pageNo, table: t.rows,
				extras: map[string]any{AttrColumns: t.columns, AttrRows: len(t.rows) - 1}})
			a.lines(all[t.last+1:], pageNo, body)
			return
		}
	}
	for _, p := range b.paras {
		a.lines(p, pageNo, body)
	}
}

// lines turns the lines of one paragraph into heading and paragraph segments. A heading line
// joins the heading before it when their sizes are within 10%; a multi-line heading is one
// heading whose lines are joined by spaces. Body lines are joined by newlines.
func (a *analyzer) lines(lines []*wline, pageNo int, body float64) {
	ratio := a.opts.headingRatio()
	var cur *segment
	for _, l := range lines {
		if len(l.words) == 0 {
			// Only dropped words: they belong with the lines around them.
			if cur == nil {
				cur = &segment{kind: sdk.KindParagraph, page: pageNo}
			}
			cur.lines = append(cur.lines, l)
			continue
		}
		r := 0.0
		if body > 0 && l.size > 0 {
			r = l.size / body
		}
		heading := ratio > 0 && r >= ratio
		switch {
		case cur == nil:
		case heading && cur.kind == sdk.KindHeading && r >= cur.ratio*0.9 && r <= cur.ratio/0.9:
			cur.lines = append(cur.lines, l)
			continue
		case !heading && cur.kind == sdk.KindParagraph:
			cur.lines = append(cur.lines, l)
			continue
		case heading && cur.kind == sdk.KindParagraph && !hasWords(cur.lines):
			// Dropped-only lines before a heading stay with it.
			cur.kind, cur.ratio = sdk.KindHeading, r
			cur.lines = append(cur.lines, l)
			continue
		default:
			a.add(cur)
		}
		cur = &segment{kind: sdk.KindParagraph, page: pageNo, lines: []*wline{l}}
		if heading {
			cur.kind, cur.ratio = sdk.KindHeading, r
		}
	}
	if cur != nil {
		a.add(cur)
	}
}

func blockHasWords(b *wblock) bool {
	for _, p := range b.paras {
		if hasWords(p) {
			return true
		}
	}
	return false
}

func hasWords(lines []*wline) bool {
	for _, l := range lines {
		if len(l.words) > 0 {
			return true
		}
	}
	return false
}

// add appends a segment; one holding only dropped words joins the segment before it on the
// page, or is recorded as dropped whole. The segment's lines are summarised and let go.
func (a *analyzer) add(s *segment) {
	if !hasWords(s.lines) {
		if n := len(a.segments); n > 0 && a.segments[n-1].page == s.page {
			a.segments[n-1].sum.add(s.lines)
			return
		}
		a.dropBlock(&wblock{paras: [][]*wline{s.lines}}, s.page)
		return
	}
	if s.text == "" {
		sep := "\n"
		if s.kind == sdk.KindHeading {
			sep = " "
		}
		var lines []string
		for _, l := range s.lines {
			if len(l.words) > 0 {
				lines = append(lines, joinWords(l.words))
			}
		}
		s.text = strings.Join(lines, sep)
	}
	s.sum.add(s.lines)
	s.lines = nil
	a.segments = append(a.segments, s)
}

func joinWords(words []word) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = strings.TrimSpace(w.text)
	}
	return strings.Join(parts, " ")
}

// droppedConfidence returns the mean confidence, 0–1, of the dropped words of lines, leaving
// out words without one; ok is false when none has one. (lineSummary.confidence is the kept
// words'.)
func droppedConfidence(lines []*wline) (float64, bool) {
	sum, n := 0.0, 0
	for _, l := range lines {
		for _, w := range l.dropped {
			if w.conf >= 0 {
				sum += w.conf
				n++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return round4(sum / float64(n) / 100), true
}

// blocks assigns heading levels and turns the segments into blocks. Heading sizes are ranked
// over the whole document: the largest is level 1, and each size more than 10% below the
// previous level's opens the next level, up to 6.
func (a *analyzer) blocks() []sdk.Block {
	var ratios []float64
	for _, s := range a.segments {
		if s.kind == sdk.KindHeading {
			ratios = append(ratios, s.ratio)
		}
	}
	levelOf := headingLevels(ratios)
	out := make([]sdk.Block, 0, len(a.segments))
	for _, s := range a.segments {
		attrs := map[string]any{AttrEngine: a.engine, AttrBBox: s.sum.box.floats()}
		if s.page > 0 {
			attrs[AttrPage] = s.page
		}
		if c, ok := s.sum.confidence(); ok {
			attrs[AttrConfidence] = c
		}
		if n := s.sum.dropped; n > 0 {
			attrs[AttrDroppedWords] = n
			attrs[AttrDroppedText] = strings.Join(s.sum.droppedText, " ")
		}
		for k, v := range s.extras {
			attrs[k] = v
		}
		b := sdk.Block{Kind: s.kind, Text: s.text, Page: s.page, Attrs: attrs}
		if s.kind == sdk.KindHeading {
			b.Level = levelOf(s.ratio)
		}
		out = append(out, b)
	}
	return out
}

// headingLevels ranks heading size ratios into levels 1 to 6 and returns the lookup.
func headingLevels(ratios []float64) func(float64) int {
	sorted := slices.Clone(ratios)
	slices.Sort(sorted)
	var tops []float64 // the largest ratio of each level, descending
	for i := len(sorted) - 1; i >= 0; i-- {
		r := sorted[i]
		if len(tops) == 0 || r < tops[len(tops)-1]*0.9 {
			tops = append(tops, r)
		}
	}
	return func(r float64) int {
		level := 1
		for i, t := range tops {
			if r >= t*0.9 || i == len(tops)-1 {
				level = i + 1
				break
			}
		}
		return min(level, 6)
	}
}
