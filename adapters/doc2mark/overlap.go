package doc2mark

import (
	"context"
	"strings"
	"unicode/utf8"
)

// addOverlap is doc2mark's _apply_overlap: before each chunk but the first it puts the tail of
// the previous chunk's content — as already extended by its own overlap — and "\n\n". The tail
// is the whole previous content when that measures at most overlap; otherwise its last overlap
// code points or tokens, cut after their first space.
func addOverlap(ctx context.Context, chunks []Chunk, overlap int, m measurer) error {
	if m.tokens {
		return addTokenOverlap(ctx, chunks, overlap, m)
	}
	for i := 1; i < len(chunks); i++ {
		chunks[i].Content = charTail(chunks[i-1].Content, overlap) + sep + chunks[i].Content
	}
	return nil
}

// charTail is the overlap tail of prev in code points.
func charTail(prev string, overlap int) string {
	start, longer := pyTailStart(prev, overlap)
	if !longer {
		return prev
	}
	return cutAfterSpace(prev[start:])
}

// cutAfterSpace drops everything up to and including the first " ", when there is one.
func cutAfterSpace(s string) string {
	if j := strings.IndexByte(s, ' '); j >= 0 {
		return s[j+1:]
	}
	return s
}

// ends is what the token overlap needs of a text's tokens: their number, and the end offsets
// of the last overlap+1 of them (all of them when there are fewer).
type ends struct {
	n    int
	last []int
}

func keepEnds(bounds []int, overlap int) ends {
	return ends{n: len(bounds), last: bounds[max(0, len(bounds)-overlap-1):]}
}

// tokenTail is the overlap tail of prev in tokens, given prev's ends, and its offset in prev.
// Boundaries fall on character boundaries, so a tail whose first token starts inside a
// character starts at the next whole one.
func tokenTail(prev string, e ends, overlap int) (string, int) {
	if e.n <= overlap {
		return prev, 0
	}
	start := e.last[0]
	if j := strings.IndexByte(prev[start:], ' '); j >= 0 {
		start += j + 1
	}
	return prev[start:], start
}

// contextBytes is about how much of the end of a chunk is measured together with the next
// chunk, so that tokens that span the "\n\n" between them are predicted right.
const contextBytes = 64

// seam is what the prediction knows of the start of a chunk's final content: the tokens of
// ctx + "\n\n" + packed, where ctx is the end of the previous packed chunk.
type seam struct {
	ctx   int  // len(ctx)
	toks  ends // ends of ctx + "\n\n" + packed
	inCtx int  // how many of those tokens end within ctx
}

// seamContext returns the end of the packed chunk prev to measure with the next chunk: its last
// contextBytes or so, starting at a space when there is one (a token boundary in most
// encodings), else at a character boundary.
func seamContext(prev string) string {
	if len(prev) <= contextBytes {
		return prev
	}
	from := len(prev) - contextBytes
	if j := strings.IndexByte(prev[from:], ' '); j >= 0 {
		return prev[from+j:]
	}
	for from < len(prev) && !utf8.RuneStart(prev[from]) {
		from++
	}
	return prev[from:]
}

// compose returns the content doc2mark gives a chunk whose predecessor's final content is
// prev, the tail it used, and an estimate of the new content's ends: the tail's tokens up to
// the seam context, then the tokens measured for context, "\n\n" and the packed chunk
// together. The estimate is exact unless the tokenizer merges tokens across the start of the
// context, or the tail is shorter than the context.
func compose(prev string, prevEnds ends, packed string, sm seam, overlap int) (string, string, ends) {
	tail, start := tokenTail(prev, prevEnds, overlap)
	content := tail + sep + packed
	cut := len(tail) - sm.ctx // where the context starts in content; the tail ends with it
	all := make([]int, 0, len(prevEnds.last)+len(sm.toks.last))
	n := 0
	if cut >= 0 {
		for _, b := range prevEnds.last {
			if b > start && b-start <= cut {
				all = append(all, b-start)
			}
		}
		n = len(all) + sm.toks.n
		for _, b := range sm.toks.last {
			all = append(all, cut+b)
		}
	} else {
		for _, b := range prevEnds.last {
			if b > start {
				all = append(all, b-start)
			}
		}
		n = len(all) + sm.toks.n - sm.inCtx
		for _, b := range sm.toks.last {
			if b > sm.ctx {
				all = append(all, cut+b)
			}
		}
	}
	return content, tail, ends{n: n, last: all[max(0, len(all)-overlap-1):]}
}

// addTokenOverlap applies the overlap in tokens. Each tail depends on the previous chunk's
// final content, so doc2mark measures the chunks one after another. Here one Boundaries call
// — over the first chunk, and every other chunk (but the last) after the end of the one
// before and "\n\n" — lets every final content be predicted, and one call over the
// predictions confirms them. At the first tail the prediction got wrong, the contents from
// there on are rebuilt with the true tail and confirmed by a further call. That call covers
// twice as many chunks as the previous one confirmed (at least two), so that a counter whose
// tokens the prediction keeps missing costs about one call per chunk, as in doc2mark, and
// never a quadratic amount of text.
func addTokenOverlap(ctx context.Context, chunks []Chunk, overlap int, m measurer) error {
	n := len(chunks)
	packed := make([]string, n)
	for i := range chunks {
		packed[i] = chunks[i].Content
	}
	texts := make([]string, n-1)
	ctxLen := make([]int, n)
	texts[0] = packed[0]
	for j := 1; j < n-1; j++ {
		c := seamContext(packed[j-1])
		ctxLen[j] = len(c)
		texts[j] = c + sep + packed[j]
	}
	pb, err := m.boundaries(ctx, texts)
	if err != nil {
		return err
	}
	seams := make([]seam, n) // seams[0] is unused and seams[n-1] unmeasured: no one needs their ends
	for j := 1; j < n-1; j++ {
		in := 0
		for in < len(pb[j]) && pb[j][in] <= ctxLen[j] {
			in++
		}
		seams[j] = seam{ctx: ctxLen[j], toks: keepEnds(pb[j], overlap), inCtx: in}
	}
	final := make([]string, n)
	fe := make([]ends, n)
	used := make([]string, n) // used[i] is the tail final[i] was built with
	final[0], fe[0] = packed[0], keepEnds(pb[0], overlap)
	window := n
	// Invariant at the top of the loop: final[k] and fe[k] are exact.
	for k := 0; ; {
		hi := min(n-1, k+1+window) // build final[k+1..hi]; confirm the ends of final[k+1..hi-1]
		for i := k + 1; i <= hi; i++ {
			final[i], used[i], fe[i] = compose(final[i-1], fe[i-1], packed[i], seams[i], overlap)
		}
		// final[k+1] was built from exact ends, so it is exact.
		if k+1 >= n-1 {
			break
		}
		eb, err := m.boundaries(ctx, final[k+1:hi])
		if err != nil {
			return err
		}
		confirmed := 0
		last := k + 1 // the last index whose content and ends are now exact
		for j := k + 1; j < hi; j++ {
			fe[j] = keepEnds(eb[j-k-1], overlap)
			last = j
			if tail, _ := tokenTail(final[j], fe[j], overlap); tail != used[j+1] {
				break
			}
			confirmed++
		}
		if confirmed == hi-k-1 && hi == n-1 {
			break
		}
		window = max(2, 2*confirmed)
		k = last
	}
	for i := range chunks {
		chunks[i].Content = final[i]
	}
	return nil
}
