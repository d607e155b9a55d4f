package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/chunkkit/chunkkit/internal/pluginclient"
	"github.com/chunkkit/chunkkit/sdk"
)

// pluginCounter is the sdk.TokenCounter a Host hands out for a plugin spec: every call goes
// to the plugin's current process. Each call tells the caller's scheduler, through
// sdk.StartWait, that it waits on another process from before it picks the process until the
// answer is in (pipeline.Run lets another document work meanwhile, and a call that queued for
// its turn goes to the process that is current once it is its turn, not to one that hung).
type pluginCounter struct {
	s     *supervisor
	model string
	name  string
	// retains and counts merge the calls of documents that queue for their turn (merge.go).
	retains merger[retainCall]
	counts  merger[countCall]
}

var (
	_ sdk.TokenCounter = (*pluginCounter)(nil)
	_ sdk.Namer        = (*pluginCounter)(nil)
)

// Name returns the spec, such as "tiktoken:cl100k_base".
func (c *pluginCounter) Name() string { return c.name }

// PluginCalls returns how many calls the host has made on the plugin's processes so far, for
// every counter and splitter of the plugin: one for each call of a counter, or of several
// documents' merged into one (merge.go), and each retry; a call of many texts may travel as
// several requests of at most the batch size.
func (c *pluginCounter) PluginCalls() int64 { return c.s.calls.Load() }

// Count returns the number of tokens in each text, as sdk.TokenCounter.Count.
func (c *pluginCounter) Count(ctx context.Context, texts []string) ([]int, error) {
	defer sdk.StartWait(ctx)()
	var counts []int
	err := c.s.call(ctx, func(inst *instance) (err error) {
		counts, err = inst.tokenizer.WithModel(c.model).Count(ctx, texts)
		return err
	})
	if err != nil {
		return nil, err
	}
	return counts, nil
}

// Boundaries returns the token end offsets of each text, as sdk.TokenCounter.Boundaries.
func (c *pluginCounter) Boundaries(ctx context.Context, texts []string) ([][]int, error) {
	defer sdk.StartWait(ctx)()
	var bounds [][]int
	err := c.s.call(ctx, func(inst *instance) (err error) {
		bounds, err = inst.tokenizer.WithModel(c.model).Boundaries(ctx, texts)
		return err
	})
	if err != nil {
		return nil, err
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
	defer sdk.StartWait(ctx)()
	var bounds [][]int
	err := c.s.call(ctx, func(inst *instance) (err error) {
		bounds, err = inst.sentence.WithModel(c.model).Split(ctx, texts)
		return err
	})
	if err != nil {
		return nil, err
	}
	return bounds, nil
}

var _ sdk.Retainer = (*pluginCounter)(nil)

// RetainBoundaries returns the token end offsets of each text, as Boundaries, and a Retained
// that counts texts made of pieces of them. With a plugin that speaks protocol 1.1 the plugin
// keeps the texts and CountPieces sends only the literal pieces and the ranges; with a 1.0
// plugin it is Boundaries, and CountPieces sends the built texts with Count.
func (c *pluginCounter) RetainBoundaries(ctx context.Context, texts []string) ([][]int, sdk.Retained, error) {
	bounds, retained, err, ok, release := c.mergedRetain(ctx, texts)
	defer release()
	if ok {
		return bounds, retained, err
	}
	defer sdk.StartWait(ctx)()
	return c.retainAlone(ctx, texts)
}

// retainAlone is RetainBoundaries as a call of its own, for a caller whose turn to call has
// come (sdk.StartWait).
func (c *pluginCounter) retainAlone(ctx context.Context, texts []string) ([][]int, sdk.Retained, error) {
	bounds, kept, inst, err := c.keep(ctx, texts)
	if errors.Is(err, pluginclient.ErrNotRetained) {
		bounds, err := c.Boundaries(ctx, texts)
		if err != nil {
			return nil, nil, err
		}
		return bounds, sdk.CountingRetained{Counter: c, Texts: texts}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return bounds, &pluginRetained{c: c, inst: inst, kept: kept, texts: texts}, nil
}

// keep has the plugin's current process keep texts (RetainBoundaries) and returns their
// boundaries, the Kept that names them and the process.
func (c *pluginCounter) keep(ctx context.Context, texts []string) (bounds [][]int, kept *pluginclient.Kept, inst *instance, err error) {
	err = c.s.call(ctx, func(in *instance) (err error) {
		inst = in
		bounds, kept, err = in.tokenizer.WithModel(c.model).RetainBoundaries(ctx, texts)
		return err
	})
	return bounds, kept, inst, err
}

// pluginRetained counts pieces of texts a plugin process keeps. When that process is gone
// (restarted since) or has dropped the texts, it sends the built texts with Count instead,
// so the answer is the same whatever happened to the process in between.
type pluginRetained struct {
	c    *pluginCounter
	inst *instance
	kept *pluginclient.Kept
	// offset is the index in kept of the first of texts: a RetainBoundaries merged with other
	// documents' (merge.go) kept theirs too.
	offset int
	texts  []string
}

func (r *pluginRetained) CountPieces(ctx context.Context, items [][]sdk.Piece) ([]int, error) {
	// A merged call's Kept holds other documents' texts after this one's: a piece past its own
	// must not reach them, so the pieces are checked here, as a plugin checks what it is sent.
	if err := sdk.CheckPieces(r.texts, items); err != nil {
		return nil, fmt.Errorf("host: plugin %q: count: %w", r.c.s.plugin.Name, err)
	}
	counts, err, ok, release := r.mergedCount(ctx, items)
	defer release()
	if ok {
		return counts, err
	}
	defer sdk.StartWait(ctx)()
	return r.countAlone(ctx, items)
}

// countAlone is CountPieces as a call of its own, for a caller whose turn to call has come.
func (r *pluginRetained) countAlone(ctx context.Context, items [][]sdk.Piece) ([]int, error) {
	fallback := sdk.CountingRetained{Counter: r.c, Texts: r.texts}
	sent := items
	if r.offset != 0 {
		sent = shiftPieces(items, r.offset)
	}
	var counts []int
	err := r.c.s.call(ctx, func(inst *instance) (err error) {
		if inst != r.inst {
			return pluginclient.ErrNotRetained // a new process: it never had the texts
		}
		counts, err = inst.tokenizer.WithModel(r.c.model).CountRanges(ctx, r.kept, sent)
		return err
	})
	if errors.Is(err, pluginclient.ErrNotRetained) {
		return fallback.CountPieces(ctx, items)
	}
	if err != nil {
		return nil, err
	}
	return counts, nil
}

// shiftPieces returns a copy of items whose pieces of retained texts name the text by that
// much further on.
func shiftPieces(items [][]sdk.Piece, by int) [][]sdk.Piece {
	out := make([][]sdk.Piece, len(items))
	for i, it := range items {
		o := make([]sdk.Piece, len(it))
		for j, p := range it {
			if p.Text >= 0 {
				p.Text += by
			}
			o[j] = p
		}
		out[i] = o
	}
	return out
}

// call runs rpc on the plugin's current process and turns its error into what the caller sees
// (callError; pluginclient.ErrNotRetained is passed through as it is).
//
// A process that misses one call's deadline is killed at once, and the other calls in flight
// on it fail with it through no fault of their own: each of those whose context is still
// alive runs once more on a new process, so a hung plugin costs the document whose deadline
// passed, not every document that was waiting with it.
func (s *supervisor) call(ctx context.Context, rpc func(inst *instance) error) error {
	for retried := false; ; retried = true {
		inst, err := s.get(ctx)
		if err != nil {
			return err
		}
		s.calls.Add(1)
		err = rpc(inst)
		if err != nil && !errors.Is(err, pluginclient.ErrNotRetained) {
			if !retried && ctx.Err() == nil && s.killedAsHung(inst) {
				s.release(inst)
				s.logger.Debug("retrying a call on a new process: its process was killed for missing another call's deadline")
				continue
			}
			err = s.callError(ctx, inst, err)
		}
		s.release(inst)
		return err
	}
}
