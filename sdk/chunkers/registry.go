package chunkers

import (
	"fmt"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// The strategy names New accepts.
const (
	StrategyHeading  = "heading"  // HeadingAware
	StrategySections = "sections" // Sections
	StrategyFixed    = "fixed"    // FixedTokens
	StrategyNoop     = "noop"     // Noop
)

// DefaultStrategy is the strategy the command line and the bench use when none is named.
const DefaultStrategy = StrategyHeading

// Options configures the chunker New makes: the shared Config, and the settings only some
// strategies read. The zero value of every field but Counter means the documented default.
type Options struct {
	Config
	// SplitLevel is Sections.SplitLevel; only "sections" reads it.
	SplitLevel int
	// PackSections is Sections.PackSections; only "sections" reads it.
	PackSections bool
	// HeadingChunks is HeadingAware.HeadingChunks; only "heading" reads it.
	HeadingChunks bool
}

// Strategies returns the names New accepts, the default first: "heading", "sections",
// "fixed", "noop". The slice is new on every call.
func Strategies() []string {
	return []string{StrategyHeading, StrategySections, StrategyFixed, StrategyNoop}
}

// New returns the chunker the strategy name stands for, configured by opts: "heading"
// (HeadingAware), "sections" (Sections), "fixed" (FixedTokens) or "noop" (Noop, which reads
// only opts.Counter and has no budget). "" means DefaultStrategy. An unknown name, a nil
// Counter or a budget the chunker would refuse gives an error wrapping sdk.ErrInvalidConfig
// that names the problem, so a command line can report it before reading any input.
func New(name string, opts Options) (sdk.Chunker, error) {
	if name == "" {
		name = DefaultStrategy
	}
	if opts.Counter == nil {
		return nil, fmt.Errorf("%w: chunkers.New(%q): no TokenCounter set", sdk.ErrInvalidConfig, name)
	}
	var c sdk.Chunker
	switch name {
	case StrategyHeading:
		c = &HeadingAware{Config: opts.Config, HeadingChunks: opts.HeadingChunks}
	case StrategySections:
		c = &Sections{Config: opts.Config, SplitLevel: opts.SplitLevel, PackSections: opts.PackSections}
	case StrategyFixed:
		c = &FixedTokens{Config: opts.Config}
	case StrategyNoop:
		return &Noop{Counter: opts.Counter}, nil
	default:
		return nil, fmt.Errorf("%w: unknown strategy %q (known: %s)", sdk.ErrInvalidConfig, name, strings.Join(Strategies(), ", "))
	}
	if _, _, err := opts.check("chunkers.New(" + name + ")"); err != nil {
		return nil, err
	}
	return c, nil
}
