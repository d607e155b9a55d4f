package tiktoken

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// markFragments are what TestCountMarkedIsCount builds texts of: each kind of piece the four
// encodings' pre-tokenizers tell apart, the characters that end one (letters of each case
// class, marks, digits, punctuation, each kind of white space) and the ones they look past a
// piece's end for (contractions, "/" after punctuation in o200k_base, \r\n after it).
var markFragments = []string{
	"a", "word", "Word", "WORD", "wORd", "é", "É", "ǅ", "ʰ", "中文", "\u0301", "ß", "ſ", "ﬆ",
	"1", "12", "123", "1234567", "٣", "½", "Ⅻ",
	"'", "'s", "'S", "'ll", "'LL", "'re", "'ve", "'m", "'d", "'t", "'x", "'l", "’s",
	" ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n", "\n ", "\u00a0", "\u3000", "\u2028", "\v", "\f",
	".", ",", "!", "?", "-", "--", "/", "//", "#", "(", ")", "*", "|", "`", "```",
	"😀", "🇫🇷", "<|endoftext|>", "x'", "a'b", "$1", "...",
}

// randomMarkText returns a text of about n bytes of fragments, runs of one fragment included.
func randomMarkText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		f := markFragments[r.IntN(len(markFragments))]
		reps := 1
		if r.IntN(8) == 0 {
			reps = 1 + r.IntN(40)
		}
		for range reps {
			b.WriteString(f)
		}
	}
	return b.String()
}

// randomCut returns an offset in text: mostly at a rune boundary, sometimes at a token end or
// at any byte.
func randomCut(r *rand.Rand, text string, ends []int) int {
	switch k := r.IntN(10); {
	case k < 3 && len(ends) > 0:
		return ends[r.IntN(len(ends))]
	case k < 4:
		return r.IntN(len(text) + 1)
	default:
		at := r.IntN(len(text) + 1)
		for at < len(text) && !utf8.RuneStart(text[at]) {
			at++
		}
		return at
	}
}

// randomItem returns one to four pieces: literals of fragments up to literalMax bytes, and
// ranges of texts (whose token ends are ends) cut by randomCut.
func randomItem(r *rand.Rand, texts []string, ends [][]int, literalMax int) []sdk.Piece {
	var item []sdk.Piece
	for range 1 + r.IntN(4) {
		if r.IntN(3) == 0 {
			item = append(item, sdk.LiteralPiece(randomMarkText(r, r.IntN(literalMax))))
			continue
		}
		i := r.IntN(len(texts))
		from, to := randomCut(r, texts[i], ends[i]), randomCut(r, texts[i], ends[i])
		if from > to {
			from, to = to, from
		}
		item = append(item, sdk.Piece{Text: i, Start: from, End: to})
	}
	return item
}

// TestCountMarkedIsCount holds CountMarked to Count on every encoding: texts made of each kind
// of piece, measured with MeasureMarked, then counted as composites of ranges of them (cut at
// runes, tokens or any byte) and literals, as a chunk's context line and separators are. It also
// checks that MeasureMarked's boundaries are Boundaries', and that counts do jump between
// checkpoints (the mutation that never jumps would pass the rest), over most of a long range.
func TestCountMarkedIsCount(t *testing.T) {
	ctx := context.Background()
	sample, err := os.ReadFile("../../testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	skipped, total := 0, 0
	jumped = func(at, to int) { skipped += to - at }
	defer func() { jumped = nil }()
	for _, enc := range Encodings() {
		c, err := New(enc, Backtrack)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, uint64(len(enc))))
		texts := []string{string(sample), "", "x", "  \n\n", "a\xffb c"}
		for range 60 {
			texts = append(texts, randomMarkText(r, 1+r.IntN(1200)))
		}
		ends, kept, err := c.MeasureMarked(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.Boundaries(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, ends); diff != "" {
			t.Fatalf("%s: MeasureMarked's boundaries are not Boundaries' (-want +got):\n%s", enc, diff)
		}
		m := kept.(*marks)
		if m.marked(4) || m.marked(1) || !m.marked(2) {
			t.Errorf("%s: texts with checkpoints: invalid UTF-8 %v, empty %v, %q %v; want false, false, true", enc, m.marked(4), m.marked(1), texts[2], m.marked(2))
		}
		var composites []sdk.MarkedText
		for range 1500 {
			var b strings.Builder
			var ranges []sdk.MarkedRange
			for _, p := range randomItem(r, texts, ends, 30) {
				if p.Text < 0 {
					b.WriteString(p.Literal)
					continue
				}
				ranges = append(ranges, sdk.MarkedRange{At: b.Len(), Len: p.End - p.Start, Mark: kept, Of: p.Text, Start: p.Start})
				b.WriteString(texts[p.Text][p.Start:p.End])
			}
			composites = append(composites, sdk.MarkedText{Text: b.String(), Ranges: ranges})
		}
		// The sample whole, and from its first token on, as one range each.
		composites = append(composites,
			sdk.MarkedText{Text: texts[0], Ranges: []sdk.MarkedRange{{Len: len(texts[0]), Mark: kept}}},
			sdk.MarkedText{Text: "Sample › " + texts[0][ends[0][0]:], Ranges: []sdk.MarkedRange{{At: len("Sample › "), Len: len(texts[0]) - ends[0][0], Mark: kept, Start: ends[0][0]}}})
		plain := make([]string, len(composites))
		for i, m := range composites {
			plain[i] = m.Text
			total += len(m.Text)
		}
		before := skipped
		got, err := c.CountMarked(ctx, composites)
		if err != nil {
			t.Fatal(err)
		}
		counts, err := c.Count(ctx, plain)
		if err != nil {
			t.Fatal(err)
		}
		for i := range counts {
			if got[i] != counts[i] {
				t.Errorf("%s: composite %d %q (ranges %+v): CountMarked %d, Count %d", enc, i, composites[i].Text, composites[i].Ranges, got[i], counts[i])
			}
		}
		if n := len(texts[0]); skipped-before < n*8/10 {
			t.Errorf("%s: counts skipped %d bytes, fewer than 80%% of the %d-byte sample alone", enc, skipped-before, n)
		}
	}
	t.Logf("counts skipped %d of %d bytes", skipped, total)
}

// FuzzCountMarked holds CountMarked to Count on any measured text and literal (measured
// together, the text second): the measured text's ranges [a, b) and [b, c) (offsets taken modulo its length plus one) counted alone,
// after and before the literal, and both with the literal between and around them, on every
// encoding. Run it with go test -run '^$' -fuzz FuzzCountMarked ./plugins/tiktoken.
func FuzzCountMarked(f *testing.F) {
	f.Add("Hello world, it's 2026.\n\n  Next   paragraph's text\n", "Title › ", uint16(0), uint16(20), uint16(40))
	f.Add("abc'll   \n\n\n   x 123456 'S  /// \r\n\r\n", "\n\n", uint16(3), uint16(9), uint16(30))
	f.Add(strings.Repeat("word ", 40)+strings.Repeat(" ", 40)+"\n"+strings.Repeat(" ", 40)+"end", " ", uint16(0), uint16(230), uint16(400))
	f.Add("中文字符 ÉÉÉéé ǅx ʰʰ \u0301\u0301 ½½ 😀😀 \u3000\u3000x", "'", uint16(2), uint16(17), uint16(60))
	ctx := context.Background()
	var counters []*Counter
	for _, enc := range Encodings() {
		c, err := New(enc, Backtrack)
		if err != nil {
			f.Fatal(err)
		}
		counters = append(counters, c)
	}
	f.Fuzz(func(t *testing.T, measured, literal string, a, b, c uint16) {
		if len(measured) > 4096 {
			measured = measured[:4096]
		}
		n := len(measured) + 1
		i, j, k := int(a)%n, int(b)%n, int(c)%n
		if i > j {
			i, j = j, i
		}
		if j > k {
			k = j
		}
		for _, tc := range counters {
			// The measured text second of two, as a block after another in one call.
			_, m, err := tc.MeasureMarked(ctx, []string{literal, measured})
			if err != nil {
				t.Fatal(err)
			}
			first, second := measured[i:j], measured[j:k]
			ra := sdk.MarkedRange{Len: j - i, Mark: m, Of: 1, Start: i}
			at := func(r sdk.MarkedRange, at int) sdk.MarkedRange { r.At = at; return r }
			rb := sdk.MarkedRange{Len: k - j, Mark: m, Of: 1, Start: j}
			composites := []sdk.MarkedText{
				{Text: first, Ranges: []sdk.MarkedRange{ra}},
				{Text: literal + first, Ranges: []sdk.MarkedRange{at(ra, len(literal))}},
				{Text: first + literal, Ranges: []sdk.MarkedRange{ra}},
				{Text: first + second, Ranges: []sdk.MarkedRange{ra, at(rb, len(first))}},
				{Text: literal + first + literal + second + literal, Ranges: []sdk.MarkedRange{
					at(ra, len(literal)), at(rb, 2*len(literal)+len(first))}},
			}
			plain := make([]string, len(composites))
			for x, m := range composites {
				plain[x] = m.Text
			}
			got, err := tc.CountMarked(ctx, composites)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tc.Count(ctx, plain)
			if err != nil {
				t.Fatal(err)
			}
			for x := range want {
				if got[x] != want[x] {
					t.Errorf("%s: composite %d %q: CountMarked %d, Count %d", tc.Name(), x, plain[x], got[x], want[x])
				}
			}
		}
	})
}

// TestRetainedCountsPiecesAsCountingRetainedDoes holds the Retained of RetainBoundaries, which
// in-process chunkers use, to sdk.CountingRetained (Build, then Count): items of one range,
// several ranges and literals, only literals, and none, over texts made of every kind of piece;
// and a piece outside its text is sdk.CheckPieces' error.
func TestRetainedCountsPiecesAsCountingRetainedDoes(t *testing.T) {
	ctx := context.Background()
	c, err := New("o200k_base", Backtrack)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	var texts []string
	for range 40 {
		texts = append(texts, randomMarkText(r, r.IntN(900)))
	}
	texts = append(texts, "bad \xff\xfe bytes")
	bounds, retained, err := c.RetainBoundaries(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := c.Boundaries(ctx, texts); !cmp.Equal(want, bounds) {
		t.Fatal("RetainBoundaries' boundaries are not Boundaries'")
	}
	items := [][]sdk.Piece{{}, {sdk.LiteralPiece("only › a literal")}}
	for range 800 {
		items = append(items, randomItem(r, texts, bounds, 20))
	}
	got, err := retained.CountPieces(ctx, items)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sdk.CountingRetained{Counter: c, Texts: texts}.CountPieces(ctx, items)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CountPieces (-CountingRetained +Retained):\n%s", diff)
	}
	_, err = retained.CountPieces(ctx, [][]sdk.Piece{{{Text: 0, Start: 0, End: len(texts[0]) + 1}}})
	if !errors.Is(err, sdk.ErrInvalidInput) {
		t.Errorf("a piece past its text: err = %v, want sdk.ErrInvalidInput", err)
	}
}

// A mark of another encoding's Counter is not used: its checkpoints count other tokens.
func TestCountMarkedIgnoresAnotherEncodingsMarks(t *testing.T) {
	ctx := context.Background()
	sample, err := os.ReadFile("../../testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	cl, err := New("cl100k_base", Backtrack)
	if err != nil {
		t.Fatal(err)
	}
	r50, err := New("r50k_base", Backtrack)
	if err != nil {
		t.Fatal(err)
	}
	text := string(sample)
	_, marks, err := r50.MeasureMarked(ctx, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	jumps := 0
	jumped = func(int, int) { jumps++ }
	defer func() { jumped = nil }()
	got, err := cl.CountMarked(ctx, []sdk.MarkedText{{Text: text, Ranges: []sdk.MarkedRange{{Len: len(text), Mark: marks}}}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := cl.Count(ctx, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != want[0] || jumps != 0 {
		t.Errorf("cl100k_base with r50k_base's marks: %d tokens after %d jumps, want Count's %d and none", got[0], jumps, want[0])
	}
}
