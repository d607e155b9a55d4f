package chunkers

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/sentence"
	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// unit is a piece of a block that packing never splits.
type unit struct {
	start, end int
	block      int
	header     string // a later part of a split table or code block starts with this text
	headerTok  int
	overBudget bool // a table kept whole over budget by KeepTablesWhole
	heading    bool // a heading's text
	// fresh starts a chunk: the first unit of a sentence or word that had to be cut at words
	// or tokens, so that such a cut falls inside it only where the budget forces one.
	fresh bool
	// bare is a word that fits the budget only without its section's context: it makes a
	// chunk of its own with no context rather than be cut.
	bare bool
}

// splitter cuts blocks into units that fit the budget.
type splitter struct {
	l          *layout
	maxTokens  int
	keepTables bool
	sentences  sdk.SentenceSplitter
	headings   bool // headings are units too (folded into body chunks)
	overlap    bool // chunks overlap, so every prose block's sentence starts are wanted
	// from is the first block to cut into units: the blocks before it are a window's held
	// again for chunks packed before it (see carry), which need their sentence ends only.
	from int
}

// room returns the tokens a unit of block i may take: the budget less what its section's
// context costs, and at least 1.
func (s *splitter) room(i int) int { return max(1, s.maxTokens-s.l.reserve[i]) }

// delimiterRow matches a GFM table's delimiter row, such as "|---|:--:|".
var delimiterRow = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// noise matches a block that is nothing but HTML comments and empty anchors, such as
// "<!-- YAML added: v8.2.0 -->" or `<a id="ERR_X"></a>`: text no one searches for, which joins
// a neighbouring block's chunk instead of making one of its own.
var noise = regexp.MustCompile(`^(?:\s*(?:<!--[\s\S]*?-->|<a\s+(?:id|name)\s*=\s*(?:"[^"]*"|'[^']*')\s*(?:/>|>\s*</a>)))+\s*$`)

// The levels at which an oversized block is cut, coarsest first.
const (
	// cutLines cuts at line starts that begin an item (list items, link definitions,
	// badges), that follow a sentence end, and at every line start of paragraph-per-line text.
	cutLines = iota
	// cutSentences cuts at sentence ends.
	cutSentences
	// cutWords cuts at UAX #29 word starts, punctuation staying with the word before.
	cutWords
	// cutSegments cuts at every UAX #29 boundary, so that a word leaves its punctuation.
	cutSegments
	// cutTokens cuts at token boundaries: inside a word over the budget only.
	cutTokens
)

// units returns, per block, the units of its text: the whole block when it fits; rows or lines
// for a table or code block that does not; item lines, sentences, words and, inside a word
// over the budget, token windows for other blocks. The prose blocks go to the sentence
// splitter in one call — all of them when chunks overlap, so that overlaps can start at
// sentences, else those that do not fit — and the layout keeps their ends. A block that is
// only comments and anchors is joined to the unit of a neighbouring block (the next first)
// when the two fit together.
func (s *splitter) units(ctx context.Context) ([][]unit, error) {
	l := s.l
	blocks := l.doc.Blocks
	out := make([][]unit, len(blocks))
	var prose []int
	for i, b := range blocks {
		if l.ends[i] == nil || !isProse(b) {
			continue
		}
		// Without overlap, sentences matter only where a block is cut.
		if s.overlap || l.tokens(trim(l.canon.Text, l.canon.Starts[i], l.blockEnd(i)))+l.reserve[i] > s.maxTokens {
			prose = append(prose, i)
		}
	}
	ends, err := s.splitSentences(ctx, prose)
	if err != nil {
		return nil, err
	}
	sentEnds := make([][]int, len(blocks)) // absolute sentence ends of prose blocks
	for k, i := range prose {
		for _, e := range ends[k] {
			sentEnds[i] = append(sentEnds[i], l.canon.Starts[i]+e)
		}
	}
	l.sentEnds = sentEnds
	for i, b := range blocks {
		if i < s.from || l.ends[i] == nil || (b.Kind == sdk.KindHeading && !s.headings) {
			continue
		}
		start, end := l.trimmed(i)
		l.notePartHead(i)
		switch {
		case l.tokens(start, end) <= s.room(i) && !l.laterPart(i):
			out[i] = []unit{{start: start, end: end, block: i, heading: b.Kind == sdk.KindHeading}}
		case b.Kind == sdk.KindTable && s.keepTables:
			out[i] = []unit{{start: start, end: end, block: i, overBudget: true}}
		case b.Kind == sdk.KindTable || b.Kind == sdk.KindCode:
			out[i] = s.lines(i, start, end)
		default:
			out[i] = s.split(i, start, end, cutLines, sentEnds[i], "", 0)
			if b.Kind == sdk.KindHeading {
				for k := range out[i] {
					out[i][k].heading = true
				}
			}
		}
	}
	for i := range out {
		// A later part of a large prose block (splitLarge) goes on with the text before it:
		// the cut made there for memory's sake does not start a chunk. One of a table or code
		// block starts at a line start, where its units start as the whole block's do.
		if l.joined != nil && l.joined[i] && !l.laterPart(i) && len(out[i]) > 0 && !out[i][0].bare {
			out[i][0].fresh = false
		}
	}
	s.glueNoise(out)
	return out, nil
}

// isProse reports whether b's text reads as sentences: every kind but headings, tables and
// code.
func isProse(b sdk.Block) bool {
	return b.Kind != sdk.KindHeading && b.Kind != sdk.KindTable && b.Kind != sdk.KindCode
}

func (s *splitter) splitSentences(ctx context.Context, prose []int) ([][]int, error) {
	if len(prose) == 0 {
		return nil, nil
	}
	texts := make([]string, len(prose))
	for k, i := range prose {
		texts[k] = s.l.doc.Blocks[i].Text
	}
	sentences := s.sentences
	if sentences == nil {
		sentences = sentence.Splitter{}
	}
	ends, err := sentences.Split(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("splitting sentences: %w", err)
	}
	if len(ends) != len(texts) {
		return nil, fmt.Errorf("%w: sentence splitter answered %d texts for %d", sdk.ErrBadResponse, len(ends), len(texts))
	}
	for k, e := range ends {
		prev := 0
		for _, x := range e {
			if x < prev || x > len(texts[k]) {
				return nil, fmt.Errorf("%w: sentence splitter: text %d: sentence end %d is not in [%d, %d]", sdk.ErrBadResponse, k, x, prev, len(texts[k]))
			}
			if x < len(texts[k]) && !utf8.RuneStart(texts[k][x]) {
				// A plugin's ends are checked by the host; a splitter in process is not.
				return nil, fmt.Errorf("%w: sentence splitter: text %d: sentence end %d is inside a character", sdk.ErrBadResponse, k, x)
			}
			prev = x
		}
	}
	// A plugin's splitter may end a sentence inside a word; the chunker never cuts there.
	moved := false
	for k, e := range ends {
		if w, changed := wholeWordEnds(texts[k], e); changed {
			if !moved {
				ends, moved = slices.Clone(ends), true
			}
			ends[k] = w
		}
	}
	return ends, nil
}

// split cuts [a, b) of block i into units that fit, at the coarsest level that has cuts inside
// the range: item lines, sentences, words, and token windows last.
func (s *splitter) split(i, a, b, level int, sentEnds []int, header string, headerTok int) (out []unit) {
	if s.l.tokens(a, b)+headerTok <= s.room(i) || level == cutTokens {
		return s.windows(i, a, b, header, headerTok)
	}
	cuts := s.cutsIn(i, a, b, level, sentEnds)
	if len(cuts) == 0 {
		return s.split(i, a, b, level+1, sentEnds, header, headerTok)
	}
	if level >= cutWords {
		defer func() { out[0].fresh = true }()
	}
	prev := a
	for _, c := range append(cuts, b) {
		// A piece ends where its text does: white space before the next piece would cost
		// the estimate the token that starts after it.
		if pa, pb := trim(s.l.canon.Text, prev, c); pa < pb {
			out = append(out, s.split(i, pa, pb, level+1, sentEnds, header, headerTok)...)
		}
		prev = c
	}
	return out
}

// cutsIn returns the cuts of the level strictly inside (a, b), ascending.
func (s *splitter) cutsIn(i, a, b, level int, sentEnds []int) []int {
	text := s.l.canon.Text
	var out []int
	switch level {
	case cutLines:
		linkDefs, _ := s.l.doc.Blocks[i].Attrs["link_definitions"].(bool)
		linkDefs = linkDefs || paragraphLines(s.l.doc.Blocks[i].Text)
		for off := a; ; {
			nl := strings.IndexByte(text[off:b], '\n')
			if nl < 0 {
				break
			}
			if off+nl+1 < b && (linkDefs || endsSentence(text[a:off+nl]) || startsItem(text[off+nl+1:b])) {
				out = append(out, off+nl+1)
			}
			off += nl + 1
		}
	case cutSentences:
		for _, e := range sentEnds {
			if e > a && e < b {
				out = append(out, e)
			}
		}
	case cutWords:
		out = s.l.cutsBetween(a, b)
	case cutSegments:
		for _, w := range wordbreak.Segments(text[a:b]) {
			if c := a + w.Start; c > a {
				out = append(out, c)
			}
		}
	}
	return out
}

// paragraphLines reports whether text is made of long lines, 200 bytes or more on average:
// text that puts a paragraph on each line, whose every line end is a place to cut.
func paragraphLines(text string) bool {
	n := strings.Count(strings.TrimSpace(text), "\n")
	return n > 0 && len(text)/(n+1) >= 200
}

// endsSentence reports whether s, the text before a line break, ends with a sentence's final
// punctuation (a closing quote or bracket after it included): the line break is then a
// paragraph's end in text that puts one paragraph on each line.
func endsSentence(s string) bool {
	s = strings.TrimRight(s, " \t\"'”’)]»")
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?。！？", r)
}

// startsItem reports whether a line begins an item of a block made of lines: a list item,
// a link reference definition, an image or badge, an HTML tag, a table row or a quote.
func startsItem(line string) bool {
	line = strings.TrimLeft(line, " \t")
	if line == "" {
		return false
	}
	switch line[0] {
	case '-', '*', '+':
		return len(line) > 1 && (line[1] == ' ' || line[1] == '\t')
	case '[', '!', '<', '|', '>':
		return true
	}
	j := 0
	for j < len(line) && j < 9 && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	return j > 0 && j+1 < len(line) && (line[j] == '.' || line[j] == ')') && line[j+1] == ' '
}

// lines cuts a table or code block at line ends. Later parts repeat the header: a table's
// header and delimiter rows, or a code block's opening fence. A line still over budget is cut
// at words, and inside a word over the budget at tokens.
func (s *splitter) lines(i, start, end int) []unit {
	text := s.l.canon.Text
	var cuts []int // line ends, newline included
	for off := start; off < end; {
		nl := strings.IndexByte(text[off:end], '\n')
		if nl < 0 {
			cuts = append(cuts, end)
			break
		}
		off += nl + 1
		cuts = append(cuts, off)
	}
	header, headerTok, hdrEnd, ok := s.l.header(i)
	later := s.l.laterPart(i)
	if !ok || hdrEnd >= end && !later || headerTok > s.maxTokens/2 { // none, all header, or too long to repeat
		header, headerTok, ok = "", 0, false
	}
	var out []unit
	prev := start
	for _, c := range cuts {
		if ok && c < hdrEnd {
			continue // the header rows travel as one unit
		}
		h, ht := header, headerTok
		if prev == start && !later {
			h, ht = "", 0
		}
		out = append(out, s.split(i, prev, c, cutWords, nil, h, ht)...)
		prev = c
	}
	return out
}

// headerLen returns how many bytes of text, a block of kind kind without leading white space,
// its header takes, its newline included: a table's header row, with its delimiter row when
// there is one, or a fenced code block's opening fence. It reports false for other kinds and
// for code without a fence.
func headerLen(kind sdk.BlockKind, text string) (int, bool) {
	if kind != sdk.KindTable && kind != sdk.KindCode {
		return 0, false
	}
	lineEnd := func(off int) int {
		if nl := strings.IndexByte(text[off:], '\n'); nl >= 0 {
			return off + nl + 1
		}
		return len(text)
	}
	first := lineEnd(0)
	if kind == sdk.KindCode {
		f := strings.TrimSpace(text[:first])
		return first, strings.HasPrefix(f, "```") || strings.HasPrefix(f, "~~~")
	}
	if first < len(text) && delimiterRow.MatchString(text[first:lineEnd(first)]) {
		return lineEnd(first), true
	}
	return first, true
}

// partHead is the header of a table or code block that splitLarge cut into parts, which every
// part after the first repeats before its lines as a block split whole repeats it before its
// later lines: the header's text and tokens as the first part has them (see layout.header),
// known once that part is cut into units; text is "" when the block has no header.
type partHead struct {
	text  string
	tok   int
	known bool
}

// notePartHead records the header of block i in the partHead it shares with the later parts
// when it is the first part of a table or code block that splitLarge cut, once.
func (l *layout) notePartHead(i int) {
	if h := l.head(i); h != nil && !l.laterPart(i) && !h.known {
		text, tok, _, _ := l.header(i)
		*h = partHead{text: text, tok: tok, known: true}
	}
}

// header returns the header of table or code block i, which its lines after it repeat as
// Metadata["prefix"] (when not over half the budget, see lines) and an overlap starting
// among them takes as its prefix: its text and tokens, and where in the block the lines after
// it start. A later part of a block splitLarge cut has the first part's header, and its lines
// start at its start. ok is false when the block has no header.
func (l *layout) header(i int) (text string, tok, end int, ok bool) {
	if l.laterPart(i) {
		h := l.heads[i]
		return h.text, h.tok, l.canon.Starts[i], h.text != ""
	}
	start, blockEnd := l.trimmed(i)
	n, ok := headerLen(l.doc.Blocks[i].Kind, l.canon.Text[start:blockEnd])
	if !ok {
		return "", 0, 0, false
	}
	end = start + n
	return l.canon.Text[start:end], l.tokens(start, end), end, true
}

// trimmed returns block i's text without the white space around it, as canonical offsets;
// a later part of a table or code block splitLarge cut keeps its leading white space, the
// indentation of a line that the whole block's units keep.
func (l *layout) trimmed(i int) (start, end int) {
	start, end = trim(l.canon.Text, l.canon.Starts[i], l.blockEnd(i))
	if l.laterPart(i) {
		start = l.canon.Starts[i]
	}
	return start, end
}

// head returns the header block i shares with the other parts of the table or code block
// splitLarge cut it from, or nil when it is not such a part.
func (l *layout) head(i int) *partHead {
	if l.heads == nil {
		return nil
	}
	return l.heads[i]
}

// laterPart reports whether block i is a part after the first of a table or code block that
// splitLarge cut.
func (l *layout) laterPart(i int) bool {
	return l.head(i) != nil && l.joined != nil && l.joined[i]
}

// windows returns [a, b) as one unit when it fits, else cut into windows of as many tokens as
// fit, at token boundaries.
func (s *splitter) windows(i, a, b int, header string, headerTok int) []unit {
	l := s.l
	room := s.room(i)
	n := l.tokens(a, b) + headerTok
	if n <= room {
		return []unit{{start: a, end: b, block: i, header: header, headerTok: headerTok}}
	}
	if n <= s.maxTokens {
		return []unit{{start: a, end: b, block: i, header: header, headerTok: headerTok, bare: true, fresh: true}}
	}
	w := max(1, room-headerTok)
	var out []unit
	lo, _ := slices.BinarySearch(l.all, a+1)
	prev := a
	for k := lo + w - 1; k < len(l.all) && l.all[k] < b; k += w {
		if l.all[k] > prev {
			out = append(out, unit{start: prev, end: l.all[k], block: i, header: header, headerTok: headerTok})
			prev = l.all[k]
		}
	}
	out = append(out, unit{start: prev, end: b, block: i, header: header, headerTok: headerTok})
	out[0].fresh = true
	return out
}

// glueNoise joins each block that is one unit of nothing but comments and anchors to the
// first unit of the next block, or else to the last unit of the block before, when the two fit
// together and nothing but blank blocks lies between them; otherwise it stays a unit of its
// own. A heading that is not a unit (HeadingChunks) is a wall: nothing glues across it.
func (s *splitter) glueNoise(units [][]unit) {
	l := s.l
	blocks := l.doc.Blocks
	neighbour := func(i, step int) int {
		for j := i + step; j >= 0 && j < len(blocks); j += step {
			if len(units[j]) > 0 {
				return j
			}
			if !sdk.IsBlank(blocks[j].Text) {
				return -1
			}
		}
		return -1
	}
	for i := range blocks {
		if len(units[i]) != 1 || units[i][0].overBudget || !noise.MatchString(blocks[i].Text) {
			continue
		}
		g := units[i][0]
		if j := neighbour(i, 1); j >= 0 {
			u := &units[j][0]
			if u.header == "" && !u.overBudget && l.tokens(g.start, u.end)+u.headerTok <= s.room(j) {
				u.start = g.start
				units[i] = nil
				continue
			}
		}
		if j := neighbour(i, -1); j >= 0 {
			u := &units[j][len(units[j])-1]
			if !u.overBudget && l.tokens(u.start, g.end)+u.headerTok <= s.room(j) {
				u.end = g.end
				units[i] = nil
			}
		}
	}
}
