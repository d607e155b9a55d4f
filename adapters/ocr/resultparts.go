package ocr

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultPartBytes is the text of the blocks ParseJSONParts puts in a part at least (unless
// the regions end first): about one window of chunkers.HeadingAware.
const DefaultPartBytes = 256 << 10

// ParseJSONParts is ReadJSON of src, which it reads in place, that makes the blocks a part at
// a time: it returns the Document without its blocks — its metadata (the pages, the regions
// dropped for their confidence) and title complete — and the blocks in parts of at least
// partBytes of text each (0 means DefaultPartBytes) as parts is ranged over, so that a
// chunker that reads parts (sdk.PartChunker, chunkers.HeadingAware) never holds every
// region's block at once. The blocks, metadata and errors are exactly ReadJSON's: src is read
// twice, once to check every region and find what the Document says of them, then a part at
// a time. src of up to four parts, and a result that cannot be read so (a field named twice,
// or not in its own spelling, or an error anywhere), are read whole, once, as ReadJSON reads
// them, and then the blocks come in one part. src must not change until parts is done; the
// blocks do not keep it.
func ParseJSONParts(src []byte, opts Options, partBytes int) (*sdk.Document, iter.Seq2[sdk.DocumentPart, error], error) {
	if err := checkSource(src, "OCR JSON", opts); err != nil {
		return nil, nil, err
	}
	if partBytes <= 0 {
		partBytes = DefaultPartBytes
	}
	if len(src) <= 4*partBytes { // small enough to hold whole, and read once
		return wholeParts(src, opts)
	}
	doc := newDocument(opts)
	var dropped []map[string]any
	engine, err := walkResult(src, func(pages []Page) error {
		return addPages(doc, pages, opts.ID)
	}, func(i int, reg Region, engine string) error {
		b, use, drop, err := resultRegion(reg, i, engine, opts)
		if drop != nil {
			dropped = append(dropped, drop)
		}
		if use && doc.Title == "" && b.Kind == sdk.KindHeading && b.Level == 1 {
			doc.Title = b.Text // as finishDocument finds it
		}
		return err
	})
	if err != nil {
		return wholeParts(src, opts)
	}
	setDropped(doc, dropped)
	parts := func(yield func(sdk.DocumentPart, error) bool) {
		var part []sdk.Block
		size := 0
		stopped := false
		_, err := walkResult(src, nil, func(i int, reg Region, _ string) error {
			b, use, _, err := resultRegion(reg, i, engine, opts)
			if err != nil || !use {
				return err
			}
			part = append(part, b)
			if size += len(b.Text); size >= partBytes {
				if !yield(sdk.DocumentPart{Blocks: part}, nil) {
					stopped = true
					return errStop
				}
				part, size = nil, 0
			}
			return nil
		})
		switch {
		case stopped:
		case err != nil:
			yield(sdk.DocumentPart{}, err)
		case len(part) > 0:
			yield(sdk.DocumentPart{Blocks: part}, nil)
		}
	}
	return doc, parts, nil
}

// wholeParts is ParseJSONParts of src read whole: its blocks come in one part.
func wholeParts(src []byte, opts Options) (*sdk.Document, iter.Seq2[sdk.DocumentPart, error], error) {
	doc, err := parseJSON(src, opts)
	if err != nil {
		return nil, nil, err
	}
	blocks := doc.Blocks
	doc.Blocks = nil
	return doc, func(yield func(sdk.DocumentPart, error) bool) {
		if len(blocks) > 0 {
			yield(sdk.DocumentPart{Blocks: blocks}, nil)
		}
	}, nil
}

// errStop ends a walkResult early.
var errStop = errors.New("ocr: stop")

// errNotStreamed says that walkResult cannot read a result a region at a time as a Result
// reads whole: ParseJSONParts then reads it whole.
var errNotStreamed = errors.New("ocr: not a result read a region at a time")

// walkResult reads src, the JSON form of a Result, one top-level field at a time and its
// regions one at a time: it calls pages with the pages, when pages is not nil, and region with
// each region in order, with its index and the result's engine so far, and returns the
// result's engine. It stops at the first error its functions return, or with errNotStreamed
// (or the decoder's error) when src is not an object of the three fields, each once and
// spelt as Result's tags spell them, with nothing after it.
func walkResult(src []byte, pages func([]Page) error, region func(int, Region, string) error) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", errNotStreamed
	}
	var engine string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok || seen[key] {
			return "", errNotStreamed
		}
		seen[key] = true
		switch key {
		case "engine":
			if err := dec.Decode(&engine); err != nil {
				return "", err
			}
		case "pages":
			var p []Page
			if err := dec.Decode(&p); err != nil {
				return "", err
			}
			if pages != nil {
				if err := pages(p); err != nil {
					return "", err
				}
			}
		case "regions":
			if err := walkRegions(dec, func(i int, reg Region) error { return region(i, reg, engine) }); err != nil {
				return "", err
			}
		default:
			return "", errNotStreamed
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return "", errNotStreamed
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return "", errNotStreamed
	}
	return engine, nil
}

// walkRegions reads the value of a result's "regions" field, null or an array, and calls
// region with each element.
func walkRegions(dec *json.Decoder, region func(int, Region) error) error {
	tok, err := dec.Token()
	switch {
	case err != nil:
		return err
	case tok == nil:
		return nil
	case tok != json.Delim('['):
		return errNotStreamed
	}
	for i := 0; dec.More(); i++ {
		var reg Region
		if err := dec.Decode(&reg); err != nil {
			return err
		}
		if err := region(i, reg); err != nil {
			return err
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return errNotStreamed
	}
	return nil
}
