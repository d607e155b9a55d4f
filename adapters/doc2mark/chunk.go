package doc2mark

import (
	"bytes"
	"encoding/json"
)

// Chunk is doc2mark's Chunk, field for field: json.Marshal of a []Chunk writes exactly the
// objects doc2mark's dataclasses.asdict gives, with null where doc2mark has None.
// SectionTitle is nil for text before the first heading; PageStart and PageEnd are nil when no
// item of the chunk has a page. ContentTypes is a set in doc2mark (its order comes from a
// Python set); ChunkContent sorts it. ChunkContent never leaves SectionHierarchy or
// ContentTypes nil, so they marshal as [] when empty.
type Chunk struct {
	Content          string   `json:"content"`
	SectionTitle     *string  `json:"section_title"`
	SectionHierarchy []string `json:"section_hierarchy"`
	PageStart        *int     `json:"page_start"`
	PageEnd          *int     `json:"page_end"`
	ContentTypes     []string `json:"content_types"`
	ChunkIndex       int      `json:"chunk_index"`
}

// CompatJSON returns chunks as the JSON array `chunkkit compat doc2mark` prints: one object per
// chunk with doc2mark's field names, indented by two spaces, "<", ">" and "&" written as they
// are, and a final newline. nil gives "[]\n". Nil slices inside a chunk are written as [].
func CompatJSON(chunks []Chunk) ([]byte, error) {
	out := make([]Chunk, len(chunks))
	for i, c := range chunks {
		if c.SectionHierarchy == nil {
			c.SectionHierarchy = []string{}
		}
		if c.ContentTypes == nil {
			c.ContentTypes = []string{}
		}
		out[i] = c
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
