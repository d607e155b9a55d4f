package sdk

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// ChunkKind says whether a chunk is a heading or body text.
type ChunkKind string

// The chunk kinds.
const (
	ChunkHeading ChunkKind = "heading"
	ChunkBody    ChunkKind = "body"
)

// Metadata keys that chunkers set and the conformance kit reads.
const (
	// MetaKind holds the chunk kind as a string ("heading" or "body").
	MetaKind = "kind"
	// MetaLevel holds a heading chunk's level.
	MetaLevel = "level"
	// MetaBlockKinds holds the sorted block kinds the chunk's content comes from.
	MetaBlockKinds = "block_kinds"
	// MetaPrefix holds text a rendering chunker put before canonical[Start:End], such as a
	// table's repeated header row: Content == Metadata[MetaPrefix] + canonical[Start:End].
	MetaPrefix = "prefix"
	// MetaOverlapBytes holds how many bytes at the start of [Start, End) repeat the end of the
	// previous body chunk.
	MetaOverlapBytes = "overlap_bytes"
	// MetaOverBudget is true on a chunk that exceeds the token budget by a documented opt-in
	// such as KeepTablesWhole; no other chunk may exceed it.
	MetaOverBudget = "over_budget"
	// MetaBBoxes lists, for the blocks the chunk's range touches that carry a bounding box in
	// Attrs[AttrBBox] (OCR output), one BBox each, in block order.
	MetaBBoxes = "bboxes"
)

// AttrBBox is the block attribute holding a bounding box [x0, y0, x1, y1] in page pixels, as
// OCR adapters set it.
const AttrBBox = "bbox"

// BBox is where a piece of a chunk's text sits on its page, for overlays and citations.
type BBox struct {
	Page int        `json:"page"`
	BBox [4]float64 `json:"bbox"`
}

// BlockBBox returns the bounding box in b.Attrs[AttrBBox] when it holds four numbers (as
// []float64, [4]float64 or, after a JSON round trip, []any of float64).
func BlockBBox(b Block) (BBox, bool) {
	out := BBox{Page: b.Page}
	switch v := b.Attrs[AttrBBox].(type) {
	case [4]float64:
		out.BBox = v
	case []float64:
		if len(v) != 4 {
			return BBox{}, false
		}
		copy(out.BBox[:], v)
	case []any:
		if len(v) != 4 {
			return BBox{}, false
		}
		for i, x := range v {
			f, ok := x.(float64)
			if !ok {
				return BBox{}, false
			}
			out.BBox[i] = f
		}
	default:
		return BBox{}, false
	}
	return out, true
}

// Chunk is one retrieval-ready piece of a document.
//
// Start and End are the byte range of the document's canonical text that Content comes from,
// overlap included. For chunkers that do not render, Content == canonical[Start:End]; a
// rendering chunker says in its documentation, and in Metadata, exactly what it added.
type Chunk struct {
	ID           string         `json:"id"`
	Position     int            `json:"position"`
	ParentID     string         `json:"parent_id"`
	Kind         ChunkKind      `json:"kind"`
	Level        int            `json:"level"`
	Content      string         `json:"content"`
	TokenCount   int            `json:"token_count"`
	SectionPath  []string       `json:"section_path"`
	SectionTitle string         `json:"section_title"`
	PageStart    int            `json:"page_start"`
	PageEnd      int            `json:"page_end"`
	ContentTypes []string       `json:"content_types"`
	Start        int            `json:"start"`
	End          int            `json:"end"`
	TenantID     string         `json:"tenant_id"`
	CorpusID     string         `json:"corpus_id"`
	DocumentID   string         `json:"document_id"`
	ACLLabels    []string       `json:"acl_labels"`
	Metadata     map[string]any `json:"metadata"`

	// Context is the retrieval context the chunk is embedded with: the document's title, where
	// it has one, and the chunk's heading path, rendered as one line. Empty when the chunker's
	// context mode is none.
	Context string `json:"context"`
	// EmbedText is exactly the string to send to an embedding model: Context and Content
	// joined as the chunker documents. TokenCount counts it and the budget applies to it;
	// Content stays the exact source text for display and citation.
	EmbedText string `json:"embed_text"`
	// ContentHash is the lowercase hex SHA-256 of EmbedText, so a pipeline can upsert by ID and
	// skip chunks whose hash it already holds.
	ContentHash string `json:"content_hash"`

	// SourceStart and SourceEnd are the byte range of the input file that the chunk's text
	// comes from, and LineStart and LineEnd its 1-based line range (inclusive), for inputs that
	// are text (Markdown, plain text). LineStart is 0 when the input has no such mapping, and
	// then the other three mean nothing.
	SourceStart int `json:"source_start"`
	SourceEnd   int `json:"source_end"`
	LineStart   int `json:"line_start"`
	LineEnd     int `json:"line_end"`
}

// ContextJoin is what JoinContext puts between a chunk's Context and its Content.
const ContextJoin = "\n\n"

// JoinContext returns the EmbedText of a chunk with the given context and content: context,
// ContextJoin and content, or content alone when context is empty.
func JoinContext(context, content string) string {
	if context == "" {
		return content
	}
	return context + ContextJoin + content
}

// ContentHash returns the lowercase hex SHA-256 of embedText, the value of Chunk.ContentHash.
func ContentHash(embedText string) string {
	sum := sha256.Sum256([]byte(embedText))
	return hex.EncodeToString(sum[:])
}

// ChunkID returns the deterministic ID of the chunk at position in the document docID.
func ChunkID(docID string, position int) string {
	return docID + "#" + strconv.Itoa(position)
}

// Principal is who asks for the chunks; its ACL labels are copied onto every chunk.
type Principal struct {
	ID        string   `json:"id,omitempty"`
	ACLLabels []string `json:"acl_labels,omitempty"`
}

// Request carries what a chunker needs besides the document: the tenant and corpus the chunks
// belong to, and the principal whose ACL labels they carry. Empty TenantID or CorpusID fall
// back to the document's own.
type Request struct {
	TenantID  string    `json:"tenant_id,omitempty"`
	CorpusID  string    `json:"corpus_id,omitempty"`
	Principal Principal `json:"principal"`
}

// Stamp sets the identity fields every chunk carries: ID, Position, tenant, corpus, document
// and ACL labels, ContentHash from EmbedText (an empty EmbedText is first set to
// JoinContext(Context, Content)), and where each chunk comes from (see Provenance). Chunkers
// call it once on their final, ordered output, after TokenCount, which counts EmbedText.
func Stamp(chunks []Chunk, req Request, doc *Document) {
	tenant, corpus := req.TenantID, req.CorpusID
	if tenant == "" {
		tenant = doc.TenantID
	}
	if corpus == "" {
		corpus = doc.CorpusID
	}
	for i := range chunks {
		c := &chunks[i]
		c.Position = i
		c.ID = ChunkID(doc.ID, i)
		c.TenantID = tenant
		c.CorpusID = corpus
		c.DocumentID = doc.ID
		c.ACLLabels = append([]string{}, req.Principal.ACLLabels...)
		if c.EmbedText == "" {
			c.EmbedText = JoinContext(c.Context, c.Content)
		}
		c.ContentHash = ContentHash(c.EmbedText)
	}
	Provenance(chunks, doc)
}
