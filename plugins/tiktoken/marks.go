package tiktoken

import (
	"context"
	"fmt"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe"
	"github.com/chunkkit/chunkkit/sdk"
)

// Counting ranges of measured texts (sdk.RangeCounter). Through the plugin, a chunker measures
// a document's blocks with RetainBoundaries and then counts its chunks, a context line and
// ranges of those blocks, with CountRanges: counted anew, that second call encodes the
// document again, about as many bytes as the first (docs/reference/tokenizers.md, "Counting
// substrings"). A Counter on the Backtrack backend instead keeps, for each text it measures,
// some of the places where the pre-tokenizer ended a piece (checkpoints), with the number of
// tokens before each, and counts a range between two of them by subtracting.
//
// Why that is exact. The encoding's tokens are the BPE tokens of each piece its pre-tokenizer
// splits the text into, and a piece's tokens depend on the piece alone. The pre-tokenizer
// (the encoding's regular expression, which internal/pretok's scanners implement) finds each
// piece from where the one before ended, left to right, and has no look-behind: where a piece
// starts and ends depends only on the bytes from its start up to the last byte the expression
// looks at, which is
//   - for a piece of white space, at most the end of the white-space run it starts in, and the
//     one character after it (\s+(?!\S), \s*[\r\n]+ backtracking inside the run);
//   - for any other piece, at most a few bytes past its end: the character that stops a run of
//     letters, digits or punctuation (up to 4 bytes), or the apostrophe, letter and character
//     of a contraction that does not match ('l then not l: up to 6 bytes).
// So if the scan of a text being counted reaches a checkpoint c of a measured text at a piece
// boundary of its own, inside a range [start, end) of that measured text, it ends the same
// pieces the measured text's scan ended from c on, up to a checkpoint q whose pieces before it
// only look at bytes before end: q at most jumpMargin bytes before the range's last letter or
// number. (Any white-space run that starts before q ends before that letter or number, which is
// not white space.) The counted text's pieces from c to q are the measured text's, whose tokens
// number toks(q) - toks(c); the scan goes on from q, through the range's end and whatever
// follows it. TestCountMarkedIsCount holds this to Count on every encoding, with texts built to
// catch each of the cases above, and FuzzCountMarked goes on from there.

// checkpointGap is the fewest bytes between two checkpoints of a measured text: the pieces a
// range's count encodes anew are about this many bytes at each end of a range, and each
// checkpoint costs 8 bytes while it is kept (about 30% of an English text's size).
const checkpointGap = 24

// jumpMargin is how many bytes before a range's last letter or number its count's last
// checkpoint may be, at least: the most bytes past a piece's end the pre-tokenizer looks at
// (above). TestCountMarkedIsCount fails with 0.
const jumpMargin = 8

// jumped, when set (by tests), is told of each jump a count makes, from at to to in the text
// being counted.
var jumped func(at, to int)

// marks is what a Counter keeps of the texts of one MeasureMarked call, for CountMarked: their
// checkpoints, text after text, in three slices, so that a call of thousands of small blocks
// costs three allocations and 4 bytes a text besides its checkpoints.
type marks struct {
	at    []int32    // offsets in their text where a piece ends (or 0), increasing within one
	toks  []int32    // the number of their text's tokens before each
	first []int32    // text i's checkpoints are [first[i], first[i+1]): none when not marked
	vocab *bpe.Vocab // the encoding that counted them: another one's marks are not used
}

// Size returns the bytes m holds (sdk.RangeCounter: the plugin counts them in what it keeps).
func (m *marks) Size() int { return 4 * (cap(m.at) + cap(m.toks) + cap(m.first)) }

// of returns the checkpoints of text i, none when it has none or there is no text i.
func (m *marks) of(i int) (at, toks []int32) {
	if i < 0 || i+1 >= len(m.first) {
		return nil, nil
	}
	from, to := m.first[i], m.first[i+1]
	return m.at[from:to], m.toks[from:to]
}

// markingEncoder is an encoder that can record a text's checkpoints while it measures it.
type markingEncoder interface {
	encoder
	// appendTokenLensMarked is appendTokenLens, which also appends text's checkpoints to at
	// and the tokens before each to toks.
	appendTokenLensMarked(dst []int, text string, at, toks []int32) ([]int, []int32, []int32, error)
	// countMarked counts text, whose ranges have marks of this encoder, without encoding the
	// pieces between two checkpoints of a range again.
	countMarked(text string, ranges []sdk.MarkedRange) (int, error)
	// vocabulary returns the vocabulary it encodes with.
	vocabulary() *bpe.Vocab
}

// Compile-time check that Counter can count ranges of what it measured.
var _ sdk.RangeCounter = (*Counter)(nil)

// MeasureMarked returns what Boundaries returns and, on the Backtrack backend, the texts'
// checkpoints as the mark: those of each valid UTF-8 text under 2 GiB (CountMarked counts
// ranges of the others anew). Other backends return no mark.
func (c *Counter) MeasureMarked(ctx context.Context, texts []string) ([][]int, any, error) {
	enc, done := c.engine.batch()
	defer done()
	me, ok := enc.(markingEncoder)
	if !ok {
		bounds, err := c.Boundaries(ctx, texts)
		return bounds, nil, err
	}
	// Room for every checkpoint at once (a text has at most len/checkpointGap+1), copied to
	// its size at the end.
	room := 0
	for _, text := range texts {
		room += len(text)/checkpointGap + 1
	}
	at, toks := make([]int32, 0, room), make([]int32, 0, room)
	first := make([]int32, len(texts)+1)
	plain := enc.appendTokenLens
	marking := func(dst []int, text string) ([]int, error) {
		var err error
		dst, at, toks, err = me.appendTokenLensMarked(dst, text, at, toks)
		return dst, err
	}
	out := make([][]int, len(texts))
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		first[i] = int32(len(at))
		valid := utf8.ValidString(text)
		appendLens := marking
		if !valid || len(text) > math.MaxInt32 {
			appendLens = plain
		}
		bounds, err := c.boundariesOf(i, text, valid, appendLens)
		if err != nil {
			return nil, nil, err
		}
		out[i] = bounds
	}
	first[len(texts)] = int32(len(at))
	return out, &marks{at: slices.Clone(at), toks: slices.Clone(toks), first: first, vocab: me.vocabulary()}, nil
}

// CountMarked returns what Count returns for each text's Text, counting the ranges marked by
// MeasureMarked of this Counter between their checkpoints from those (see above). Ranges with
// another mark, texts that are not valid UTF-8 and other backends are counted anew.
func (c *Counter) CountMarked(ctx context.Context, texts []sdk.MarkedText) ([]int, error) {
	enc, done := c.engine.batch()
	defer done()
	me, ok := enc.(markingEncoder)
	counts := make([]int, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !ok || len(t.Ranges) == 0 || !validMarked(t) {
			n, err := c.countText(enc, i, t.Text)
			if err != nil {
				return nil, err
			}
			counts[i] = n
			continue
		}
		n, err := me.countMarked(t.Text, t.Ranges)
		if err != nil {
			return nil, fmt.Errorf("%s: count text %d: %w", c.Name(), i, err)
		}
		counts[i] = n
	}
	return counts, nil
}

// validMarked reports whether t.Text is valid UTF-8, without reading the ranges of texts with
// checkpoints: those are valid texts (MeasureMarked gives no other any), so a range of one is
// valid where it starts at a rune and ends after one.
func validMarked(t sdk.MarkedText) bool {
	from := 0
	for _, r := range t.Ranges {
		if r.At < from || r.Len < 0 || r.At+r.Len > len(t.Text) {
			return false
		}
		if !utf8.ValidString(t.Text[from:r.At]) {
			return false
		}
		from = r.At + r.Len
		piece := t.Text[r.At:from]
		if m, ok := r.Mark.(*marks); !ok || !m.marked(r.Of) {
			if !utf8.ValidString(piece) {
				return false
			}
			continue
		}
		if piece == "" {
			continue
		}
		if last, size := utf8.DecodeLastRuneInString(piece); !utf8.RuneStart(piece[0]) || last == utf8.RuneError && size == 1 {
			return false
		}
	}
	return utf8.ValidString(t.Text[from:])
}

// marked reports whether text i has checkpoints: a valid text that is not empty.
func (m *marks) marked(i int) bool {
	at, _ := m.of(i)
	return len(at) > 0
}

// jumper finds, as a count's scan goes through one range of a measured text, the checkpoint it
// may jump from and the one it may jump to.
type jumper struct {
	r        sdk.MarkedRange
	at, toks []int32 // the checkpoints of the range's text, and the tokens before each
	next     int     // the first checkpoint at or after the scan's position
	last     int     // the last checkpoint the scan may jump to; none when below next
}

// reset sets j up for range r of text, the text being counted with vocab.
func (j *jumper) reset(text string, r sdk.MarkedRange, vocab *bpe.Vocab) {
	j.r, j.at, j.toks, j.next, j.last = r, nil, nil, 0, -1
	m, _ := r.Mark.(*marks)
	if m == nil || m.vocab != vocab {
		return
	}
	j.at, j.toks = m.of(r.Of)
	if len(j.at) == 0 {
		return
	}
	// The range's last letter or number, which is not white space.
	w := r.At + r.Len
	for w > r.At {
		c, size := utf8.DecodeLastRuneInString(text[r.At:w])
		if unicode.IsLetter(c) || unicode.IsNumber(c) {
			break
		}
		w -= size
	}
	limit := r.Start + (w - r.At) - jumpMargin
	if limit-r.Start < checkpointGap {
		return // there cannot be two checkpoints to jump between
	}
	j.next, _ = slices.BinarySearch(j.at, int32(r.Start))
	last, found := slices.BinarySearch(j.at[j.next:], int32(limit))
	if !found {
		last--
	}
	j.last = j.next + last
}

// jump returns where a scan at at, a boundary of the scan's pieces inside the range, may go on
// from, and the number of tokens between, if at is a checkpoint with a later one to go to.
func (j *jumper) jump(at int) (to, toks int, ok bool) {
	if j.next >= j.last {
		return 0, 0, false
	}
	p := j.r.Start + at - j.r.At
	for j.next < j.last && int(j.at[j.next]) < p {
		j.next++
	}
	if j.next >= j.last || int(j.at[j.next]) != p {
		return 0, 0, false
	}
	to = j.r.At + int(j.at[j.last]) - j.r.Start
	toks = int(j.toks[j.last] - j.toks[j.next])
	j.next = j.last // one jump a range: nothing is left to jump over
	return to, toks, true
}

// Compile-time check that Counter counts the pieces of what it measured, in-process too.
var _ sdk.Retainer = (*Counter)(nil)

// RetainBoundaries implements sdk.Retainer, so that a chunker in the same process gets what the
// plugin's CountRanges gets: MeasureMarked's boundaries, and a Retained whose CountPieces counts
// each item with CountMarked, a few pieces at the edges of each of its ranges. texts must not
// change while the Retained is used.
func (c *Counter) RetainBoundaries(ctx context.Context, texts []string) ([][]int, sdk.Retained, error) {
	bounds, mark, err := c.MeasureMarked(ctx, texts)
	if err != nil {
		return nil, nil, err
	}
	return bounds, markedTexts{c: c, texts: texts, mark: mark}, nil
}

// markedTexts is the sdk.Retained of a Counter's RetainBoundaries.
type markedTexts struct {
	c     *Counter
	texts []string
	mark  any
}

// CountPieces returns the count of each item's text, the one sdk.Build builds (and a piece
// outside the texts is its error), through CountMarked.
func (m markedTexts) CountPieces(ctx context.Context, items [][]sdk.Piece) ([]int, error) {
	texts, err := sdk.Build(m.texts, items)
	if err != nil {
		return nil, err
	}
	out := make([]sdk.MarkedText, len(items))
	var ranges []sdk.MarkedRange
	for i, item := range items {
		from, at := len(ranges), 0
		for _, p := range item {
			if p.Text < 0 {
				at += len(p.Literal)
				continue
			}
			ranges = append(ranges, sdk.MarkedRange{At: at, Len: p.End - p.Start, Mark: m.mark, Of: p.Text, Start: p.Start})
			at += p.End - p.Start
		}
		out[i] = sdk.MarkedText{Text: texts[i], Ranges: ranges[from:len(ranges):len(ranges)]}
	}
	return m.c.CountMarked(ctx, out)
}
