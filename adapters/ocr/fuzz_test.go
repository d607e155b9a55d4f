package ocr

import (
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// checkRead checks the outcome of a reader on arbitrary input: invalid UTF-8 must give an
// *sdk.InputError; any error must be one that names the line; a document must be valid (heading
// levels 1 or more), hold no blank block, and chunk into chunks that keep every invariant.
// Levels are not bounded here: regions JSON keeps the level a region gives (docs/reference/ocr.md),
// while TSV and hOCR rank theirs up to 6 (checkRankedLevels).
func checkRead(t *testing.T, src string, doc *sdk.Document, err error) {
	t.Helper()
	var ie *sdk.InputError
	if err != nil {
		if !errors.As(err, &ie) || !errors.Is(err, sdk.ErrInvalidInput) {
			t.Fatalf("error %v is not an *sdk.InputError matching sdk.ErrInvalidInput", err)
		}
		if !strings.Contains(ie.Problem, "line ") && ie.Field == "" {
			t.Fatalf("error %q names neither a line nor a field", err)
		}
		if doc != nil {
			t.Fatalf("a document came with the error %v", err)
		}
		return
	}
	if !utf8.ValidString(src) {
		t.Fatalf("invalid UTF-8 gave no error")
	}
	if err := doc.Validate(); err != nil {
		t.Fatalf("invalid document: %v", err)
	}
	for i, b := range doc.Blocks {
		if sdk.IsBlank(b.Text) {
			t.Fatalf("block %d is blank", i)
		}
	}
	c := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, MaxTokens: 16, OverlapTokens: 4}}
	req := conformance.Request()
	chunks, err := c.Chunk(t.Context(), req, doc)
	if err := conformance.CheckResult(t.Context(), doc, req, chunks, err, conformance.OptionsFor(c, sdk.Words{})); err != nil {
		t.Fatal(err)
	}
}

// checkRankedLevels checks that the heading levels an adapter ranks from sizes are 1–6.
func checkRankedLevels(t *testing.T, doc *sdk.Document) {
	t.Helper()
	for i, b := range doc.Blocks {
		if b.Kind == sdk.KindHeading && (b.Level < 1 || b.Level > 6) {
			t.Fatalf("block %d: heading level %d, want 1-6", i, b.Level)
		}
	}
}

// fuzzReader fuzzes read, seeded from seeds; check, when not nil, checks a document read
// without error further.
func fuzzReader(f *testing.F, read func(io.Reader, Options) (*sdk.Document, error), seeds []string, check func(*testing.T, string, *sdk.Document)) {
	for _, s := range seeds {
		f.Add(s, 0.0)
	}
	f.Fuzz(func(t *testing.T, src string, minConf float64) {
		if minConf < 0 || minConf > 1 || minConf != minConf {
			minConf = 0
		}
		doc, err := read(strings.NewReader(src), Options{ID: "fuzz", MinConfidence: minConf})
		checkRead(t, src, doc, err)
		if err == nil && check != nil {
			check(t, src, doc)
		}
	})
}

// checkPagedAsWhole checks that paged, reading src a page at a time, makes the document whole,
// reading every page first, makes, words dropped for low confidence (what blocks keep of them
// is summed page by page) or not.
func checkPagedAsWhole(t *testing.T, src string, paged, whole func([]byte, Options) (*sdk.Document, error)) {
	t.Helper()
	for _, minConf := range []float64{0, 0.5, 0.95} {
		opts := Options{ID: "fuzz", MinConfidence: minConf}
		want, err := whole([]byte(src), opts)
		if err != nil {
			t.Fatalf("read whole: %v", err)
		}
		if got, _ := paged([]byte(src), opts); !cmp.Equal(want, got) {
			t.Fatalf("MinConfidence %v: a page at a time differs from whole:\n%s", minConf, cmp.Diff(want, got))
		}
	}
}

// FuzzReadTSV feeds ReadTSV arbitrary bytes: malformed rows, missing columns, negative boxes,
// invalid UTF-8. It must never panic, and every error must name the line.
func FuzzReadTSV(f *testing.F) {
	var seeds []string
	for _, tc := range tsvCases {
		seeds = append(seeds, tc.src)
	}
	for _, tc := range tsvErrorCases {
		seeds = append(seeds, tc.src)
	}
	header := strings.Join(tsvColumns[:], "\t") + "\n"
	fuzzReader(f, ReadTSV, seeds, func(t *testing.T, src string, doc *sdk.Document) {
		if strings.HasPrefix(src, header) { // columns in the standard order
			checkWordsKept(t, src, doc)
		}
		checkRankedLevels(t, doc)
		checkPagedAsWhole(t, src, ParseTSV, parseTSVWhole)
	})
}

// FuzzReadHOCR feeds ReadHOCR arbitrary bytes: broken markup, malformed titles, negative
// boxes, invalid UTF-8. It must never panic, and every error must name the line.
func FuzzReadHOCR(f *testing.F) {
	var seeds []string
	for _, tc := range hocrCases {
		seeds = append(seeds, tc.src)
	}
	for _, tc := range hocrErrorCases {
		seeds = append(seeds, tc.src)
	}
	fuzzReader(f, ReadHOCR, seeds, func(t *testing.T, src string, doc *sdk.Document) {
		checkRankedLevels(t, doc)
		checkPagedAsWhole(t, src, ParseHOCR, readHOCRWhole)
	})
}

// FuzzReadJSON feeds ReadJSON arbitrary bytes. It must never panic, and every error must name
// the line or the field. Heading levels are any of 1 or more, as regions give them
// (testdata/fuzz holds a level-7 heading, which checkRead wrongly refused when it bounded every
// reader's levels at 6).
func FuzzReadJSON(f *testing.F) {
	var seeds []string
	for _, tc := range jsonCases {
		seeds = append(seeds, tc.src)
	}
	for _, tc := range jsonErrorCases {
		seeds = append(seeds, tc.src)
	}
	fuzzReader(f, ReadJSON, seeds, nil)
}

// FuzzParseJSONParts holds ParseJSONParts to ReadJSON on arbitrary bytes: the same document,
// its blocks gathered from the parts, or the same error (checkPartsAsWhole).
func FuzzParseJSONParts(f *testing.F) {
	for _, tc := range jsonCases {
		f.Add(tc.src)
	}
	for _, tc := range jsonErrorCases {
		f.Add(tc.src)
	}
	f.Add(`{"regions": [{"text": "first"}], "regions": [{"text": "last"}]}`)
	f.Add(`{"regions": [{"text": "a"}, {"text": "b", "engine": "own"}], "engine": "late"}`)
	f.Add(manyRegions(30))
	f.Fuzz(func(t *testing.T, src string) { checkPartsAsWhole(t, src) })
}
