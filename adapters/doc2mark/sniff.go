package doc2mark

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// NotContent says why head, the start of a JSON file, is plainly not json_content, or returns
// "" when it may be: a walk over a directory uses it to leave out ".json" files of other kinds
// (a package.json, a tsconfig.json) rather than fail on them. json_content is an array of
// items, objects, or an object with a "content" field. NotContent reads the top-level fields of
// an object until "content"; a head that is empty, malformed or cut before it can tell may be
// json_content: Parse decides, and says what is wrong.
func NotContent(head []byte) string {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(head, []byte("\uFEFF"))))
	tok, err := dec.Token()
	if err != nil {
		return ""
	}
	switch tok {
	case json.Delim('['):
		var first json.RawMessage
		if !dec.More() || dec.Decode(&first) != nil {
			return ""
		}
		if c := bytes.TrimLeft(first, " \t\r\n")[0]; c != '{' {
			return fmt.Sprintf("a JSON array of %s, not of json_content's items", jsonKind(c))
		}
		return ""
	case json.Delim('{'):
		var fields []string
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return ""
			}
			if key == "content" {
				return ""
			}
			fields = append(fields, strconv.Quote(key.(string)))
			var value json.RawMessage
			if dec.Decode(&value) != nil {
				return ""
			}
		}
		if _, err := dec.Token(); err != nil {
			return ""
		}
		switch {
		case len(fields) == 0:
			return `an empty JSON object, without json_content's "content" field`
		case len(fields) > 3:
			fields = append(fields[:3], "…")
		}
		return fmt.Sprintf(`a JSON object without json_content's "content" field; its fields: %s`, strings.Join(fields, ", "))
	}
	if tok == nil {
		return "a JSON null, not json_content"
	}
	return fmt.Sprintf("a JSON %s, not json_content", strings.TrimSuffix(jsonKind(firstByte(tok)), "s"))
}

// firstByte returns the first byte of the JSON text of a scalar token.
func firstByte(tok json.Token) byte {
	switch tok.(type) {
	case string:
		return '"'
	case bool:
		return 't'
	}
	return '0'
}

// jsonKind names, in the plural, the kind of JSON value whose text starts with c.
func jsonKind(c byte) string {
	switch c {
	case '[':
		return "arrays"
	case '"':
		return "strings"
	case 't', 'f':
		return "booleans"
	case 'n':
		return "nulls"
	}
	return "numbers"
}
