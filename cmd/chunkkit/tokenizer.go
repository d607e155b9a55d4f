package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

const (
	defaultTokenizer = pipeline.DefaultTokenizer
	tokenizerHelp    = pipeline.TokenizerHelp
)

// plugins opens counters and splitters by spec. Built-in specs (words, runes, rules) run
// in-process; others start a plugin found through the manifests (see docs/reference/host.md).
// The host is opened on first use, so commands that need no plugin never read a manifest.
type plugins struct {
	once sync.Once
	h    *host.Host
	err  error
}

func (p *plugins) host() (*host.Host, error) {
	p.once.Do(func() {
		p.h, p.err = host.Open(host.Options{})
	})
	return p.h, p.err
}

// tokenCounter resolves spec to a counter.
func (p *plugins) tokenCounter(ctx context.Context, spec string) (sdk.TokenCounter, error) {
	if _, err := host.ParseSpec(spec); err != nil {
		return nil, err
	}
	h, err := p.host()
	if err != nil {
		return nil, err
	}
	tc, err := h.TokenCounter(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %q: %w", spec, err)
	}
	return tc, nil
}

// sentenceSplitter resolves spec to a splitter.
func (p *plugins) sentenceSplitter(ctx context.Context, spec string) (sdk.SentenceSplitter, error) {
	if _, err := host.ParseSpec(spec); err != nil {
		return nil, err
	}
	h, err := p.host()
	if err != nil {
		return nil, err
	}
	s, err := h.SentenceSplitter(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("sentence splitter %q: %w", spec, err)
	}
	return s, nil
}

// Close stops every plugin that was started.
func (p *plugins) Close() error {
	if p.h == nil {
		return nil
	}
	return p.h.Close()
}
