package chunkers

import "github.com/chunkkit/chunkkit/sdk"

// finish turns verified drafts into chunks with positions, parent links, context, embed text
// and span details, then stamps identity, ACL fields and content hashes.
func finish(l *layout, drafts []*draft, req sdk.Request) []sdk.Chunk {
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
		if p := d.parent; p != nil {
			for p.replacedBy != nil {
				p = p.replacedBy
			}
			if k, ok := pos[p]; ok && k < i {
				chunks[i].ParentID = sdk.ChunkID(l.doc.ID, k)
			}
		}
	}
	sdk.Stamp(chunks, req, l.doc)
	return chunks
}
