package doc2mark_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

// FuzzParseAndChunk feeds ParseContent arbitrary bytes and ChunkContent (character mode) what
// it parses, under a config made of the fuzzed numbers. Nothing may panic. Bad input must give
// sdk.ErrInvalidInput. Good input must marshal back to the same items, map to a valid
// document with one block per item, and chunk so that every rendered item other than a
// footnote appears whole in some chunk, every footnote's text appears in some chunk, and
// chunk indexes run 0..n-1. ParseParts, its parts joined, must give what Parse does.
func FuzzParseAndChunk(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.src), 50, 10, 2, true)
	}
	for _, tc := range parseErrorCases {
		f.Add([]byte(tc.src), 50, 10, 2, false)
	}
	for _, tc := range readCases(f, filepath.Join("testdata", "cases.json")) {
		f.Add([]byte(tc.Input), 12, 4, 2, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, maxSize, overlap, split int, keep bool) {
		checkParts(t, "fuzz", data, 1) // read an item at a time, it is the same document
		c, err := doc2mark.ParseContent(data)
		if err != nil {
			if !errors.Is(err, sdk.ErrInvalidInput) {
				t.Fatalf("error %v does not match sdk.ErrInvalidInput", err)
			}
			var ie *sdk.InputError
			if !errors.As(err, &ie) || ie.Offset < 0 || ie.Offset > len(data) {
				t.Fatalf("error %v does not give an offset within the input", err)
			}
			return
		}
		if !utf8.Valid(data) {
			t.Fatalf("invalid UTF-8 was accepted")
		}
		again, err := json.Marshal(c.Items)
		if err != nil {
			t.Fatal(err)
		}
		back, err := doc2mark.ParseItems(again)
		if err != nil {
			t.Fatalf("ParseItems of the marshalled items: %v\n%s", err, again)
		}
		if diff := cmp.Diff(c.Items, back, rawAsValue); diff != "" {
			t.Fatalf("marshal round trip (-want +got):\n%s", diff)
		}
		doc := doc2mark.ToDocument(c, doc2mark.Options{ID: "fuzz"})
		if err := doc.Validate(); err != nil {
			t.Fatalf("invalid document: %v", err)
		}
		if len(doc.Blocks) != len(c.Items) {
			t.Fatalf("%d blocks for %d items", len(doc.Blocks), len(c.Items))
		}
		cfg := doc2mark.DefaultConfig()
		cfg.MaxChunkSize, cfg.Overlap, cfg.SplitOnHeadingLevel, cfg.KeepTablesWhole = maxSize%2000, overlap%300, split%4, keep
		chunks, err := doc2mark.ChunkContent(context.Background(), c.Items, &cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkChunks(t, c.Items, chunks)
	})
}

// checkChunks asserts the character-mode invariants of ChunkContent's output.
func checkChunks(t *testing.T, items []doc2mark.Item, chunks []doc2mark.Chunk) {
	t.Helper()
	for i, ch := range chunks {
		if ch.ChunkIndex != i {
			t.Fatalf("chunk %d has index %d", i, ch.ChunkIndex)
		}
	}
	inSome := func(s string) bool {
		for _, ch := range chunks {
			if strings.Contains(ch.Content, s) {
				return true
			}
		}
		return false
	}
	body := false
	for _, it := range items {
		if it.Type != doc2mark.TypeFootnote && rendered(it) != "" {
			body = true
			if !inSome(rendered(it)) {
				t.Fatalf("item %q (%s) is in no chunk", it.Content, it.Type)
			}
		}
	}
	for i, it := range items {
		if it.Type == doc2mark.TypeFootnote && body && !inSome(it.Content) && !replaced(items, i) {
			t.Fatalf("footnote %q is in no chunk", it.Content)
		}
	}
}

// rendered is what doc2mark makes of an item, written out again here from its rules.
func rendered(it doc2mark.Item) string {
	switch it.Type {
	case doc2mark.TypeTitle:
		return "# " + it.Content
	case doc2mark.TypeSection:
		return "## " + it.Content
	case doc2mark.TypeCaption:
		return "*" + it.Content + "*"
	case doc2mark.TypeImage:
		return "![Image](data:image/png;base64," + it.Content + ")"
	case doc2mark.TypeImageDescription:
		// ToDocument gives an image description the text doc2mark renders for it.
		return doc2mark.ToDocument(&doc2mark.Content{Items: []doc2mark.Item{it}}, doc2mark.Options{}).Blocks[0].Text
	case doc2mark.TypeHeader, doc2mark.TypeFooter:
		return ""
	}
	return it.Content
}

// definition is doc2mark's footnote pattern; with RE2 semantics it matches exactly the
// strings Python's backtracking matcher does, \s and \w aside (\w is widened to Unicode here;
// the white space class cannot change whether `\s*(.+)` matches).
var definition = regexp.MustCompile(`^\[\^([\p{L}\p{N}_]+)\]:\s*(.+)`)

// footnoteKey is doc2mark's key for a footnote's content.
func footnoteKey(s string) string {
	if m := definition.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	r := []rune(s)
	return string(r[:min(20, len(r))])
}

// replaced reports whether a later footnote has the same key as items[i] and another text,
// so that items[i]'s text may rightly be gone: doc2mark keeps a key's last definition.
func replaced(items []doc2mark.Item, i int) bool {
	key := footnoteKey(items[i].Content)
	for _, o := range items[i+1:] {
		if o.Type == doc2mark.TypeFootnote && o.Content != items[i].Content && footnoteKey(o.Content) == key {
			return true
		}
	}
	return false
}

// FuzzTokenOverlap holds the batched token overlap to doc2mark's sequential one. Items are
// cut from text at "|", their types picked by kinds; the chunks of ChunkContent with overlap
// must equal the chunks without overlap extended one after another the way doc2mark does it.
// tiktoken and sdk.Words mostly confirm the predictions; pairs, whose tokens depend on the
// parity of their offset, mostly refutes them, so both paths run.
func FuzzTokenOverlap(f *testing.F) {
	f.Add("alpha beta|gamma|delta epsilon zeta|eta", []byte{2, 0, 1, 0}, 3, 2, byte(0))
	f.Add("first   |\n\nsecond part   |\n third   |  \n\nfourth  |\nfifth piece of text  |sixth", []byte{0}, 3, 4, byte(1))
	f.Add("a|b|c|d|e|f|g", []byte{0, 1}, 1, 30, byte(0))
	f.Add("Ünïcødé wörds|日本語 の 文書|🙂🙂🙂 x", []byte{3}, 2, 1, byte(1))
	f.Add("one two three|four five six|seven eight|nine ten eleven twelve", []byte{0}, 5, 3, byte(2))
	tk, err := tiktoken.New("cl100k_base", tiktoken.Fast)
	if err != nil {
		f.Fatal(err)
	}
	counters := []sdk.TokenCounter{sdk.Words{}, tk, pairs{}}
	types := []string{doc2mark.TypeNormal, doc2mark.TypeSection, doc2mark.TypeTitle, doc2mark.TypeTable, doc2mark.TypeHeader}
	f.Fuzz(func(t *testing.T, text string, kinds []byte, maxSize, overlap int, which byte) {
		if !utf8.ValidString(text) || len(text) > 4000 {
			return
		}
		counter := counters[int(which)%len(counters)]
		var items []doc2mark.Item
		for i, part := range strings.Split(text, "|") {
			typ := doc2mark.TypeNormal
			if len(kinds) > 0 {
				typ = types[int(kinds[i%len(kinds)])%len(types)]
			}
			items = append(items, doc2mark.Item{Type: typ, Content: part})
		}
		checkTokenOverlap(t, items, maxSize%50, 1+abs(overlap)%40, counter)
	})
}

// checkTokenOverlap compares ChunkContent's token overlap with doc2mark's sequential one,
// computed here from the chunks without overlap: Count the previous final content, take it
// whole or its last tokens cut after the first space, one call per chunk.
func checkTokenOverlap(t *testing.T, items []doc2mark.Item, maxSize, overlap int, counter sdk.TokenCounter) {
	t.Helper()
	cfg := doc2mark.DefaultConfig()
	cfg.SizeUnit, cfg.MaxChunkSize, cfg.Overlap = doc2mark.UnitTokens, maxSize, overlap
	ctx := context.Background()
	got, err := doc2mark.ChunkContent(ctx, items, &cfg, counter)
	if err != nil {
		t.Fatal(err)
	}
	noOverlap := cfg
	noOverlap.Overlap = 0
	want, err := doc2mark.ChunkContent(ctx, items, &noOverlap, counter)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(want); i++ {
		prev := want[i-1].Content
		tail := prev
		bounds, err := counter.Boundaries(ctx, []string{prev})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(bounds[0]); n > cfg.Overlap {
			tail = prev[bounds[0][n-cfg.Overlap-1]:]
			if j := strings.IndexByte(tail, ' '); j >= 0 {
				tail = tail[j+1:]
			}
		}
		want[i].Content = tail + "\n\n" + want[i].Content
	}
	if diff := cmp.Diff(contents(want), contents(got)); diff != "" {
		t.Fatalf("batched overlap differs from the sequential one (-want +got):\n%s", diff)
	}
}

// pairs is a TokenCounter whose tokens are two bytes long from the start of the text (moved
// up to character boundaries), so that how a text splits depends on where it starts: the
// overlap's predictions from chunks measured apart are mostly wrong.
type pairs struct{}

func (p pairs) Count(ctx context.Context, texts []string) ([]int, error) {
	b, err := p.Boundaries(ctx, texts)
	counts := make([]int, len(b))
	for i := range b {
		counts[i] = len(b[i])
	}
	return counts, err
}

func (pairs) Boundaries(_ context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	for i, t := range texts {
		for end := 2; end < len(t)+2; end += 2 {
			e := min(end, len(t))
			for e < len(t) && !utf8.RuneStart(t[e]) {
				e++
			}
			out[i] = append(out[i], e)
		}
	}
	return out, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
