package pipeline_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/pipeline"
)

// FuzzReadJSONL holds ReadJSONL to its contract on any stream: one Input or one error for each
// line that is not blank, in order, with the line's number, an error naming the stream and the
// line; and what it accepts, encoding/json accepts too, a document given by "text" being
// exactly the text encoding/json decodes from its line (escapes, surrogates, bytes that are not
// UTF-8 and all), and one given by "path" that path.
func FuzzReadJSONL(f *testing.F) {
	for _, seed := range []string{
		`{"id": "a", "text": "# A\n\nbody"}`,
		"{\"id\": \"a\", \"text\": \"x\"}\r\n\r\n  \n{\"path\": \"docs/b.md\"}\n",
		`{"id": "a", "text": "\ud83d\ude00 \ud800 lone \u00e9"}` + "\n" + `{"id": "b", "text": "bad ` + "\xff" + ` byte"}`,
		`{"id": "a", "text": null}` + "\n" + `{"id": "a", "text": 5}` + "\n" + `{"ID": "x", "Text": "y", "text": "z"}`,
		`{"id": "a", "text": "x"} {"id": "b", "text": "y"}` + "\nnot json\n\n{}",
		`{"path": "x.bin"}` + "\n" + `{"path": "a.md", "text": "x"}` + "\n" + `{"id": "a", "text": "x", "format": "txt", "acl": ["p"], "metadata": {"k": [1]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		lines := bytes.SplitAfter(stream, []byte("\n"))
		var want []int // the numbers of the lines that are not blank
		for i, l := range lines {
			if len(bytes.TrimSpace(l)) > 0 {
				want = append(want, i+1)
			}
		}
		got := 0
		for in, err := range pipeline.ReadJSONL(bytes.NewReader(stream), "s") {
			if got == len(want) {
				t.Fatalf("ReadJSONL yielded more than the %d lines that are not blank: %+v, %v", len(want), in, err)
			}
			n := want[got]
			got++
			if in.Line != n || in.Source != "s" {
				t.Fatalf("item %d is of %s:%d, want s:%d", got, in.Source, in.Line, n)
			}
			line := lines[n-1]
			if err != nil {
				if prefix := fmt.Sprintf("s:%d: ", n); !strings.HasPrefix(err.Error(), prefix) {
					t.Errorf("line %d: error %q does not begin %q", n, err, prefix)
				}
				continue
			}
			var ref struct {
				ID   string  `json:"id"`
				Text *string `json:"text"`
				Path string  `json:"path"`
			}
			if err := json.Unmarshal(line, &ref); err != nil {
				t.Fatalf("line %d %q: ReadJSONL accepted what encoding/json rejects: %v", n, line, err)
			}
			switch {
			case ref.Text != nil:
				if string(in.Data) != *ref.Text || in.ID != ref.ID || in.Path != "" {
					t.Errorf("line %d %q: got id %q, path %q, text %q; encoding/json decodes id %q, text %q", n, line, in.ID, in.Path, in.Data, ref.ID, *ref.Text)
				}
			case in.Path != ref.Path || in.Path == "" || in.Data != nil:
				t.Errorf("line %d %q: got path %q and %d bytes; encoding/json decodes path %q", n, line, in.Path, len(in.Data), ref.Path)
			}
		}
		if got != len(want) {
			t.Errorf("ReadJSONL yielded %d items for %d lines that are not blank", got, len(want))
		}
	})
}
