package host

import (
	"context"

	"github.com/chunkkit/chunkkit/sdk"
)

// pluginCounter is the sdk.TokenCounter a Host hands out for a plugin spec: every call goes
// to the plugin's current process.
type pluginCounter struct {
	s     *supervisor
	model string
	name  string
}

var (
	_ sdk.TokenCounter = (*pluginCounter)(nil)
	_ sdk.Namer        = (*pluginCounter)(nil)
)

// Name returns the spec, such as "tiktoken:cl100k_base".
func (c *pluginCounter) Name() string { return c.name }

// Count returns the number of tokens in each text, as sdk.TokenCounter.Count.
func (c *pluginCounter) Count(ctx context.Context, texts []string) ([]int, error) {
	inst, err := c.s.get(ctx)
	if err != nil {
		return nil, err
	}
	defer c.s.release(inst)
	counts, err := inst.tokenizer.WithModel(c.model).Count(ctx, texts)
	if err != nil {
		return nil, c.s.callError(ctx, inst, err)
	}
	return counts, nil
}

// Boundaries returns the token end offsets of each text, as sdk.TokenCounter.Boundaries.
func (c *pluginCounter) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	inst, err := c.s.get(ctx)
	if err != nil {
		return nil, err
	}
	defer c.s.release(inst)
	bounds, err := inst.tokenizer.WithModel(c.model).Boundaries(ctx, texts)
	if err != nil {
		return nil, c.s.callError(ctx, inst, err)
	}
	return bounds, nil
}

// pluginSplitter is the sdk.SentenceSplitter a Host hands out for a plugin spec.
type pluginSplitter struct {
	s     *supervisor
	model string
	name  string
}

var (
	_ sdk.SentenceSplitter = (*pluginSplitter)(nil)
	_ sdk.Namer            = (*pluginSplitter)(nil)
)

// Name returns the spec, such as "plugin:sentence:punkt:en".
func (c *pluginSplitter) Name() string { return c.name }

// Split returns the sentence end offsets of each text, as sdk.SentenceSplitter.Split.
func (c *pluginSplitter) Split(ctx context.Context, texts []string) ([][]int, error) {
	inst, err := c.s.get(ctx)
	if err != nil {
		return nil, err
	}
	defer c.s.release(inst)
	bounds, err := inst.sentence.WithModel(c.model).Split(ctx, texts)
	if err != nil {
		return nil, c.s.callError(ctx, inst, err)
	}
	return bounds, nil
}
