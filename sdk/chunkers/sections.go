package chunkers

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultSplitLevel is the deepest heading level that starts a section in Sections.
const DefaultSplitLevel = 2

// NoSplit, as SplitLevel, makes the whole document one untitled section (the zero value means
// the default).
const NoSplit = -1

// Footnote keys. They belong in package sdk beside the other Meta keys; they live here until
// they move there.
const (
	// AttrFootnoteLabel is the Block.Attrs key an adapter sets on a footnote block to its
	// label, such as "1" for "[^1]: ...". Sections reads it, and falls back to the label the
	// text starts with ("[^label]:").
	AttrFootnoteLabel = "footnote_label"
	// MetaFootnoteLabel holds, on a chunk that holds nothing but a footnote's text, the
	// footnote's label.
	MetaFootnoteLabel = "footnote_label"
	// MetaFootnotes holds, on the first chunk that references a footnote ("[^label]" not
	// followed by ":"), the IDs of the other chunks that hold the text of the first footnote
	// with the label, in order.
	MetaFootnotes = "footnotes"
)

// Sections chunks a document the way doc2mark's chunk_content does — a section per heading
// down to SplitLevel, packed whole when it fits — without doc2mark's defects: a hard token
// budget, overlap in tokens that never crosses a section or cascades, a correct section
// hierarchy, exact offsets, and footnotes that are never lost or pushed over budget.
//
// A section starts at each non-blank heading whose level is at most SplitLevel (or, when the
// document has no such heading but deeper ones, at most its shallowest heading's level) and
// runs to the next; text before the first such heading is an untitled section. A section's SectionPath is
// the titles of the open section headings of lower level above it, then its own (an h3 nests
// under the h2 before it when SplitLevel is 3 or more; the untitled section is no one's
// ancestor). Headings deeper than SplitLevel are body text. Every chunk is a body chunk: the
// section heading's text is the first line of the section's first chunk. A section that fits
// MaxTokens is one chunk; a larger one is packed block by block into chunks within the budget,
// and blocks that do not fit alone are cut as HeadingAware cuts them (item lines, sentences,
// words, tokens only inside an over-budget word; tables and code at lines with their header
// repeated in Metadata[sdk.MetaPrefix]; KeepTablesWhole keeps an oversized table whole and
// marks it Metadata[sdk.MetaOverBudget]; comment- and anchor-only blocks join a neighbour). A
// section heading followed directly by another shares that one's chunk. With PackSections, a
// section that fits whole beside the chunk being packed joins it, and the chunk's SectionPath
// is the part the paths share. The next chunk of a section starts with up to OverlapTokens
// tokens of the previous chunk's own text, never of the overlap that chunk repeats. Context
// and EmbedText are as for HeadingAware (ContextTitlePath by default).
//
// A footnote block (sdk.KindFootnote) has the label Attrs[AttrFootnoteLabel], or the
// "[^label]:" its text starts with. A reference is "[^label]" not followed by ":", not escaped,
// outside code blocks and code spans, and goes to the first footnote block with its label, as
// goldmark links it. A footnote joins the chunk being packed when that chunk references the
// label and the footnote fits beside it, as doc2mark attaches it; otherwise it becomes chunks
// of its own in document order, after which no overlap reaches back. Either way Content stays
// Metadata[sdk.MetaPrefix] + canonical[Start:End] and every chunk keeps the budget. The first
// chunk that references a label lists the other chunks that hold the label's first footnote in
// Metadata[MetaFootnotes]; a chunk that holds nothing but footnote text carries
// Metadata[MetaFootnoteLabel], and when that is the label's first footnote, takes the
// referencing chunk's SectionPath, and has it as ParentID when it comes first (see
// footnoteLinker). No other chunk has a ParentID.
//
// Counter is required; the zero values of the other fields mean the documented defaults.
// Counter calls and verification are as for HeadingAware: one Boundaries and one Count call per
// window (see WindowBytes; a document of up to a window is one), and a further Count only for a
// chunk whose verified count exceeds its estimate. A window ends only before a section: a
// document without a heading that starts one (plain text, OCR output, NoSplit) is one window,
// measured whole, and so are a huge block's tokens, which HeadingAware cuts into parts. It is
// safe for concurrent use if its Counter and Sentences are.
type Sections struct {
	Config
	// SplitLevel is the deepest heading level that starts a section; 0 means 2 and NoSplit
	// (or any negative value) means no heading does.
	SplitLevel int
	// PackSections packs a section into the chunk being packed when it fits beside it whole.
	// It is off by default: on the evaluation sets measured it made retrieved chunks longer
	// without finding more (see docs/reference/chunkers.md).
	PackSections bool
	// WindowBytes is the canonical text a window holds at least before ChunkSeq and
	// ChunkParts end it before the next section heading at the outermost level (see
	// sections_stream.go); 0 means DefaultWindowBytes and a negative value one window for the
	// whole document. The chunks are the same whatever it is — it trades memory for calls to
	// the counter.
	WindowBytes int
}

// effectiveLevel returns the split level for doc: 0 for NoSplit; else SplitLevel (0 meaning
// DefaultSplitLevel), or, when doc has no non-blank heading that shallow but has deeper ones,
// the level of its shallowest heading.
func (s *Sections) effectiveLevel(doc *sdk.Document) int {
	split := s.SplitLevel
	switch {
	case split == 0:
		split = DefaultSplitLevel
	case split < 0:
		return 0
	}
	shallowest := 0
	for _, b := range doc.Blocks {
		if b.Kind == sdk.KindHeading && !sdk.IsBlank(b.Text) && b.Level > 0 && (shallowest == 0 || b.Level < shallowest) {
			shallowest = b.Level
		}
	}
	if shallowest > split {
		return shallowest
	}
	return split
}

// end returns where section k's text ends: the end of the last block before the next
// section's heading.
func (s sections) end(l *layout, k int) int {
	last := len(l.doc.Blocks) - 1
	if k+1 < len(s.list) {
		last = s.list[k+1].block - 1
	}
	return l.blockEnd(last)
}

// packs reports whether the section with path, whose text ends at end, joins the chunk being
// packed whole (PackSections), and if so makes the chunk's path the part the two paths share.
func (p *packer) packs(path []string, end int, cx *contexter) bool {
	c := p.cur
	if c == nil || c.overBudget {
		return false
	}
	common := path[:0:0]
	for k := 0; k < min(len(c.path), len(path)) && c.path[k] == path[k]; k++ {
		common = append(common, path[k])
	}
	ctx := cx.render(common)
	if p.curCtx.cost < ctx.cost {
		ctx = p.curCtx // a chunk that starts with a heading keeps its shorter context
	}
	if p.l.tokens(c.start, end)+p.curTok+ctx.cost > p.maxTokens {
		return false
	}
	c.path, c.context = common, ctx.text
	c.onlyHeadings = false
	p.path, p.ctx, p.headCtx, p.curCtx = common, ctx, ctx, ctx
	return true
}

// Chunk implements sdk.Chunker: it returns the chunks ChunkSeq yields.
func (s *Sections) Chunk(ctx context.Context, req sdk.Request, doc *sdk.Document) ([]sdk.Chunk, error) {
	return collect(s.ChunkSeq(ctx, req, doc))
}

const sectionsName = "sections chunker"

// chunkWindow returns the chunks of doc, the window at of a document whose sections start at
// headings of level split and above (effectiveLevel), which starts with the document or with
// a section heading that no section before it encloses (see sectionCutter).
func (s *Sections) chunkWindow(ctx context.Context, req sdk.Request, doc *sdk.Document, split int, at part, maxTokens, overlap int) ([]sdk.Chunk, []chunkNotes, error) {
	l, err := measureLayout(ctx, sectionsName, s.Counter, doc, all)
	if err != nil {
		return nil, nil, err
	}
	return s.chunkLayout(ctx, req, l, split, at, maxTokens, overlap)
}

// chunkLayout is chunkWindow once the window is measured: l is its layout.
func (s *Sections) chunkLayout(ctx context.Context, req sdk.Request, l *layout, split int, at part, maxTokens, overlap int) ([]sdk.Chunk, []chunkNotes, error) {
	const name = sectionsName
	doc := l.doc
	l.base = at.base
	starts := func(b sdk.Block) bool { return b.Level <= split }
	secs := headingSections(l, starts)
	cx := newContexter(l, s.contextMode(ContextTitlePath), maxTokens)
	secs.reserve(l, cx)
	sp := splitter{l: l, maxTokens: maxTokens, keepTables: s.KeepTablesWhole, sentences: s.Sentences, headings: true, overlap: overlap > 0}
	units, err := sp.units(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: document %q: %w", name, doc.ID, err)
	}
	for i, b := range doc.Blocks {
		if b.Kind == sdk.KindHeading && !starts(b) {
			for k := range units[i] {
				units[i][k].heading = false // a heading below the split level is body text
			}
		}
	}
	refs := windowRefs(l)
	p := packer{l: l, maxTokens: maxTokens, overlap: overlap, ownOverlap: true}
	for i, b := range doc.Blocks {
		if len(units[i]) == 0 {
			continue // blank: no text to pack, no section to start
		}
		switch k := secs.of[i]; {
		case k >= 0 && secs.list[k].block == i:
			path := secs.list[k].path
			if s.PackSections && p.packs(path, secs.end(l, k), cx) {
				break
			}
			p.openFolded(nil, path, cx)
		case b.Kind == sdk.KindFootnote && p.fits(units[i]) && refs.within(l, p.cur.start, p.cur.end, footnoteLabel(b)):
			// Packed with the chunk that references it, as doc2mark attaches it.
		case b.Kind == sdk.KindFootnote:
			p.open(nil, p.path, p.ctx)
			for _, u := range units[i] {
				p.add(u)
			}
			p.open(nil, p.path, p.ctx)
			continue
		}
		for _, u := range units[i] {
			p.add(u)
		}
	}
	p.flush()
	drafts, err := verify(ctx, name, s.Counter, l, p.out, maxTokens)
	if err != nil {
		return nil, nil, err
	}
	return finishPart(l, drafts, req, at), footnotesOf(l, drafts, refs), nil
}
