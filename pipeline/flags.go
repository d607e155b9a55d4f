package pipeline

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// TokenizerHelp describes the tokenizer specs a --tokenizer flag takes.
const TokenizerHelp = "words, runes, tiktoken:ENCODING (cl100k_base, o200k_base, p50k_base, r50k_base; add @reference for the reference backend), hf:PATH (a HuggingFace tokenizer.json or the folder holding it; add @special to count added tokens in the text as one token each, as HF does by default) or plugin:NAME[:ARG]"

// ChunkerFlags defines the command line's chunker flags on fs (--tokenizer, --strategy,
// --max-tokens, --overlap-tokens, --context, --heading-chunks, --pack-sections, --sentences and
// --split-level, with chunkkit chunk's defaults and help) and returns the function that reads
// them into a ChunkerConfig once fs is parsed. chunkkit chunk and the Beam example pipeline
// define their chunker flags with it, so the two take the same flags with the same meaning.
func ChunkerFlags(fs *flag.FlagSet) func() ChunkerConfig {
	var c ChunkerConfig
	maxTokens := tokenBudget(chunkers.DefaultMaxTokens)
	overlap := optionalInt(-1) // the chunkers' default unless the flag is given
	var split int
	fs.StringVar(&c.Tokenizer, "tokenizer", DefaultTokenizer, "tokenizer spec: "+TokenizerHelp)
	fs.StringVar(&c.Strategy, "strategy", chunkers.DefaultStrategy, "chunking strategy: "+strings.Join(chunkers.Strategies(), ", "))
	fs.Var(&maxTokens, "max-tokens", "budget of a body chunk's embed_text, in `tokens` (1 or more)")
	fs.Var(&overlap, "overlap-tokens", "`tokens` repeated from the previous chunk; 0 for none (default 64, at most a quarter of --max-tokens)")
	fs.StringVar(&c.Context, "context", "", "what each chunk's context (and so its embed_text) holds: "+contextHelp()+" (default: the strategy's, title+path for heading and sections, none for fixed)")
	fs.BoolVar(&c.HeadingChunks, "heading-chunks", false, "heading strategy: emit every heading as a chunk of its own, the parent of its section's chunks")
	fs.BoolVar(&c.PackSections, "pack-sections", false, "sections strategy: pack consecutive small sections into one chunk while they fit the budget")
	fs.StringVar(&c.Sentences, "sentences", DefaultSentences, "sentence splitter for oversized blocks: rules (in-process), plugin:sentence:punkt:en or plugin:sentence:uax29")
	fs.IntVar(&split, "split-level", 0, "sections strategy: headings up to this level start a section (-1: one section; default: the chunker's)")
	return func() ChunkerConfig {
		out := c
		out.MaxTokens = int(maxTokens)
		if overlap >= 0 {
			out.OverlapTokens = chunkers.ExactOverlap(int(overlap))
		}
		out.SplitLevel = split
		if split < 0 {
			out.SplitLevel = chunkers.NoSplit
		}
		return out
	}
}

func contextHelp() string {
	modes := make([]string, len(chunkers.ContextModes()))
	for i, m := range chunkers.ContextModes() {
		modes[i] = string(m)
	}
	return strings.Join(modes, ", ")
}

// tokenBudget is --max-tokens: a whole number of tokens, 1 or more. The chunkers read a
// MaxTokens of 0 as their default, so --max-tokens 0 would quietly mean 512: it is refused.
type tokenBudget int

func (v *tokenBudget) String() string {
	if v == nil {
		return ""
	}
	return strconv.Itoa(int(*v))
}

func (v *tokenBudget) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("want a whole number of tokens, 1 or more")
	}
	*v = tokenBudget(n)
	return nil
}

// optionalInt is an int flag whose unset value (-1) is not printed as a default, because the
// real default depends on other flags. String is only used by the flag package to print
// defaults, so it keeps quiet for 0 too (the flag package compares with the zero value).
type optionalInt int

func (v *optionalInt) String() string {
	if v == nil || *v <= 0 {
		return ""
	}
	return strconv.Itoa(int(*v))
}

func (v *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number of tokens, 0 or more")
	}
	*v = optionalInt(n)
	return nil
}
