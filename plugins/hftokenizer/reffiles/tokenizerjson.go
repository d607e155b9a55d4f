package reffiles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// tokenizerJSON is a tokenizer.json document. Its fields are in the order HuggingFace
// tokenizers serializes them; encoding/json keeps struct field order, so output is stable.
type tokenizerJSON struct {
	Version       string       `json:"version"`
	Truncation    any          `json:"truncation"`
	Padding       any          `json:"padding"`
	AddedTokens   []addedToken `json:"added_tokens"`
	Normalizer    any          `json:"normalizer"`
	PreTokenizer  any          `json:"pre_tokenizer"`
	PostProcessor any          `json:"post_processor"`
	Decoder       any          `json:"decoder"`
	Model         any          `json:"model"`
}

// addedToken is one entry of added_tokens.
type addedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

// vocab is a vocabulary whose token i has id i. It marshals as a JSON object in id order,
// as HuggingFace tokenizers writes vocabularies, instead of the key order of a Go map.
type vocab []string

// MarshalJSON writes {"token": id, ...} in id order, without HTML escaping.
func (v vocab) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for id, tok := range v {
		if id > 0 {
			buf.WriteByte(',')
		}
		if err := writeString(&buf, tok); err != nil {
			return nil, fmt.Errorf("vocab id %d: %w", id, err)
		}
		fmt.Fprintf(&buf, ":%d", id)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// writeString writes s as a JSON string without escaping <, > and &, which HuggingFace does
// not escape either ("<|endoftext|>" stays readable).
func writeString(buf *bytes.Buffer, s string) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}

// write writes doc to w as indented JSON followed by a newline.
func write(w io.Writer, name string, doc tokenizerJSON) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("reffiles: encoding %s: %w", name, err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reffiles: writing %s: %w", name, err)
	}
	return nil
}
