package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// Defaults of a zero Config.
var (
	// DefaultBudgets are the MaxTokens values of the matrix.
	DefaultBudgets = []int{128, 256, 512}
	// DefaultOverlaps are the overlaps of the matrix, as fractions of the budget.
	DefaultOverlaps = []float64{0, 0.25}
)

const (
	// DefaultCount is how many times each cell is measured.
	DefaultCount = 10
	// DefaultBenchTime is the least time one measurement of a cell runs for.
	DefaultBenchTime = 100 * time.Millisecond
	// DefaultK is how many chunks the retriever returns per question.
	DefaultK = 5
	// InProcess prefixes a tokenizer spec that runs in the harness's process instead of
	// through Config.Resolve: "inproc:tiktoken:cl100k_base".
	InProcess = "inproc:"
)

// Config says what Run measures and where it writes. The zero value of each field means the
// documented default; Corpus is required.
type Config struct {
	// Corpus is a folder of documents, read recursively by Loaders. If it is an evaluation
	// set (see IsEvalSet) and Eval is empty, it is also the evaluation set, and its corpora
	// are the documents.
	Corpus string
	// Eval is a folder holding an evaluation set in the Chroma format (see LoadEvalSet);
	// empty means none unless Corpus is one.
	Eval string
	// Out is the folder the output files are written to (created if missing); empty means
	// write no files, only the summary.
	Out string

	// Strategies names the strategies to run, keys of Strategies; empty means all, sorted.
	Strategies []string
	// Tokenizers are the tokenizer specs to run. A spec is resolved by Resolve (a plugin
	// host) unless it is "words" or "runes" or starts with InProcess, whose rest is "words",
	// "runes" or "tiktoken:MODEL" (plugins/tiktoken in-process). Empty means "words" and
	// "inproc:tiktoken:cl100k_base", plus "tiktoken:cl100k_base" and
	// "tiktoken:cl100k_base@reference" when Resolve is set (skipped, with a note on the
	// progress writer, when Resolve cannot start them). A spec given here that cannot be
	// resolved is an error.
	Tokenizers []string
	// Budgets are the MaxTokens values; empty means DefaultBudgets.
	Budgets []int
	// Overlaps are the overlaps as fractions of the budget, each in [0, 1); empty means
	// DefaultOverlaps. Strategies without a budget run with overlap 0 only.
	Overlaps []float64
	// Count is how many times each cell is measured; 0 means DefaultCount.
	Count int
	// BenchTime is the least time one measurement runs, repeating passes over the corpus; 0
	// means DefaultBenchTime, a negative value one pass.
	BenchTime time.Duration
	// K is how many chunks are retrieved per question; 0 means DefaultK.
	K int
	// Quick makes a smoke run: unless set explicitly, budgets {256}, overlaps {0, ¼}, count 2,
	// one pass per measurement, in-process tokenizers only.
	Quick bool

	// Resolve returns the token counter for a spec that is not in-process, typically
	// (*host.Host).TokenCounter. Nil means such specs are an error.
	Resolve func(ctx context.Context, spec string) (sdk.TokenCounter, error)
	// Loaders reads corpus files by extension; nil means DefaultLoaders().
	Loaders map[string]Loader
	// Chunkers holds the strategies by name; nil means StrategiesWith(Options).
	Chunkers map[string]Strategy
	// Options are the options of the built-in strategies when Chunkers is nil (context mode,
	// section packing, heading chunks, ...); Counter, MaxTokens and OverlapTokens are the
	// cell's. The zero value means the chunkers' defaults.
	Options chunkers.Options
	// Peers are chunks another chunker made of the evaluation set's corpora, scored by the
	// same retriever beside the cells (see LoadPeer); they need an evaluation set.
	Peers []Peer

	// optionalPlugins is set when the plugin tokenizers are defaults rather than asked for:
	// one that cannot be resolved (no plugin installed) is then skipped with a note.
	optionalPlugins bool
}

// Strategy builds the chunker of a cell: counter measures tokens, maxTokens is the budget and
// overlapTokens the overlap (0 for none). A chunker that is not sdk.Budgeted runs with
// overlap 0 only. An error (a budget the chunker refuses) fails the run, naming the cell.
type Strategy func(counter sdk.TokenCounter, maxTokens, overlapTokens int) (sdk.Chunker, error)

// DefaultStrategies returns the built-in strategies by name, with the chunkers' default
// options: StrategiesWith(chunkers.Options{}).
func DefaultStrategies() map[string]Strategy {
	return StrategiesWith(chunkers.Options{})
}

// StrategiesWith returns a Strategy for every name of the chunkers' strategy registry
// (chunkers.Strategies: "heading", "sections", "fixed", "noop"), each built by chunkers.New
// from opts with the cell's counter, budget and overlap (chunkers.ExactOverlap, so 0 is
// none). The map is new on every call; add to it to benchmark another chunker.
func StrategiesWith(opts chunkers.Options) map[string]Strategy {
	m := make(map[string]Strategy)
	for _, name := range chunkers.Strategies() {
		m[name] = func(c sdk.TokenCounter, maxTokens, overlap int) (sdk.Chunker, error) {
			o := opts
			o.Counter, o.MaxTokens, o.OverlapTokens = c, maxTokens, chunkers.ExactOverlap(overlap)
			return chunkers.New(name, o)
		}
	}
	return m
}

// withDefaults returns cfg with zero fields replaced by defaults, or an error naming the
// field that is wrong.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.Corpus == "" {
		return cfg, fmt.Errorf("bench: %w: no corpus folder", sdk.ErrInvalidConfig)
	}
	if cfg.Loaders == nil {
		cfg.Loaders = DefaultLoaders()
	}
	if cfg.Chunkers == nil {
		cfg.Chunkers = StrategiesWith(cfg.Options)
	}
	if len(cfg.Strategies) == 0 {
		for name := range cfg.Chunkers {
			cfg.Strategies = append(cfg.Strategies, name)
		}
		slices.Sort(cfg.Strategies)
	}
	for _, s := range cfg.Strategies {
		if cfg.Chunkers[s] == nil {
			return cfg, fmt.Errorf("bench: %w: unknown strategy %q; want one of %s", sdk.ErrInvalidConfig, s, strings.Join(sortedKeys(cfg.Chunkers), ", "))
		}
	}
	if len(cfg.Tokenizers) == 0 {
		cfg.Tokenizers = []string{"words", InProcess + "tiktoken:cl100k_base"}
		if cfg.Resolve != nil && !cfg.Quick {
			cfg.Tokenizers = append(cfg.Tokenizers, "tiktoken:cl100k_base", "tiktoken:cl100k_base@reference")
			cfg.optionalPlugins = true
		}
	}
	if len(cfg.Budgets) == 0 {
		cfg.Budgets = DefaultBudgets
		if cfg.Quick {
			cfg.Budgets = []int{256}
		}
	}
	for _, b := range cfg.Budgets {
		if b < 1 {
			return cfg, fmt.Errorf("bench: %w: budget %d: must be at least 1", sdk.ErrInvalidConfig, b)
		}
	}
	if len(cfg.Overlaps) == 0 {
		cfg.Overlaps = DefaultOverlaps
	}
	for _, o := range cfg.Overlaps {
		if o < 0 || o >= 1 {
			return cfg, fmt.Errorf("bench: %w: overlap %g: want a fraction of the budget in [0, 1)", sdk.ErrInvalidConfig, o)
		}
	}
	if cfg.Count == 0 {
		cfg.Count = DefaultCount
		if cfg.Quick {
			cfg.Count = 2
		}
	}
	if cfg.Count < 0 {
		return cfg, fmt.Errorf("bench: %w: count %d: must be at least 1", sdk.ErrInvalidConfig, cfg.Count)
	}
	if cfg.BenchTime == 0 {
		cfg.BenchTime = DefaultBenchTime
		if cfg.Quick {
			cfg.BenchTime = -1
		}
	}
	if cfg.K == 0 {
		cfg.K = DefaultK
	}
	if cfg.K < 0 {
		return cfg, fmt.Errorf("bench: %w: k %d: must be at least 1", sdk.ErrInvalidConfig, cfg.K)
	}
	return cfg, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tokenizer is a resolved tokenizer spec.
type tokenizer struct {
	name    string // the spec without InProcess
	via     string // "inproc" or "plugin"
	counter sdk.TokenCounter
}

// resolve returns the counter a spec names (see Config.Tokenizers).
func (cfg Config) resolve(ctx context.Context, spec string) (tokenizer, error) {
	spec = strings.TrimSpace(spec)
	local, inproc := strings.CutPrefix(spec, InProcess)
	switch local {
	case "words":
		return tokenizer{"words", "inproc", sdk.Words{}}, nil
	case "runes":
		return tokenizer{"runes", "inproc", sdk.Runes{}}, nil
	}
	if inproc {
		model, ok := strings.CutPrefix(local, "tiktoken:")
		if !ok {
			return tokenizer{}, fmt.Errorf("bench: %w: tokenizer %q: in-process tokenizers are words, runes and tiktoken:MODEL", sdk.ErrInvalidConfig, spec)
		}
		enc, backend, err := tiktoken.ParseModel(model)
		if err != nil {
			return tokenizer{}, fmt.Errorf("bench: tokenizer %q: %w", spec, err)
		}
		c, err := tiktoken.New(enc, backend)
		if err != nil {
			return tokenizer{}, fmt.Errorf("bench: tokenizer %q: %w", spec, err)
		}
		return tokenizer{local, "inproc", c}, nil
	}
	if cfg.Resolve == nil {
		return tokenizer{}, fmt.Errorf("bench: %w: tokenizer %q needs a plugin host (or write %s%s to run it in-process)", sdk.ErrInvalidConfig, spec, InProcess, spec)
	}
	c, err := cfg.Resolve(ctx, spec)
	if err != nil {
		return tokenizer{via: "plugin"}, fmt.Errorf("bench: tokenizer %q: %w", spec, err)
	}
	return tokenizer{spec, "plugin", c}, nil
}
