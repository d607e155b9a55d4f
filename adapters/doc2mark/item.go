package doc2mark

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// The item types doc2mark writes into json_content. Any other type is kept: Parse makes it a
// paragraph and ChunkContent renders its content as it is, as doc2mark does.
const (
	TypeTitle            = "text:title"
	TypeSection          = "text:section"
	TypeNormal           = "text:normal"
	TypeList             = "text:list"
	TypeCaption          = "text:caption"
	TypeFootnote         = "text:footnote"
	TypeImageDescription = "text:image_description"
	TypeHeader           = "text:header"
	TypeFooter           = "text:footer"
	TypeTable            = "table"
	TypeImage            = "image"
)

// Item is one entry of doc2mark's json_content. Type and Content are always present; the
// pointer fields are nil when the item lacks the key or holds null. Extra keeps every other
// key with its value as written (JSON), so that nothing of the input is lost; it is nil when
// there is none.
type Item struct {
	Type      string
	Content   string
	Page      *int
	PositionY *float64
	Level     *int
	Marker    *string
	ListLevel *int
	MimeType  *string
	Extra     map[string]json.RawMessage
}

// Content is a parsed json_content: its items and, when it came in the {"pages": N,
// "content": [...]} wrapper, the page count and the wrapper's other keys as written.
type Content struct {
	Items []Item
	Pages *int
	Extra map[string]json.RawMessage
}

// MarshalJSON writes the item as a json_content object: "type", "content", the optional keys
// that are set, then the Extra keys in sorted order. ParseItems reads it back unchanged.
func (it Item) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	field := func(key string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		val, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("doc2mark: item field %s: %w", key, err)
		}
		b.Write(val)
		return nil
	}
	known := []struct {
		key string
		set bool
		v   any
	}{
		{"type", true, it.Type},
		{"content", true, it.Content},
		{"page", it.Page != nil, it.Page},
		{"position_y", it.PositionY != nil, it.PositionY},
		{"level", it.Level != nil, it.Level},
		{"marker", it.Marker != nil, it.Marker},
		{"list_level", it.ListLevel != nil, it.ListLevel},
		{"mime_type", it.MimeType != nil, it.MimeType},
	}
	for _, k := range known {
		if !k.set {
			continue
		}
		if err := field(k.key, k.v); err != nil {
			return nil, err
		}
	}
	for _, key := range slices.Sorted(maps.Keys(it.Extra)) {
		if err := field(key, it.Extra[key]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ParseItems reads doc2mark's json_content — a JSON list of items, or the {"pages": N,
// "content": [...]} wrapper — and returns its items. See ParseContent for the rules and the
// errors.
func ParseItems(data []byte) ([]Item, error) {
	c, err := ParseContent(data)
	if err != nil {
		return nil, err
	}
	return c.Items, nil
}

// ParseContent reads doc2mark's json_content: a JSON list of items, or an object whose
// "content" key holds that list, with an optional integer "pages" (its other keys are kept in
// Content.Extra). A leading UTF-8 byte order mark is skipped.
//
// Every item is an object with a string "type" and a string "content" (doc2mark writes tables
// and images as strings too: Markdown or HTML, and base64) and, when it has a "page", an
// integer or null there: ChunkContent needs those exactly. "level" and "list_level" fill the
// Item fields when they are integers, "position_y" when it is a number, "marker" and
// "mime_type" when they are strings; null counts as absent, and a value of another type is
// kept in Item.Extra as written, like every other key. When a key repeats, the last value
// wins, as in Python's json module.
//
// Input that is not valid UTF-8 or not valid JSON, or an item that breaks these rules, gives
// an *sdk.InputError matching sdk.ErrInvalidInput whose Offset is the byte offset in data of
// the problem (the bad byte, or the value of the bad field), whose Field names the item and key
// ("item[3].content") and whose Problem ends with the line and column. The first problem stops
// the parse. An empty list gives no items and no error.
func ParseContent(data []byte) (*Content, error) {
	p := parser{data: data}
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		p.base = 3
	}
	if !utf8.Valid(data) {
		off := sdk.InvalidUTF8At(string(data))
		return nil, p.errorf(off, "", "invalid UTF-8 (byte 0x%02x)", data[off])
	}
	if c, ok := quickContent(data[p.base:]); ok {
		return c, nil
	}
	// Something is wrong: walk the input again, token by token, to say where.
	return p.walk()
}

// walk parses p.data with the token walk.
func (p *parser) walk() (*Content, error) {
	p.dec = json.NewDecoder(bytes.NewReader(p.data[p.base:]))
	p.dec.UseNumber()
	return p.content()
}

// quickContent decodes well-formed json_content in bulk, which is several times faster than
// the token walk; it reports false at the first problem, which the walk then locates.
func quickContent(data []byte) (*Content, bool) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, false
	}
	c := &Content{}
	var raws []json.RawMessage
	switch trimmed[0] {
	case '[':
		if json.Unmarshal(data, &raws) != nil {
			return nil, false
		}
	case '{':
		var w map[string]json.RawMessage
		if json.Unmarshal(data, &w) != nil {
			return nil, false
		}
		content, ok := w["content"]
		if !ok || json.Unmarshal(content, &raws) != nil || raws == nil {
			return nil, false
		}
		if pages, ok := w["pages"]; ok {
			var err error
			if c.Pages, err = intField(pages); err != nil {
				return nil, false
			}
		}
		for k, v := range w {
			if k != "content" && k != "pages" {
				if c.Extra == nil {
					c.Extra = map[string]json.RawMessage{}
				}
				c.Extra[k] = v
			}
		}
	default:
		return nil, false
	}
	c.Items = make([]Item, len(raws))
	for i, raw := range raws {
		var fields map[string]json.RawMessage
		if json.Unmarshal(raw, &fields) != nil || fields == nil {
			return nil, false
		}
		_, hasType := fields["type"]
		_, hasContent := fields["content"]
		if !hasType || !hasContent {
			return nil, false
		}
		for key, v := range fields {
			if c.Items[i].set(key, v) != nil {
				return nil, false
			}
		}
	}
	return c, true
}

// parser walks json_content with a streaming decoder so that every error can name the byte
// offset of the value at fault.
type parser struct {
	data []byte
	base int // bytes skipped before the decoder's input (a byte order mark)
	dec  *json.Decoder
}

// errorf returns an *sdk.InputError at byte off of the input.
func (p *parser) errorf(off int, field, format string, args ...any) error {
	line := 1 + bytes.Count(p.data[:off], []byte{'\n'})
	lineStart := bytes.LastIndexByte(p.data[:off], '\n') + 1
	col := 1 + utf8.RuneCount(p.data[lineStart:off])
	return &sdk.InputError{
		Block:   -1,
		Offset:  off,
		Field:   field,
		Problem: fmt.Sprintf(format, args...) + fmt.Sprintf(" (line %d, column %d)", line, col),
	}
}

// next returns the offset of the next token: the decoder's position moved past white space
// and the "," or ":" before a value.
func (p *parser) next() int {
	off := p.base + int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// syntax turns a decoder error into an *sdk.InputError at the offset where it happened.
func (p *parser) syntax(err error, at int, field string) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := min(p.base+int(se.Offset), len(p.data))
		// The decoder reports the offset after the byte it stopped at.
		if off > 0 && off > at {
			off--
		}
		return p.errorf(off, field, "invalid JSON: %s", se.Error())
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return p.errorf(len(p.data), field, "invalid JSON: unexpected end of input")
	}
	return p.errorf(at, field, "invalid JSON: %v", err)
}

// value reads the next JSON value whole.
func (p *parser) value(field string) (json.RawMessage, int, error) {
	at := p.next()
	var raw json.RawMessage
	if err := p.dec.Decode(&raw); err != nil {
		return nil, at, p.syntax(err, at, field)
	}
	return raw, at, nil
}

// content reads the top-level value and checks that nothing follows it.
func (p *parser) content() (*Content, error) {
	at := p.next()
	if at >= len(p.data) {
		return nil, p.errorf(at, "", "no JSON value: want a list of items or {\"content\": [...]}")
	}
	var c *Content
	var err error
	switch p.data[at] {
	case '[':
		c = &Content{}
		c.Items, err = p.items("")
	case '{':
		c, err = p.wrapper()
	default:
		raw, _, verr := p.value("")
		if verr != nil {
			return nil, verr
		}
		return nil, p.errorf(at, "", "want a list of items or {\"content\": [...]}, got %s", describe(raw))
	}
	if err != nil {
		return nil, err
	}
	// Only white space may follow the value (next also passes the "," and ":" between values).
	end := p.base + int(p.dec.InputOffset())
	for end < len(p.data) && strings.IndexByte(" \t\r\n", p.data[end]) >= 0 {
		end++
	}
	if end < len(p.data) {
		return nil, p.errorf(end, "", "unexpected data after the JSON value")
	}
	return c, nil
}

// wrapper reads {"pages": N, "content": [...], ...}.
func (p *parser) wrapper() (*Content, error) {
	if _, err := p.dec.Token(); err != nil {
		return nil, p.syntax(err, p.next(), "")
	}
	c := &Content{}
	found := false
	for p.dec.More() {
		at := p.next()
		tok, err := p.dec.Token()
		if err != nil {
			return nil, p.syntax(err, at, "")
		}
		key, _ := tok.(string)
		switch key {
		case "content":
			if vat := p.next(); vat >= len(p.data) || p.data[vat] != '[' {
				raw, _, err := p.value("content")
				if err != nil {
					return nil, err
				}
				return nil, p.errorf(vat, "content", "want a list of items, got %s", describe(raw))
			}
			if c.Items, err = p.items("content"); err != nil {
				return nil, err
			}
			found = true
		case "pages":
			raw, vat, err := p.value("pages")
			if err != nil {
				return nil, err
			}
			if c.Pages, err = intField(raw); err != nil {
				return nil, p.errorf(vat, "pages", "%v", err)
			}
		default:
			raw, _, err := p.value(key)
			if err != nil {
				return nil, err
			}
			if c.Extra == nil {
				c.Extra = map[string]json.RawMessage{}
			}
			c.Extra[key] = raw
		}
	}
	end := p.next()
	if _, err := p.dec.Token(); err != nil {
		return nil, p.syntax(err, end, "")
	}
	if !found {
		return nil, p.errorf(end, "content", "the object has no \"content\" list of items")
	}
	return c, nil
}

// items reads a list of items; field names the list in errors ("" at the top level).
func (p *parser) items(field string) ([]Item, error) {
	if _, err := p.dec.Token(); err != nil {
		return nil, p.syntax(err, p.next(), field)
	}
	items := []Item{}
	for p.dec.More() {
		it, err := p.item(len(items))
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	end := p.next()
	if _, err := p.dec.Token(); err != nil {
		return nil, p.syntax(err, end, field)
	}
	return items, nil
}

// item reads the item with index i.
func (p *parser) item(i int) (Item, error) {
	name := "item[" + strconv.Itoa(i) + "]"
	start := p.next()
	if start < len(p.data) && p.data[start] != '{' {
		raw, _, err := p.value(name)
		if err != nil {
			return Item{}, err
		}
		return Item{}, p.errorf(start, name, "want an object with \"type\" and \"content\", got %s", describe(raw))
	}
	if _, err := p.dec.Token(); err != nil {
		return Item{}, p.syntax(err, start, name)
	}
	var it Item
	var hasType, hasContent bool
	for p.dec.More() {
		at := p.next()
		tok, err := p.dec.Token()
		if err != nil {
			return Item{}, p.syntax(err, at, name)
		}
		key, _ := tok.(string)
		field := name + "." + key
		raw, vat, err := p.value(field)
		if err != nil {
			return Item{}, err
		}
		if err := it.set(key, raw); err != nil {
			return Item{}, p.errorf(vat, field, "%v", err)
		}
		hasType = hasType || key == "type"
		hasContent = hasContent || key == "content"
	}
	end := p.next()
	if _, err := p.dec.Token(); err != nil {
		return Item{}, p.syntax(err, end, name)
	}
	switch {
	case !hasType:
		return Item{}, p.errorf(start, name+".type", "the item has no \"type\"")
	case !hasContent:
		return Item{}, p.errorf(start, name+".content", "the item has no \"content\"")
	}
	return it, nil
}

// set sets the field key of the item from raw: Type, Content and Page must have their types,
// the other optional fields go to Extra when they do not, and unknown keys go to Extra.
func (it *Item) set(key string, raw json.RawMessage) error {
	var err error
	switch key {
	case "type":
		it.Type, err = stringValue(raw)
	case "content":
		it.Content, err = stringValue(raw)
	case "page":
		it.Page, err = intField(raw)
	case "level", "list_level", "position_y", "marker", "mime_type":
		if it.setOptional(key, raw) {
			if delete(it.Extra, key); len(it.Extra) == 0 {
				it.Extra = nil
			}
		} else {
			it.keep(key, raw)
		}
	default:
		it.keep(key, raw)
	}
	return err
}

// setOptional sets the optional field key from raw and reports whether raw has the field's
// type (null clears it).
func (it *Item) setOptional(key string, raw json.RawMessage) bool {
	var err error
	switch key {
	case "level":
		it.Level, err = intField(raw)
	case "list_level":
		it.ListLevel, err = intField(raw)
	case "position_y":
		it.PositionY, err = floatField(raw)
	case "marker":
		it.Marker, err = stringField(raw)
	case "mime_type":
		it.MimeType, err = stringField(raw)
	}
	return err == nil
}

// keep puts key in Extra, replacing an earlier value of the same key.
func (it *Item) keep(key string, raw json.RawMessage) {
	if it.Extra == nil {
		it.Extra = map[string]json.RawMessage{}
	}
	it.Extra[key] = raw
}

// describe names the JSON type of raw for error messages.
func describe(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "a list"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "the number " + string(raw)
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// stringValue reads a required string: null is not one.
func stringValue(raw json.RawMessage) (string, error) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("want a string, got %s", describe(raw))
	}
	return s, nil
}

func stringField(raw json.RawMessage) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	s, err := stringValue(raw)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// intField reads an integer written without fraction or exponent, or null.
func intField(raw json.RawMessage) (*int, error) {
	if isNull(raw) {
		return nil, nil
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return nil, fmt.Errorf("want an integer, got %s", describe(raw))
	}
	return &n, nil
}

// floatField reads a number, or null.
func floatField(raw json.RawMessage) (*float64, error) {
	if isNull(raw) {
		return nil, nil
	}
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return nil, fmt.Errorf("want a number, got %s", describe(raw))
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil, fmt.Errorf("want a number, got %s", describe(raw))
	}
	return &f, nil
}
