package chunkbeam

import (
	"encoding/json"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

// Document is one document to chunk, the element type of Chunk's input: the fields of a line
// of `chunkkit chunk --from jsonl` (pipeline.ReadJSONL), with its bytes inline.
//
// Data holds the document's bytes; Text is used when Data is nil. Path is only where the
// document came from (errors name it; its extension gives the format when Format is empty):
// workers never read it, so a document read by one machine can be chunked by another.
type Document struct {
	// ID becomes every chunk's DocumentID; chunk IDs are built from it. Required.
	ID string `json:"id"`
	// Path is the file the document was read from, if any.
	Path string `json:"path,omitempty"`
	// Format is an input format name (pipeline.Formats); empty means Path's extension, or
	// Markdown when there is no Path.
	Format string `json:"format,omitempty"`
	// Data is the document's bytes; nil means Text.
	Data []byte `json:"data,omitempty"`
	// Text is the document when Data is nil.
	Text string `json:"text,omitempty"`
	// Title, Tenant and Corpus become the document's (empty: the adapter's or the Config's).
	Title  string `json:"title,omitempty"`
	Tenant string `json:"tenant,omitempty"`
	Corpus string `json:"corpus,omitempty"`
	// ACL holds ACL labels added to the Config's for this document's chunks.
	ACL []string `json:"acl,omitempty"`
	// Metadata is merged into the document's metadata (its keys win).
	Metadata map[string]any `json:"metadata,omitempty"`
}

// FromInput returns the Document of a pipeline Input, reading in.Path when in.Data is nil (as
// the command line's workers do), so the Document carries its bytes to whichever worker
// chunks it.
func FromInput(in pipeline.Input, read func(path string) ([]byte, error)) (Document, error) {
	d := Document{ID: in.ID, Path: in.Path, Format: string(in.Format), Data: in.Data, Title: in.Title,
		Tenant: in.TenantID, Corpus: in.CorpusID, ACL: in.ACL, Metadata: in.Metadata}
	if d.Data == nil && in.Path != "" {
		data, err := read(in.Path)
		if err != nil {
			return d, err
		}
		d.Data = data
	}
	return d, nil
}

// input returns the pipeline Input of d.
func (d Document) input() pipeline.Input {
	in := pipeline.Input{ID: d.ID, Path: d.Path, Format: pipeline.Format(d.Format), Data: d.Data, Title: d.Title,
		TenantID: d.Tenant, CorpusID: d.Corpus, ACL: d.ACL, Metadata: d.Metadata}
	if in.Data == nil {
		// Never nil, even for an empty Text: pipeline.Run reads Path when Data is nil, and a
		// worker must not.
		in.Data = append([]byte{}, d.Text...)
	}
	if in.Format == "" && d.Path == "" {
		in.Format = pipeline.FormatMarkdown // as a JSONL line's "text" (with a Path, its extension)
	}
	return in
}

// DeadLetter is a document that was not chunked: its ID, where it came from and why. It is the
// element type of Chunk's second output.
type DeadLetter struct {
	// DocumentID is the Document's ID.
	DocumentID string `json:"document_id"`
	// Path is the Document's Path (empty for a document given inline).
	Path string `json:"path,omitempty"`
	// Reason is the error, naming the document and what went wrong.
	Reason string `json:"reason"`
	// Attempts is how many times the document was tried.
	Attempts int `json:"attempts"`
}

// Beam encodes Document and sdk.Chunk as JSON: their metadata maps hold any JSON value, which
// Beam's schema coder cannot encode, and JSON is the form `chunkkit chunk` writes, so a chunk
// reaches a sink exactly as the command line would write it (metadata numbers decode as
// float64, as from any JSON reader).
func init() {
	beam.RegisterCoder(reflect.TypeFor[Document](), encodeDocument, decodeDocument)
	beam.RegisterCoder(reflect.TypeFor[sdk.Chunk](), encodeChunk, decodeChunk)
}

// The coders' functions are plain, not instances of one generic function: Beam finds a
// function on the worker by its symbol name, which instances share ("encode[...]").

func encodeDocument(d Document) ([]byte, error) { return json.Marshal(d) }

func decodeDocument(b []byte) (Document, error) {
	var d Document
	err := json.Unmarshal(b, &d)
	return d, err
}

func encodeChunk(c sdk.Chunk) ([]byte, error) { return json.Marshal(c) }

func decodeChunk(b []byte) (sdk.Chunk, error) {
	var c sdk.Chunk
	err := json.Unmarshal(b, &c)
	return c, err
}
