package host

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// probeTexts are what the host asks of a plugin's model when it makes a counter or splitter:
// the empty text, a letter, multi-byte runes, white space of several kinds, and special-token
// text. Small enough to cost one short round trip per RPC.
var probeTexts = []string{"", "a", "hello wörld, 日本語", "two  spaces\tand a tab\n", "<|endoftext|>"}

// probe asks inst's service of kind, for model, about probeTexts, so that a model the plugin
// cannot serve fails when the counter is made, with the plugin's reason, and so that a plugin
// whose answers break the contract where the host can see it fails then too. The clients
// check each answer on its own (sdk.CheckCounts, sdk.CheckBoundaries: one entry per text, no
// negative count, offsets in order, on rune boundaries and ending at the text's length,
// nothing for the empty text); probe adds what only two answers show: Count and Boundaries
// disagreeing on a text. Such errors match sdk.ErrBadResponse.
func probe(ctx context.Context, inst *instance, kind plugin.Kind, model string) error {
	if kind == plugin.KindSentence {
		_, err := inst.sentence.WithModel(model).Split(ctx, probeTexts)
		return err
	}
	tc := inst.tokenizer.WithModel(model)
	counts, err := tc.Count(ctx, probeTexts)
	if err != nil {
		return err
	}
	bounds, err := tc.Boundaries(ctx, probeTexts)
	if err != nil {
		return err
	}
	for i, text := range probeTexts {
		if counts[i] != len(bounds[i]) {
			return fmt.Errorf("%w: Count says %d tokens for probe text %d (%q) but Boundaries gives %d offsets %v; they must agree",
				sdk.ErrBadResponse, counts[i], i, text, len(bounds[i]), bounds[i])
		}
	}
	return nil
}
