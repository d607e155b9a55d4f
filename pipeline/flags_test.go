package pipeline_test

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func TestChunkerFlags(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want pipeline.ChunkerConfig
	}{
		{nil, pipeline.ChunkerConfig{Strategy: chunkers.DefaultStrategy, Tokenizer: pipeline.DefaultTokenizer, Sentences: pipeline.DefaultSentences, MaxTokens: chunkers.DefaultMaxTokens}},
		{[]string{"--tokenizer", "words", "--strategy", "sections", "--max-tokens", "99", "--overlap-tokens", "0", "--split-level", "-1", "--context", "none", "--pack-sections", "--heading-chunks", "--sentences", "plugin:sentence:uax29"},
			pipeline.ChunkerConfig{Strategy: "sections", Tokenizer: "words", Sentences: "plugin:sentence:uax29", MaxTokens: 99, OverlapTokens: chunkers.ExactOverlap(0), Context: "none", SplitLevel: chunkers.NoSplit, PackSections: true, HeadingChunks: true}},
		{[]string{"--overlap-tokens", "12", "--split-level", "2"},
			pipeline.ChunkerConfig{Strategy: chunkers.DefaultStrategy, Tokenizer: pipeline.DefaultTokenizer, Sentences: pipeline.DefaultSentences, MaxTokens: chunkers.DefaultMaxTokens, OverlapTokens: 12, SplitLevel: 2}},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		read := pipeline.ChunkerFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, read()); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.args, diff)
		}
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pipeline.ChunkerFlags(fs)
	if err := fs.Parse([]string{"--overlap-tokens", "-3"}); err == nil {
		t.Error("--overlap-tokens -3 was accepted")
	}
	// The chunkers read a budget of 0 as their default: given on the command line it is an
	// error, not 512.
	for _, bad := range []string{"0", "-5", "many"} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		pipeline.ChunkerFlags(fs)
		if err := fs.Parse([]string{"--max-tokens", bad}); err == nil || !strings.Contains(err.Error(), "1 or more") {
			t.Errorf("--max-tokens %s: err %v, want one asking for 1 or more", bad, err)
		}
	}
}
