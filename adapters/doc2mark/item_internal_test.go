package doc2mark

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzQuickContentAgreesWithTheWalk holds ParseContent's bulk decoding to the token walk that
// locates errors: on valid UTF-8 both accept the same inputs and give the same content.
func FuzzQuickContentAgreesWithTheWalk(f *testing.F) {
	for _, s := range []string{
		`[{"type": "text:normal", "content": "x", "page": 2, "level": "2", "bbox": [1, 2]}]`,
		`{"pages": 3, "content": [{"type": "table", "content": "| a |"}], "k": {"x": null}}`,
		`[{"type": "x", "content": "a", "content": "b", "level": 1, "level": "one"}]`,
		`[{"type": "x"}]`, `{"content": null}`, `[1]`, `[] x`, `{"pages": 1.5, "content": []}`,
		`[{"type": "x", "content": "y", "page": null, "marker": null}]`, `{"content": [], "content": [{}]}`,
		`[],`, `{"content": []} :`, `[{"type": "x", "content": "y"}] ,`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			return
		}
		quick, ok := quickContent([]byte(src))
		p := parser{data: []byte(src)}
		walked, err := p.walk()
		if ok != (err == nil) {
			t.Fatalf("bulk decoding says ok=%v, the walk says %v", ok, err)
		}
		if ok {
			if diff := cmp.Diff(walked, quick); diff != "" {
				t.Fatalf("bulk decoding differs from the walk (-walk +bulk):\n%s", diff)
			}
		}
	})
}
