package doc2mark

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultPartBytes is the block text ParseParts puts at least in one part (unless the items
// end first).
const DefaultPartBytes = 256 << 10

// ParseParts is Parse for large inputs, a run of items at a time: it returns the document
// without its blocks, and parts, which yields the blocks Parse would give, in order, in runs
// (sdk.DocumentPart) of at least partBytes of block text (0 means DefaultPartBytes; a negative
// value, one part), decoding each item only when it is asked for. Joined, the parts' blocks are
// exactly Parse's, and the document is Parse's but for Blocks; so an sdk.PartChunker that
// reads parts as they come never holds all of the document's items or blocks.
//
// The document's title (the first text:title item's, when opts.Title is empty) and, for the
// {"content": [...]} wrapper, its metadata are known before the first part, so ParseParts reads
// ahead as far as they need: to the first title item, and for the wrapper to its end, keeping
// nothing of the items it passes. An input with "content" more than once, or that the
// decoder does not take where Parse might, is parsed whole and yielded in one part, or in two
// when the decoder stops after some parts.
//
// Errors are Parse's: ParseParts returns the error of input that is not valid UTF-8 or goes
// wrong before what it reads ahead ends; parts yields the error of a later item, after the
// parts before it. parts may be ranged over once, and data must not change until it is done.
func ParseParts(data []byte, opts Options, partBytes int) (*sdk.Document, iter.Seq2[sdk.DocumentPart, error], error) {
	body := data
	if bytes.HasPrefix(body, []byte("\uFEFF")) {
		body = body[3:]
	}
	if !utf8.Valid(data) {
		return nil, nil, parseError(data, opts)
	}
	h, ok := readHead(body, opts.Title == "")
	if !ok || h.contents > 1 {
		// Parse's error, or what Parse makes of input read ahead does not take.
		doc, err := Parse(data, opts)
		if err != nil {
			return nil, nil, err
		}
		blocks := doc.Blocks
		doc.Blocks = nil
		return doc, func(yield func(sdk.DocumentPart, error) bool) { yield(sdk.DocumentPart{Blocks: blocks}, nil) }, nil
	}
	doc := ToDocument(&Content{Pages: h.pages, Extra: h.extra}, opts)
	doc.Blocks = nil
	if doc.Title == "" {
		doc.Title = h.title
	}
	if partBytes == 0 {
		partBytes = DefaultPartBytes
	}
	parts := func(yield func(sdk.DocumentPart, error) bool) {
		read := 0 // items yielded
		// fail yields Parse's error, or, where Parse takes what the decoder did not, the
		// blocks Parse gives after those yielded.
		fail := func() {
			whole, err := Parse(data, opts)
			if err != nil {
				yield(sdk.DocumentPart{}, err)
				return
			}
			yield(sdk.DocumentPart{Blocks: whole.Blocks[min(read, len(whole.Blocks)):]}, nil)
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		wrapped := h.wrapped
		if !openItems(dec, wrapped) {
			fail()
			return
		}
		var blocks []sdk.Block
		size, yielded := 0, false
		for i := 0; dec.More(); i++ {
			it, ok := decodeItem(dec)
			if !ok {
				fail()
				return
			}
			b := toBlock(&it)
			b.Attrs[sdk.AttrItem] = i
			blocks = append(blocks, b)
			if size += len(b.Text); partBytes > 0 && size >= partBytes {
				if !yield(sdk.DocumentPart{Blocks: blocks}, nil) {
					return
				}
				read += len(blocks)
				blocks, size, yielded = nil, 0, true
			}
		}
		if !closeItems(dec, wrapped) {
			fail()
			return
		}
		if len(blocks) > 0 || !yielded {
			yield(sdk.DocumentPart{Blocks: blocks}, nil)
		}
	}
	return doc, parts, nil
}

// parseError returns Parse's error for data, which is not UTF-8.
func parseError(data []byte, opts Options) error {
	_, err := Parse(data, opts)
	return err
}

// head is what ParseParts reads ahead: whether the items are in the wrapper, and how many
// "content" keys it has; its "pages" and other keys; the first title item's content.
type head struct {
	wrapped  bool
	contents int
	pages    *int
	extra    map[string]json.RawMessage
	title    string
}

// readHead reads body as far as the head needs (see ParseParts), looking for a title when
// wantTitle. It reports false at anything Parse would not take.
func readHead(body []byte, wantTitle bool) (head, bool) {
	var h head
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return h, false
	}
	// titled reads items until the first title, or all of them when all.
	titled := func(all bool) bool {
		for dec.More() {
			if !wantTitle || h.title != "" {
				if !all {
					return true
				}
				var raw json.RawMessage
				if dec.Decode(&raw) != nil {
					return false
				}
				continue
			}
			var fields map[string]json.RawMessage
			if dec.Decode(&fields) != nil || fields == nil {
				return false
			}
			typ, err := stringValue(fields["type"])
			if err != nil {
				return false
			}
			if typ == TypeTitle {
				// An empty one does not name the document: the next one may (see ToDocument).
				if h.title, err = stringValue(fields["content"]); err != nil {
					return false
				}
			}
		}
		_, err := dec.Token() // ]
		return err == nil
	}
	switch tok {
	case json.Delim('['):
		return h, titled(false)
	case json.Delim('{'):
		h.wrapped = true
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return h, false
			}
			key, _ := tok.(string)
			switch key {
			case "content":
				h.contents++
				if t, err := dec.Token(); err != nil || t != json.Delim('[') || !titled(true) {
					return h, false
				}
			case "pages":
				var raw json.RawMessage
				if dec.Decode(&raw) != nil {
					return h, false
				}
				if h.pages, err = intField(raw); err != nil {
					return h, false
				}
			default:
				var raw json.RawMessage
				if dec.Decode(&raw) != nil {
					return h, false
				}
				if h.extra == nil {
					h.extra = map[string]json.RawMessage{}
				}
				h.extra[key] = raw
			}
		}
		return h, h.contents > 0
	}
	return h, false
}

// openItems moves dec past the opening of the items' list: the "[" of a list, or of the
// wrapper's "content" after the keys before it.
func openItems(dec *json.Decoder, wrapped bool) bool {
	if _, err := dec.Token(); err != nil {
		return false
	}
	if wrapped {
		for {
			tok, err := dec.Token()
			if err != nil {
				return false
			}
			if tok == "content" {
				break
			}
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return false
			}
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return false
		}
	}
	return true
}

// closeItems moves dec past the end of the items' list and of the wrapper, and reports whether
// nothing but white space follows.
func closeItems(dec *json.Decoder, wrapped bool) bool {
	if _, err := dec.Token(); err != nil { // ]
		return false
	}
	if wrapped {
		for dec.More() {
			if _, err := dec.Token(); err != nil {
				return false
			}
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return false
			}
		}
		if _, err := dec.Token(); err != nil { // }
			return false
		}
	}
	_, err := dec.Token()
	return errors.Is(err, io.EOF)
}

// decodeItem decodes the next item as Parse does, and reports false where Parse would fail.
func decodeItem(dec *json.Decoder) (Item, bool) {
	var fields map[string]json.RawMessage
	if dec.Decode(&fields) != nil || fields == nil {
		return Item{}, false
	}
	_, hasType := fields["type"]
	_, hasContent := fields["content"]
	if !hasType || !hasContent {
		return Item{}, false
	}
	var it Item
	for key, v := range fields {
		if it.set(key, v) != nil {
			return Item{}, false
		}
	}
	return it, true
}
