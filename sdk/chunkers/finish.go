package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// finish turns verified drafts into chunks with positions, parent links, context, embed text
// and span details, then stamps identity, ACL fields and content hashes.
func finish(l *layout, drafts []*draft, req sdk.Request) []sdk.Chunk {
	return finishPart(l, drafts, req, part{doc: l.doc})
}

// part is where the layout's document sits in a whole one when it is a window of it (see
// stream.go): the whole document, the offset of the window's canonical text in the whole's,
// and the position of the window's first chunk. The zero base and first are the whole itself.
type part struct {
	doc   *sdk.Document
	base  int
	first int
}

// finishPart is finish for the window p of a document: offsets, positions, IDs and parent
// links are the whole document's, and provenance is looked up in it.
func finishPart(l *layout, drafts []*draft, req sdk.Request, p part) []sdk.Chunk {
	pos := make(map[*draft]int, len(drafts))
	for i, d := range drafts {
		pos[d] = i
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
			Start:        p.base + d.start,
			End:          p.base + d.end,
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
				chunks[i].ParentID = sdk.ChunkID(p.doc.ID, p.first+k)
			}
		}
	}
	sdk.Stamp(chunks, req, p.doc)
	if p.first != 0 {
		for i := range chunks {
			chunks[i].Position = p.first + i
			chunks[i].ID = sdk.ChunkID(p.doc.ID, p.first+i)
		}
	}
	return chunks
}
