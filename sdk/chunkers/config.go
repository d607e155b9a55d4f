package chunkers

import (
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
)

// Defaults of the budgeted chunkers.
const (
	DefaultMaxTokens     = 512
	DefaultOverlapTokens = 64
)

// NoOverlap, as OverlapTokens, turns overlap off (the zero value means the default).
const NoOverlap = -1

// ContextMode selects what a chunk's Context holds: the retrieval context that EmbedText puts
// before Content (see sdk.JoinContext). The zero value means the chunker's default.
type ContextMode string

// The context modes. ContextTitlePath renders the document's title (sdk.Document.Title, left
// out when empty or equal to the first heading of the path) and then the chunk's heading path,
// joined by ContextSeparator; ContextPath renders the heading path only; ContextTitle the title
// only; ContextNone nothing, so that EmbedText == Content.
const (
	ContextDefault   ContextMode = ""
	ContextTitlePath ContextMode = "title+path"
	ContextPath      ContextMode = "path"
	ContextTitle     ContextMode = "title"
	ContextNone      ContextMode = "none"
)

// ContextSeparator joins the parts of a rendered context, as in
// "File system › Promises API › fsPromises.access(path[, mode])".
const ContextSeparator = " › "

// ContextModes returns the context modes a Config accepts besides ContextDefault, in the
// order of the documentation.
func ContextModes() []ContextMode {
	return []ContextMode{ContextTitlePath, ContextPath, ContextTitle, ContextNone}
}

func (m ContextMode) valid() bool {
	switch m {
	case ContextDefault, ContextTitlePath, ContextPath, ContextTitle, ContextNone:
		return true
	}
	return false
}

// Config is the configuration the budgeted chunkers (HeadingAware, Sections, FixedTokens)
// share: what they measure with and the budget they keep. The zero value of every field but
// Counter means the documented default.
//
// The budget applies to a chunk's EmbedText — its Context, the separator and its Content,
// overlap and any repeated table header included — measured by Counter. A context that would
// take more than a quarter of MaxTokens loses its leading parts (the title first, then the
// outer headings) until it fits that quarter, and is left out when even its last part does
// not; the chunk's SectionPath keeps the whole path.
type Config struct {
	// Counter measures tokens. Required.
	Counter sdk.TokenCounter
	// Sentences splits oversized blocks; nil means the in-process sentence.Splitter.
	// FixedTokens does not read it.
	Sentences sdk.SentenceSplitter
	// MaxTokens is the budget of a body chunk's EmbedText; 0 means DefaultMaxTokens.
	MaxTokens int
	// OverlapTokens is the most tokens a body chunk repeats from the end of the one before it
	// in the same section; 0 means DefaultOverlapTokens (at most a quarter of MaxTokens) and
	// NoOverlap (or any negative value) means none. It must be less than MaxTokens. Use
	// ExactOverlap to turn a count in which 0 means none into this field's value.
	OverlapTokens int
	// Context selects what goes into each chunk's Context and so into its EmbedText; the
	// zero value means the chunker's default (ContextTitlePath for HeadingAware and Sections,
	// ContextNone for FixedTokens, whose chunks ignore the document's structure).
	Context ContextMode
	// KeepTablesWhole keeps a table over budget in one chunk, which then carries
	// Metadata[sdk.MetaOverBudget] = true, instead of splitting it at rows. FixedTokens does
	// not read it.
	KeepTablesWhole bool
}

// Budget returns the effective MaxTokens and OverlapTokens. It makes every chunker that
// embeds a Config an sdk.Budgeted.
func (c Config) Budget() (maxTokens, overlapTokens int) {
	return budget(c.MaxTokens, c.OverlapTokens)
}

// ExactOverlap returns the Config.OverlapTokens value for an overlap of exactly n tokens where
// 0 means none, as the command line's --overlap-tokens and the bench's overlaps count it:
// NoOverlap for n <= 0, else n.
func ExactOverlap(n int) int {
	if n <= 0 {
		return NoOverlap
	}
	return n
}

func budget(maxTokens, overlapTokens int) (int, int) {
	if maxTokens == 0 {
		maxTokens = DefaultMaxTokens
	}
	switch {
	case overlapTokens == 0:
		overlapTokens = min(DefaultOverlapTokens, maxTokens/4)
	case overlapTokens < 0:
		overlapTokens = 0
	}
	return maxTokens, overlapTokens
}

// check returns the effective budget, or an error wrapping sdk.ErrInvalidConfig that names the
// chunker and the field that is wrong.
func (c Config) check(name string) (maxTokens, overlapTokens int, err error) {
	maxTokens, overlapTokens = c.Budget()
	if maxTokens < 1 {
		return 0, 0, fmt.Errorf("%w: %s: MaxTokens must be at least 1, got %d", sdk.ErrInvalidConfig, name, maxTokens)
	}
	if overlapTokens >= maxTokens {
		return 0, 0, fmt.Errorf("%w: %s: OverlapTokens (%d) must be less than MaxTokens (%d)", sdk.ErrInvalidConfig, name, overlapTokens, maxTokens)
	}
	if !c.Context.valid() {
		return 0, 0, fmt.Errorf("%w: %s: unknown Context mode %q (known: %s)", sdk.ErrInvalidConfig, name, c.Context, contextModeList())
	}
	return maxTokens, overlapTokens, nil
}

func contextModeList() string {
	s := ""
	for i, m := range ContextModes() {
		if i > 0 {
			s += ", "
		}
		s += string(m)
	}
	return s
}

// contextMode returns the effective context mode: m, or def for ContextDefault.
func (c Config) contextMode(def ContextMode) ContextMode {
	if c.Context == ContextDefault {
		return def
	}
	return c.Context
}

// KeepsWords reports true: HeadingAware and Sections cut between words, as DESIGN.md's cuts
// say (conformance.WordKeeper). FixedTokens overrides it.
func (c Config) KeepsWords() bool { return true }
