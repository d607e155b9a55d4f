package pluginclient

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/chunkkit/chunkkit/internal/protocol/tokenizerv1"
	"github.com/chunkkit/chunkkit/sdk"
)

// FuzzBatches checks batches' invariants against the real encoded request size: the spans
// cover every text once, in order; a span of several texts encodes within the batch size; no
// request exceeds the maximum; and a refusal names a text that is too large on its own.
func FuzzBatches(f *testing.F) {
	f.Add("", "a\x00bb\x00ccc", uint16(10), uint16(100))
	f.Add("m", "abc\x00def\x00ghi", uint16(10), uint16(100))
	f.Add("model", strings.Repeat("x", 300)+"\x00y", uint16(20), uint16(200))
	f.Add("", "\x00\x00\x00\x00\x00\x00", uint16(10), uint16(100))
	f.Fuzz(func(t *testing.T, model, joined string, batch, maxSize uint16) {
		texts := strings.Split(joined, "\x00")
		l := limits{batch: int(batch), max: int(maxSize)}
		spans, err := batches(model, texts, l)
		if err != nil {
			if !errors.Is(err, sdk.ErrInvalidInput) {
				t.Fatalf("error %v does not match sdk.ErrInvalidInput", err)
			}
			for _, tx := range texts {
				if size(model, []string{tx}) > l.max {
					return
				}
			}
			t.Fatalf("refused (%v) though every text fits a request of %d bytes alone", err, l.max)
		}
		next := 0
		for _, s := range spans {
			if s.lo != next || s.hi <= s.lo {
				t.Fatalf("span %v after %d: spans must be consecutive and non-empty (%v)", s, next, spans)
			}
			next = s.hi
			n := size(model, texts[s.lo:s.hi])
			if s.hi-s.lo > 1 && n > l.batch {
				t.Errorf("span %v of several texts encodes to %d bytes, over the batch size %d", s, n, l.batch)
			}
			if n > l.max {
				t.Errorf("span %v encodes to %d bytes, over the maximum %d", s, n, l.max)
			}
		}
		if next != len(texts) {
			t.Fatalf("spans end at %d, want %d (%v)", next, len(texts), spans)
		}
	})
}

// size is the encoded size of a request for texts.
func size(model string, texts []string) int {
	req := &tokenizerv1.CountRequest{Model: model}
	for _, t := range texts {
		req.Texts = append(req.Texts, []byte(t))
	}
	return proto.Size(req)
}
