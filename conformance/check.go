package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/wordbreak"
)

// Options says what CheckChunks holds chunks to.
type Options struct {
	// Counter recounts every chunk's final Content: TokenCount must equal its answer. It is
	// required.
	Counter sdk.TokenCounter
	// MaxTokens is the budget no body chunk's TokenCount may exceed unless the chunk's
	// Metadata[sdk.MetaOverBudget] is true. Zero or less means the chunker promises no budget.
	MaxTokens int
	// OverlapTokens is the overlap the chunker may add. When it is zero, body chunks' ranges
	// must not overlap and must appear in order, and no chunk may claim overlap bytes.
	OverlapTokens int
	// WholeWords holds chunks to DESIGN.md's cuts: no chunk's range starts or ends inside a
	// word, or another UAX #29 segment a cut must leave whole (sdk/wordbreak's Whole: an emoji
	// ZWJ sequence, a flag, CR LF), unless that segment, with the chunk's rendered prefix, is
	// more tokens than MaxTokens.
	WholeWords bool
}

// WordKeeper is implemented by chunkers that cut between words; OptionsFor sets WholeWords
// for them.
type WordKeeper interface {
	// KeepsWords reports whether the chunker's cuts fall between words.
	KeepsWords() bool
}

// OptionsFor returns the Options for chunks made by c and measured by counter: the budget and
// overlap c reports when it implements sdk.Budgeted, none otherwise, and WholeWords when c is
// a WordKeeper that keeps words.
func OptionsFor(c sdk.Chunker, counter sdk.TokenCounter) Options {
	opts := Options{Counter: counter}
	if b, ok := c.(sdk.Budgeted); ok {
		opts.MaxTokens, opts.OverlapTokens = b.Budget()
	}
	if w, ok := c.(WordKeeper); ok {
		opts.WholeWords = w.KeepsWords()
	}
	return opts
}

// Request returns the request Chunker sends with every document: tenant "tenant-a", corpus
// "corpus-b" and ACL labels "team:x" and "public". Each call returns a new value.
func Request() sdk.Request {
	return sdk.Request{
		TenantID:  "tenant-a",
		CorpusID:  "corpus-b",
		Principal: sdk.Principal{ID: "conformance", ACLLabels: []string{"team:x", "public"}},
	}
}

// CheckResult checks the outcome of chunker.Chunk(ctx, req, doc): a document that fails
// doc.Validate must give an error matching sdk.ErrInvalidInput and no chunks; any other
// document must give no error and chunks that pass CheckChunks. Fuzz targets call it on
// whatever document the fuzzer made.
func CheckResult(ctx context.Context, doc *sdk.Document, req sdk.Request, chunks []sdk.Chunk, chunkErr error, opts Options) error {
	if doc == nil {
		return errors.New("conformance: CheckResult: nil document")
	}
	if invalid := doc.Validate(); invalid != nil {
		switch {
		case chunkErr == nil:
			return fmt.Errorf("conformance: document %q: Chunk returned no error for an invalid document (%v)", doc.ID, invalid)
		case !errors.Is(chunkErr, sdk.ErrInvalidInput):
			return fmt.Errorf("conformance: document %q: Chunk error %q does not match sdk.ErrInvalidInput (the document is invalid: %v)", doc.ID, chunkErr, invalid)
		case len(chunks) != 0:
			return fmt.Errorf("conformance: document %q: Chunk returned %d chunks with its error, want none", doc.ID, len(chunks))
		}
		return nil
	}
	if chunkErr != nil {
		return fmt.Errorf("conformance: document %q: Chunk: %w", doc.ID, chunkErr)
	}
	return CheckChunks(ctx, doc, req, chunks, opts)
}

// CheckChunks checks chunks that a chunker made from doc for req against every invariant of
// DESIGN.md and the sdk.Chunker contract, and returns nil or an error that lists the first
// violations by chunk position. It does not call t.Fatal, so fuzz targets and benchmarks can
// use it. It checks:
//
//   - order and links: Position i at index i, ID sdk.ChunkID(doc.ID, i), ParentID empty or
//     the ID of an earlier chunk;
//   - propagation: TenantID and CorpusID from req (or from doc when req leaves them empty),
//     DocumentID doc.ID, ACLLabels equal to req.Principal.ACLLabels;
//   - content: never blank, Metadata[sdk.MetaKind] equal to string(Kind), Kind heading or
//     body, heading Level at least 1, ContentTypes sorted, distinct and kinds of doc's blocks;
//   - offsets: 0 <= Start <= End <= len(canonical) and Content equal to
//     Metadata[sdk.MetaPrefix] (a string, or absent) followed by canonical[Start:End];
//   - embed text: EmbedText equal to sdk.JoinContext(Context, Content), Context on one line
//     with no white space at either end, ContentHash equal to sdk.ContentHash(EmbedText);
//   - budget: TokenCount equal to opts.Counter's count of EmbedText, and no body chunk above
//     opts.MaxTokens unless Metadata[sdk.MetaOverBudget] is true;
//   - nothing lost: every non-space rune of the canonical text inside some chunk's
//     [Start, End); without overlap, body chunks' ranges in order and disjoint; with
//     Metadata[sdk.MetaOverlapBytes] = n > 0, [Start, Start+n) ends where the previous body
//     chunk's range ends;
//   - cuts, with opts.WholeWords: no range starts or ends inside a word (or a flag, an emoji
//     sequence, CR LF: wordbreak.Whole) unless it, with the chunk's prefix, is over
//     opts.MaxTokens;
//   - pages: 0 <= PageStart <= PageEnd, and known pages within the pages of the blocks the
//     chunk's range overlaps;
//   - a document without blocks gives no chunks.
//
// An error from opts.Counter is returned as is, wrapped; it is not a violation.
func CheckChunks(ctx context.Context, doc *sdk.Document, req sdk.Request, chunks []sdk.Chunk, opts Options) error {
	if doc == nil {
		return errors.New("conformance: CheckChunks: nil document")
	}
	if opts.Counter == nil {
		return errors.New("conformance: CheckChunks: Options.Counter is nil")
	}
	canon := doc.Canonical()
	v := &violations{document: doc.ID}
	if len(doc.Blocks) == 0 && len(chunks) > 0 {
		v.add(-1, ruleContent, "%d chunks for a document without blocks, want none", len(chunks))
	}

	embeds := make([]string, len(chunks))
	for i, c := range chunks {
		embeds[i] = c.EmbedText
	}
	counts, err := opts.Counter.Count(ctx, embeds)
	if err != nil {
		return fmt.Errorf("conformance: document %q: recounting %d chunks: %w", doc.ID, len(chunks), err)
	}
	if err := sdk.CheckCounts(embeds, counts); err != nil {
		return fmt.Errorf("conformance: document %q: recounting %d chunks: %w", doc.ID, len(chunks), err)
	}

	kinds := map[sdk.BlockKind]bool{}
	for _, b := range doc.Blocks {
		kinds[b.Kind] = true
	}
	tenant, corpus := req.TenantID, req.CorpusID
	if tenant == "" {
		tenant = doc.TenantID
	}
	if corpus == "" {
		corpus = doc.CorpusID
	}
	earlier := make(map[string]bool, len(chunks))
	prevBody := -1
	for i, c := range chunks {
		checkIdentity(v, i, c, doc, tenant, corpus, req, earlier)
		earlier[c.ID] = true
		checkContent(v, i, c, kinds)
		checkEmbedText(v, i, c)
		rangeOK := checkOffsets(v, i, c, canon.Text)
		checkBudget(v, i, c, counts[i], opts)
		if rangeOK {
			checkPages(v, i, c, doc, canon)
		}
		if c.Kind == sdk.ChunkBody && rangeOK {
			var prev *sdk.Chunk
			if prevBody >= 0 {
				prev = &chunks[prevBody]
			}
			checkBodyOrder(v, i, c, prev, opts)
			prevBody = i
		}
	}
	checkCoverage(v, canon.Text, chunks)
	if opts.WholeWords {
		if err := checkWordCuts(ctx, v, canon.Text, chunks, opts); err != nil {
			return fmt.Errorf("conformance: document %q: %w", doc.ID, err)
		}
	}
	return v.err()
}

// checkWordCuts finds the ranges that start or end inside a word and files those whose word,
// with the chunk's prefix, fits the budget; it counts the words in one call.
func checkWordCuts(ctx context.Context, v *violations, canon string, chunks []sdk.Chunk, opts Options) error {
	type cut struct {
		chunk int
		end   bool
		word  wordbreak.Span
	}
	var cuts []cut
	var texts []string
	ix := wordbreak.NewIndex(canon)
	for i, c := range chunks {
		if c.Start < 0 || c.Start > c.End || c.End > len(canon) {
			continue // an offsets violation already
		}
		for _, end := range []bool{false, true} {
			off := c.Start
			if end {
				off = c.End
			}
			if w, inside := ix.Inside(off); inside {
				prefix, _ := c.Metadata[sdk.MetaPrefix].(string)
				cuts = append(cuts, cut{i, end, w})
				texts = append(texts, prefix+canon[w.Start:w.End])
			}
		}
	}
	if len(cuts) == 0 {
		return nil
	}
	counts, err := opts.Counter.Count(ctx, texts)
	if err != nil {
		return fmt.Errorf("counting %d words cut inside: %w", len(texts), err)
	}
	if err := sdk.CheckCounts(texts, counts); err != nil {
		return fmt.Errorf("counting %d words cut inside: %w", len(texts), err)
	}
	for k, x := range cuts {
		if opts.MaxTokens > 0 && counts[k] > opts.MaxTokens {
			continue
		}
		where, off := "starts", chunks[x.chunk].Start
		if x.end {
			where, off = "ends", chunks[x.chunk].End
		}
		v.add(x.chunk, ruleCuts, "range %s at byte %d inside the word %s, which fits the budget (%d tokens with the prefix)",
			where, off, quote(canon[x.word.Start:x.word.End]), counts[k])
	}
	return nil
}

// The rule names a violation is filed under.
const (
	ruleOrder       = "order"
	ruleLinks       = "links"
	rulePropagation = "propagation"
	ruleContent     = "content"
	ruleKind        = "kind"
	ruleOffsets     = "offsets"
	ruleTokenCount  = "token count"
	ruleBudget      = "budget"
	ruleEmbedText   = "embed text"
	ruleNothingLost = "nothing lost"
	ruleOverlap     = "overlap"
	rulePages       = "pages"
	ruleCuts        = "cuts"
)

func checkIdentity(v *violations, i int, c sdk.Chunk, doc *sdk.Document, tenant, corpus string, req sdk.Request, earlier map[string]bool) {
	if c.Position != i {
		v.add(i, ruleOrder, "Position is %d, want %d", c.Position, i)
	}
	if want := sdk.ChunkID(doc.ID, i); c.ID != want {
		v.add(i, ruleOrder, "ID is %q, want %q", c.ID, want)
	}
	if c.ParentID != "" && !earlier[c.ParentID] {
		v.add(i, ruleLinks, "ParentID %q names no earlier chunk", c.ParentID)
	}
	if c.TenantID != tenant {
		v.add(i, rulePropagation, "TenantID is %q, want %q", c.TenantID, tenant)
	}
	if c.CorpusID != corpus {
		v.add(i, rulePropagation, "CorpusID is %q, want %q", c.CorpusID, corpus)
	}
	if c.DocumentID != doc.ID {
		v.add(i, rulePropagation, "DocumentID is %q, want %q", c.DocumentID, doc.ID)
	}
	if !slices.Equal(c.ACLLabels, req.Principal.ACLLabels) {
		v.add(i, rulePropagation, "ACLLabels are %q, want %q", c.ACLLabels, req.Principal.ACLLabels)
	}
}

func checkContent(v *violations, i int, c sdk.Chunk, kinds map[sdk.BlockKind]bool) {
	if sdk.IsBlank(c.Content) {
		v.add(i, ruleContent, "Content %q is blank", c.Content)
	}
	switch c.Kind {
	case sdk.ChunkBody:
	case sdk.ChunkHeading:
		if c.Level < 1 {
			v.add(i, ruleKind, "heading chunk has Level %d, want 1 or more", c.Level)
		}
		if l, ok := c.Metadata[sdk.MetaLevel]; ok {
			if n, isInt := asInt(l); !isInt || n != c.Level {
				v.add(i, ruleKind, "Metadata[%q] is %#v, want Level %d", sdk.MetaLevel, l, c.Level)
			}
		}
	default:
		v.add(i, ruleKind, "Kind is %q, want %q or %q", c.Kind, sdk.ChunkHeading, sdk.ChunkBody)
	}
	if k, ok := c.Metadata[sdk.MetaKind].(string); !ok || k != string(c.Kind) {
		v.add(i, ruleKind, "Metadata[%q] is %#v, want %q", sdk.MetaKind, c.Metadata[sdk.MetaKind], string(c.Kind))
	}
	if !slices.IsSorted(c.ContentTypes) || len(slices.Compact(slices.Clone(c.ContentTypes))) != len(c.ContentTypes) {
		v.add(i, ruleContent, "ContentTypes %q are not sorted and distinct", c.ContentTypes)
	}
	for _, ct := range c.ContentTypes {
		if !kinds[sdk.BlockKind(ct)] {
			v.add(i, ruleContent, "ContentTypes names %q, the kind of no block in the document", ct)
		}
	}
}

func checkEmbedText(v *violations, i int, c sdk.Chunk) {
	if strings.ContainsAny(c.Context, "\r\n") || strings.TrimSpace(c.Context) != c.Context {
		v.add(i, ruleEmbedText, "Context %s is not one line without white space at its ends", quote(c.Context))
	}
	if want := sdk.JoinContext(c.Context, c.Content); c.EmbedText != want {
		v.add(i, ruleEmbedText, "EmbedText %s is not Context and Content joined as sdk.JoinContext does: %s", quote(c.EmbedText), quote(want))
	}
	if want := sdk.ContentHash(c.EmbedText); c.ContentHash != want {
		v.add(i, ruleEmbedText, "ContentHash is %q, want the SHA-256 of EmbedText %q", c.ContentHash, want)
	}
}

// checkOffsets checks the chunk's range and content and reports whether the range is usable.
func checkOffsets(v *violations, i int, c sdk.Chunk, canon string) bool {
	if c.Start < 0 || c.Start > c.End || c.End > len(canon) {
		v.add(i, ruleOffsets, "range [%d, %d) is not within the canonical text of length %d", c.Start, c.End, len(canon))
		return false
	}
	prefix := ""
	if p, ok := c.Metadata[sdk.MetaPrefix]; ok {
		s, isString := p.(string)
		if !isString {
			v.add(i, ruleOffsets, "Metadata[%q] is %T, want string", sdk.MetaPrefix, p)
		}
		prefix = s
	}
	want := canon[c.Start:c.End]
	got, hasPrefix := strings.CutPrefix(c.Content, prefix)
	switch {
	case !hasPrefix:
		v.add(i, ruleOffsets, "Content %s does not start with Metadata[%q] %s", quote(c.Content), sdk.MetaPrefix, quote(prefix))
	case got != want:
		at := 0
		for at < min(len(got), len(want)) && got[at] == want[at] {
			at++
		}
		v.add(i, ruleOffsets, "Content after the prefix differs from canonical[%d:%d] at byte %d: %s, want %s",
			c.Start, c.End, at, quote(got[at:]), quote(want[at:]))
	}
	return true
}

func checkBudget(v *violations, i int, c sdk.Chunk, count int, opts Options) {
	if c.TokenCount != count {
		v.add(i, ruleTokenCount, "TokenCount is %d, but the counter counts %d tokens in EmbedText", c.TokenCount, count)
	}
	over, hasOver := c.Metadata[sdk.MetaOverBudget]
	overOK, isBool := over.(bool)
	if hasOver && !isBool {
		v.add(i, ruleBudget, "Metadata[%q] is %T, want bool", sdk.MetaOverBudget, over)
	}
	if c.Kind == sdk.ChunkBody && opts.MaxTokens > 0 && count > opts.MaxTokens && !overOK {
		v.add(i, ruleBudget, "%d tokens exceed the budget of %d and Metadata[%q] is not true", count, opts.MaxTokens, sdk.MetaOverBudget)
	}
}

func checkBodyOrder(v *violations, i int, c sdk.Chunk, prev *sdk.Chunk, opts Options) {
	overlap := 0
	if o, ok := c.Metadata[sdk.MetaOverlapBytes]; ok {
		n, isInt := asInt(o)
		if !isInt || n < 0 || n > c.End-c.Start {
			v.add(i, ruleOverlap, "Metadata[%q] is %#v, want a byte count within [0, %d]", sdk.MetaOverlapBytes, o, c.End-c.Start)
			return
		}
		overlap = n
	}
	if overlap > 0 {
		switch {
		case opts.OverlapTokens == 0:
			v.add(i, ruleOverlap, "%d overlap bytes from a chunker without overlap", overlap)
		case prev == nil:
			v.add(i, ruleOverlap, "%d overlap bytes on the first body chunk", overlap)
		case c.Start+overlap != prev.End:
			v.add(i, ruleOverlap, "overlap [%d, %d) does not end where body chunk %d ends (%d)", c.Start, c.Start+overlap, prev.Position, prev.End)
		}
	}
	if opts.OverlapTokens == 0 && prev != nil && c.Start < prev.End {
		v.add(i, ruleNothingLost, "range [%d, %d) starts before body chunk %d's range [%d, %d) ends", c.Start, c.End, prev.Position, prev.Start, prev.End)
	}
}

func checkPages(v *violations, i int, c sdk.Chunk, doc *sdk.Document, canon sdk.Canonical) {
	if c.PageStart < 0 || c.PageStart > c.PageEnd {
		v.add(i, rulePages, "PageStart %d and PageEnd %d are not 0 <= PageStart <= PageEnd", c.PageStart, c.PageEnd)
		return
	}
	if c.PageStart == 0 && c.PageEnd == 0 {
		return
	}
	// Blocks are in canonical order: find the first that ends at or after Start.
	lo, hi := 0, 0
	first := sort.Search(len(doc.Blocks), func(j int) bool { return canon.Starts[j]+len(doc.Blocks[j].Text) >= c.Start })
	for j := first; j < len(doc.Blocks) && canon.Starts[j] <= c.End; j++ {
		bs, be := canon.Starts[j], canon.Starts[j]+len(doc.Blocks[j].Text)
		touches := bs < c.End && be > c.Start || c.Start == c.End && bs <= c.Start && c.Start <= be
		if p := doc.Blocks[j].Page; touches && p > 0 {
			if lo == 0 || p < lo {
				lo = p
			}
			hi = max(hi, p)
		}
	}
	for _, p := range []int{c.PageStart, c.PageEnd} {
		if p != 0 && (p < lo || p > hi) {
			v.add(i, rulePages, "page %d is outside the pages %d..%d of the blocks in [%d, %d)", p, lo, hi, c.Start, c.End)
			return
		}
	}
}

func checkCoverage(v *violations, canon string, chunks []sdk.Chunk) {
	// depth[k] is how many ranges cover byte k, as a running sum of range edges.
	edges := make([]int32, len(canon)+1)
	for _, c := range chunks {
		if 0 <= c.Start && c.Start <= c.End && c.End <= len(canon) {
			edges[c.Start]++
			edges[c.End]--
		}
	}
	var depth int32
	lost, firstLost := 0, -1
	for k := 0; k < len(canon); {
		r, size := utf8.DecodeRuneInString(canon[k:])
		covered := true
		for b := k; b < k+size; b++ {
			depth += edges[b]
			covered = covered && depth > 0
		}
		if !covered && !unicode.IsSpace(r) {
			lost += size
			if firstLost < 0 {
				firstLost = k
			}
		}
		k += size
	}
	if lost > 0 {
		v.add(-1, ruleNothingLost, "%d non-space bytes of the canonical text are in no chunk, the first at byte %d: %s",
			lost, firstLost, quote(canon[firstLost:]))
	}
}

// asInt reports the integer value of a metadata number, which is an int in process and may
// be a float64 after a JSON round trip.
func asInt(x any) (int, bool) {
	switch n := x.(type) {
	case int:
		return n, true
	case int32:
		return int(n), true
	case int64:
		return int(n), true
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	}
	return 0, false
}

// violation is one broken invariant: chunk is the chunk's index or -1 for the whole result.
type violation struct {
	chunk   int
	rule    string
	problem string
}

// violations collects what CheckChunks finds; its error lists the first maxListed.
type violations struct {
	document string
	list     []violation
	total    int
}

const maxListed = 10

func (v *violations) add(chunk int, rule, format string, args ...any) {
	v.total++
	if len(v.list) < maxListed {
		v.list = append(v.list, violation{chunk, rule, fmt.Sprintf(format, args...)})
	}
}

func (v *violations) err() error {
	if v.total == 0 {
		return nil
	}
	return v
}

func (v *violations) Error() string {
	var sb strings.Builder
	noun := "violations"
	if v.total == 1 {
		noun = "violation"
	}
	fmt.Fprintf(&sb, "conformance: document %q: %d %s", v.document, v.total, noun)
	for _, x := range v.list {
		if x.chunk >= 0 {
			fmt.Fprintf(&sb, "\n\tchunk %d: %s: %s", x.chunk, x.rule, x.problem)
		} else {
			fmt.Fprintf(&sb, "\n\t%s: %s", x.rule, x.problem)
		}
	}
	if more := v.total - len(v.list); more > 0 {
		fmt.Fprintf(&sb, "\n\t... and %d more", more)
	}
	return sb.String()
}
