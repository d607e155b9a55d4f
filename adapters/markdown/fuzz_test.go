package markdown

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// FuzzParse feeds Parse and ParseText arbitrary bytes. Neither may panic; invalid UTF-8 must
// give sdk.ErrInvalidInput; any other input must give a valid document whose blocks are not
// blank, whose canonical offsets are right, and which keeps every word of the source; and
// ParseParts and ParseTextParts, their parts joined, must give what Parse and ParseText do, as
// must both with Options.InPlace.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.src)
	}
	for _, tc := range textCases {
		f.Add(tc.src)
	}
	f.Add("ab\xffc")
	f.Add("a | b\n--- | ---\ncell 1 | x\n12 | y\nword\n1. item | z\n- list\n\nafter")
	f.Add("x | y\n-|-\n" + strings.Repeat("row | r\n", 40) + "===\n\n# H")
	f.Add("# A\n\n```\n\n# x\n```\n\n# B\n\n<!--\n\n# y\n\n-->\n\n## C\n\ntext\n\n# D\n")
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
			checkSourceMap(t, src, doc)
			// Parsed in place, it is the same document.
			inPlace, err := mode.parse([]byte(src), Options{ID: "fuzz", InPlace: true})
			if err != nil {
				t.Fatalf("%s with InPlace: %v", mode.name, err)
			}
			if diff := cmp.Diff(doc, inPlace); diff != "" {
				t.Fatalf("%s with InPlace differs (-copy +InPlace):\n%s", mode.name, diff)
			}
		}
		// Parsed a piece at a time, at every heading where a piece may end, the document is
		// the same.
		checkParts(t, "fuzz", src, 1)
		// So is plain text, at every blank line.
		checkTextParts(t, "fuzz", src, 1)
	})
}

// checkSourceMap checks that every segment of doc.Source is canonical text found at its
// offset and line of src, in order, and that every non-white-space byte of every block is in a
// segment.
func checkSourceMap(t *testing.T, src string, doc *sdk.Document) {
	t.Helper()
	canon := doc.Canonical().Text
	mapped := make([]bool, len(canon))
	lastCanon, lastSrc := -1, -1
	for _, sg := range doc.Source.Segments {
		if sg.Len <= 0 || sg.Start <= lastCanon || sg.Source <= lastSrc || sg.Start+sg.Len > len(canon) || sg.Source+sg.Len > len(src) {
			t.Fatalf("segment %+v is empty, out of order or out of range\nsource %q", sg, src)
		}
		if canon[sg.Start:sg.Start+sg.Len] != src[sg.Source:sg.Source+sg.Len] {
			t.Fatalf("segment %+v: canonical %q, source %q\nsource %q", sg, canon[sg.Start:sg.Start+sg.Len], src[sg.Source:sg.Source+sg.Len], src)
		}
		if line := 1 + strings.Count(strings.ReplaceAll(src[:sg.Source], "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(src[:sg.Source], "\r\n", ""), "\r"); line != sg.Line {
			t.Fatalf("segment %+v is on line %d\nsource %q", sg, line, src)
		}
		for i := sg.Start; i < sg.Start+sg.Len; i++ {
			mapped[i] = true
		}
		lastCanon, lastSrc = sg.Start+sg.Len-1, sg.Source+sg.Len-1
	}
	for i := 0; i < len(canon); i++ {
		if !mapped[i] && !strings.ContainsRune(" \t\n", rune(canon[i])) {
			t.Fatalf("canonical byte %d (%q) is in no segment\nsource %q", i, canon[i], src)
		}
	}
}
