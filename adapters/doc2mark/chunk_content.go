package doc2mark

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// sep joins rendered items, and an overlap to the chunk it precedes.
const sep = "\n\n"

// ChunkContent is a twin of doc2mark's chunk_content (doc2mark/core/chunker.py): for the same
// items and config it returns the same chunks, byte for byte, quirks included — with
// ContentTypes sorted, since doc2mark's order is a Python set's. docs/reference/doc2mark.md
// states the rules and the quirks; in short:
//
//   - Footnote items are taken out first and appended after overlap: each to the first chunk
//     that references its "[^label]", the rest to the last chunk.
//   - Sections start at text:title (level 1) and text:section (level 2, whatever the item's
//     Level says) items whose level is at most SplitOnHeadingLevel; a section's hierarchy keeps only the first entry of the one
//     before it, so a section without a title is the ancestor of the next.
//   - Items render as Markdown (text:header and text:footer as nothing) joined by "\n\n"; a
//     section that fits MaxChunkSize is one chunk; otherwise its items are packed in order and
//     never split, and with KeepTablesWhole a table joins the chunk even when it overflows it.
//   - Overlap: the tail of the previous chunk's final content — so it cascades through short
//     chunks — cut after its first space, then "\n\n", before each chunk but the first.
//
// A nil cfg means DefaultConfig. With cfg.SizeUnit "tokens", sizes and the overlap tail are
// measured with counter, which must count cfg.EncodingName (see ChunkingConfig.TokenizerSpec);
// otherwise counter is not used and may be nil. Token mode calls the counter O(1) times per
// document in the usual case: one Count over every section's text, one Count over the items
// of the sections that do not fit (only when one does not), and, when there is overlap, one
// Boundaries over the chunks before overlap (each but the first after the last 64 bytes or so
// of the one before and "\n\n", so that tokens across the seam are known), and one over the
// chunks after it, which confirms the overlap tails predicted from the first. Where a
// predicted tail is still wrong, the chunks from there on are rebuilt and confirmed by further
// calls, each over twice as many chunks as the one before confirmed, so that a counter the
// prediction keeps missing costs about one call per chunk — as many as doc2mark makes — and
// never a quadratic amount of text. doc2mark counts every candidate string on its own.
//
// Differences that cannot be helped: a token-mode overlap tail that starts inside a
// multi-byte character and holds no space starts at the next whole character, where doc2mark
// decodes the broken bytes to U+FFFD; and special-token text such as "<|endoftext|>" is
// counted as text, where doc2mark's tiktoken call raises an error.
//
// No items give an empty, non-nil slice. ChunkContent does not modify items and is safe for
// concurrent use when counter is. The error is sdk.ErrInvalidConfig when token mode has no
// counter, ctx's error when ctx is done, and otherwise the counter's error, wrapped.
func ChunkContent(ctx context.Context, items []Item, cfg *ChunkingConfig, counter sdk.TokenCounter) ([]Chunk, error) {
	if len(items) == 0 {
		return []Chunk{}, nil
	}
	c := DefaultConfig()
	if cfg != nil {
		c = *cfg
	}
	m := measurer{tokens: c.Tokens(), counter: counter}
	if m.tokens && counter == nil {
		return nil, fmt.Errorf("%w: doc2mark: size_unit %q needs a token counter for %q", sdk.ErrInvalidConfig, UnitTokens, c.EncodingName)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	body, notes := takeFootnotes(items)
	chunks, err := pack(ctx, groupSections(body, c.SplitOnHeadingLevel), c, m)
	if err != nil {
		return nil, err
	}
	if c.Overlap > 0 && len(chunks) > 1 {
		if err := addOverlap(ctx, chunks, c.Overlap, m); err != nil {
			return nil, err
		}
	}
	notes.attach(chunks)
	for i := range chunks {
		chunks[i].ChunkIndex = i
	}
	return chunks, nil
}

// footnotes holds footnote definitions by key, in the order their keys first appeared (a
// Python dict's order).
type footnotes struct {
	keys []string
	defs map[string]string
}

// takeFootnotes splits the footnote items from the others. A footnote's key is its label when
// its content is a definition ("[^label]: text"), else its first 20 code points; a later
// footnote with the same key replaces the definition but keeps the key's place.
func takeFootnotes(items []Item) ([]Item, footnotes) {
	var fn footnotes
	body := make([]Item, 0, len(items))
	for _, it := range items {
		if it.Type != TypeFootnote {
			body = append(body, it)
			continue
		}
		key, ok := footnoteDefinition(it.Content)
		if !ok {
			key = pyPrefix(it.Content, 20)
		}
		if fn.defs == nil {
			fn.defs = map[string]string{}
		}
		if _, seen := fn.defs[key]; !seen {
			fn.keys = append(fn.keys, key)
		}
		fn.defs[key] = it.Content
	}
	return body, fn
}

// attach appends each definition to the first chunk whose content references its key, and
// those left over to the last chunk.
func (fn footnotes) attach(chunks []Chunk) {
	if len(fn.keys) == 0 {
		return
	}
	used := make(map[string]bool, len(fn.keys))
	for i := range chunks {
		var defs []string
		for _, ref := range footnoteReferences(chunks[i].Content) {
			if def, ok := fn.defs[ref]; ok && !used[ref] {
				defs = append(defs, def)
				used[ref] = true
			}
		}
		if len(defs) > 0 {
			chunks[i].Content += sep + strings.Join(defs, "\n")
		}
	}
	var rest []string
	for _, k := range fn.keys {
		if !used[k] {
			rest = append(rest, fn.defs[k])
		}
	}
	if len(rest) > 0 && len(chunks) > 0 {
		chunks[len(chunks)-1].Content += sep + strings.Join(rest, "\n")
	}
}

// section is a run of items under one heading.
type section struct {
	title     *string
	hierarchy []string
	items     []Item
}

// headingLevel is doc2mark's _heading_level: by type only, the item's level is not read.
func headingLevel(typ string) int {
	switch typ {
	case TypeTitle:
		return 1
	case TypeSection:
		return 2
	}
	return 0
}

// groupSections cuts items into sections at headings of level 1..split, as doc2mark's
// _group_into_sections does.
func groupSections(items []Item, split int) []section {
	var secs []section
	hierarchy := []string{}
	var title *string
	start := 0
	for i, it := range items {
		level := headingLevel(it.Type)
		if level == 0 || level > split {
			continue
		}
		if i > start {
			secs = append(secs, section{title, slices.Clone(hierarchy), items[start:i]})
		}
		t := it.Content
		if level == 1 {
			hierarchy = []string{t}
		} else {
			hierarchy = append(slices.Clone(hierarchy[:min(1, len(hierarchy))]), t)
		}
		title = &t
		start = i
	}
	if start < len(items) {
		secs = append(secs, section{title, slices.Clone(hierarchy), items[start:]})
	}
	return secs
}

// render is doc2mark's _item_to_markdown.
func render(it *Item) string {
	c := it.Content
	switch it.Type {
	case TypeTitle:
		return "# " + c
	case TypeSection:
		return "## " + c
	case TypeCaption:
		return "*" + c + "*"
	case TypeImage:
		return "![Image](data:image/png;base64," + c + ")"
	case TypeImageDescription:
		return pyStrip(strings.ReplaceAll(strings.ReplaceAll(c, "<image_ocr_result>", ""), "</image_ocr_result>", ""))
	case TypeHeader, TypeFooter:
		return ""
	}
	return c
}

// rendered is a section with its items rendered ("" for an item that renders as nothing)
// and joined.
type rendered struct {
	sec   *section
	texts []string
	full  string
}

// pack turns sections into chunks before overlap: doc2mark's _section_to_chunks for each.
func pack(ctx context.Context, secs []section, c ChunkingConfig, m measurer) ([]Chunk, error) {
	rs := make([]rendered, 0, len(secs))
	fulls := make([]string, 0, len(secs))
	for i := range secs {
		s := &secs[i]
		texts := make([]string, len(s.items))
		var parts []string
		for j := range s.items {
			texts[j] = render(&s.items[j])
			if texts[j] != "" {
				parts = append(parts, texts[j])
			}
		}
		if len(parts) == 0 {
			continue
		}
		full := strings.Join(parts, sep)
		rs = append(rs, rendered{s, texts, full})
		fulls = append(fulls, full)
	}
	lens, err := m.lengths(ctx, fulls)
	if err != nil {
		return nil, err
	}
	var itemTexts []string
	for k, r := range rs {
		if lens[k] > c.MaxChunkSize {
			for _, t := range r.texts {
				if t != "" {
					itemTexts = append(itemTexts, t)
				}
			}
		}
	}
	sepLen := pyLen(sep)
	var itemLens []int
	if len(itemTexts) > 0 {
		if m.tokens {
			itemTexts = append(itemTexts, sep)
		}
		if itemLens, err = m.lengths(ctx, itemTexts); err != nil {
			return nil, err
		}
		if m.tokens {
			sepLen, itemLens = itemLens[len(itemLens)-1], itemLens[:len(itemLens)-1]
		}
	}
	chunks := make([]Chunk, 0, len(rs))
	for k, r := range rs {
		if lens[k] <= c.MaxChunkSize {
			var acc meta
			for j := range r.sec.items {
				acc.add(&r.sec.items[j])
			}
			chunks = append(chunks, acc.chunk(r.full, r.sec))
			continue
		}
		var parts []string
		var acc meta
		cur := 0
		for j, t := range r.texts {
			if t == "" {
				continue
			}
			it := &r.sec.items[j]
			n := itemLens[0]
			itemLens = itemLens[1:]
			if len(parts) > 0 {
				n += sepLen
			}
			if len(parts) > 0 && cur+n > c.MaxChunkSize && !(it.Type == TypeTable && c.KeepTablesWhole) {
				chunks = append(chunks, acc.chunk(strings.Join(parts, sep), r.sec))
				parts, acc, cur = parts[:0], meta{}, 0
			}
			parts = append(parts, t)
			cur += n
			acc.add(it)
		}
		if len(parts) > 0 {
			chunks = append(chunks, acc.chunk(strings.Join(parts, sep), r.sec))
		}
	}
	return chunks, nil
}

// meta gathers the types and the page span of a chunk's items.
type meta struct {
	types       []string
	first, last int
	hasPage     bool
}

func (a *meta) add(it *Item) {
	if !slices.Contains(a.types, it.Type) {
		a.types = append(a.types, it.Type)
	}
	if it.Page != nil {
		p := *it.Page
		if !a.hasPage {
			a.first, a.last, a.hasPage = p, p, true
		}
		a.first, a.last = min(a.first, p), max(a.last, p)
	}
}

func (a *meta) chunk(content string, s *section) Chunk {
	ch := Chunk{
		Content:          content,
		SectionHierarchy: slices.Clone(s.hierarchy),
		ContentTypes:     slices.Sorted(slices.Values(a.types)),
	}
	if ch.ContentTypes == nil {
		ch.ContentTypes = []string{}
	}
	if s.title != nil {
		title := *s.title // each chunk owns its fields
		ch.SectionTitle = &title
	}
	if a.hasPage {
		first, last := a.first, a.last
		ch.PageStart, ch.PageEnd = &first, &last
	}
	return ch
}
