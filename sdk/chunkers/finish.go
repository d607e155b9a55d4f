package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// finish turns verified drafts into chunks with positions, parent links, context, embed text
// and span details, then stamps identity, ACL fields and content hashes.
func finish(l *layout, drafts []*draft, req sdk.Request) []sdk.Chunk {
	return finishPart(l, drafts, req, part{source: l.doc.Source})
}

// part is where the layout's document sits in a whole one when it is a window of it (see
// stream.go): the offset of the window's canonical text in the whole's, the position of its
// first chunk, and the source map of the window's text, with the whole's offsets. The zero
// base and first are the whole itself.
type part struct {
	base, first int
	source      *sdk.SourceMap
}

// finishPart is finish for the window p of a document: offsets, positions, IDs and parent
// links are the whole document's, and source positions are looked up in p.source.
func finishPart(l *layout, drafts []*draft, req sdk.Request, p part) []sdk.Chunk {
	pos := make(map[*draft]int, len(drafts))
	for i, d := range drafts {
		pos[d] = i
		d.emitted, d.position = true, p.first+i
	}
	chunks := make([]sdk.Chunk, len(drafts))
	for i, d := range drafts {
		sp := l.span(d.start, d.end)
		kinds := sp.kinds
		meta := map[string]any{sdk.MetaKind: string(d.kind), sdk.MetaBlockKinds: kinds}
		if len(sp.bboxes) > 0 {
			meta[sdk.MetaBBoxes] = sp.bboxes
		}
		content := d.content(l.canon.Text)
		c := sdk.Chunk{
			Kind:         d.kind,
			Level:        d.level,
			Content:      content,
			Context:      d.context,
			EmbedText:    sdk.JoinContext(d.context, content),
			TokenCount:   d.tokens,
			SectionPath:  d.path,
			PageStart:    sp.pageStart,
			PageEnd:      sp.pageEnd,
			ContentTypes: kinds,
			Start:        d.start,
			End:          d.end,
			Metadata:     meta,
		}
		if c.SectionPath == nil {
			c.SectionPath = []string{}
		}
		if n := len(d.path); n > 0 {
			c.SectionTitle = d.path[n-1]
		}
		if d.kind == sdk.ChunkHeading {
			meta[sdk.MetaLevel] = d.level
		}
		if n := min(d.overlapEnd, d.body) - d.start; n > 0 {
			meta[sdk.MetaOverlapBytes] = n
		}
		if d.prefix != "" {
			meta[sdk.MetaPrefix] = d.prefix
		}
		if d.overBudget {
			meta[sdk.MetaOverBudget] = true
		}
		chunks[i] = c
		if parent := d.parent; parent != nil {
			for parent.replacedBy != nil {
				parent = parent.replacedBy
			}
			if k, ok := pos[parent]; ok && k < i {
				chunks[i].ParentID = sdk.ChunkID(l.doc.ID, p.first+k)
			} else if !ok && parent.emitted { // a chunk of an earlier window
				chunks[i].ParentID = sdk.ChunkID(l.doc.ID, parent.position)
			}
		}
	}
	// Stamp finds the items of the window's blocks with the window's offsets; source
	// positions need the whole's.
	doc := *l.doc
	doc.Source = nil
	if l.joined != nil {
		doc.Blocks = rejoin(doc.Blocks, l.joined)
	}
	sdk.Stamp(chunks, req, &doc)
	for i := range chunks {
		c := &chunks[i]
		if p.first != 0 {
			c.Position = p.first + i
			c.ID = sdk.ChunkID(l.doc.ID, c.Position)
		}
		c.Start += p.base
		c.End += p.base
		if r, ok := p.source.Locate(c.Start, c.End); ok {
			c.SourceStart, c.SourceEnd, c.LineStart, c.LineEnd = r.Start, r.End, r.LineStart, r.LineEnd
		}
	}
	return chunks
}

// rejoin returns blocks with each run of parts of one block (see splitLarge) made one block
// again, for what finds blocks by their offsets.
func rejoin(blocks []sdk.Block, joined []bool) []sdk.Block {
	var out []sdk.Block
	for i, b := range blocks {
		if i > 0 && joined[i] {
			out[len(out)-1].Text += b.Text
			continue
		}
		out = append(out, b)
	}
	return out
}
