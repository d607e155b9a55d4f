package markdown

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// FuzzParse feeds Parse and ParseText arbitrary bytes. Neither may panic; invalid UTF-8 must
// give sdk.ErrInvalidInput; any other input must give a valid document whose blocks are not
// blank, whose canonical offsets are right, and which keeps every word of the source.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.src)
	}
	for _, tc := range textCases {
		f.Add(tc.src)
	}
	f.Add("ab\xffc")
	f.Fuzz(func(t *testing.T, src string) {
		for _, mode := range []struct {
			name   string
			parse  func([]byte, Options) (*sdk.Document, error)
			markup bool
		}{{"Parse", Parse, true}, {"ParseText", ParseText, false}} {
			doc, err := mode.parse([]byte(src), Options{ID: "fuzz"})
			if !utf8.ValidString(src) {
				if !errors.Is(err, sdk.ErrInvalidInput) {
					t.Fatalf("%s of invalid UTF-8 gave error %v, want sdk.ErrInvalidInput", mode.name, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", mode.name, err)
			}
			checkDocument(t, src, doc, mode.markup)
		}
	})
}
