package chunkbeam

import (
	"time"

	"github.com/chunkkit/chunkkit/pipeline"
	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultRetries is the default Config.Retries.
const DefaultRetries = 1

// DefaultTimeout is the default Config.Timeout: the command line's --timeout default.
const DefaultTimeout = 5 * time.Minute

// Config is what Chunk ships to its workers: the command line's chunking options, plain fields
// that Beam serializes with the DoFn. The zero value means the command line's defaults
// (heading strategy, tiktoken:cl100k_base through its plugin, 512 tokens, 64 of overlap).
type Config struct {
	// Chunker names the strategy, tokenizer, sentence splitter, budget, overlap and context,
	// as `chunkkit chunk`'s flags do.
	Chunker pipeline.ChunkerConfig `json:"chunker"`
	// Tenant and Corpus are stamped on every chunk whose Document names none (--tenant,
	// --corpus).
	Tenant string `json:"tenant,omitempty"`
	Corpus string `json:"corpus,omitempty"`
	// ACL holds ACL labels stamped on every chunk (--acl), before the Document's own.
	ACL []string `json:"acl,omitempty"`
	// MinConfidence drops OCR words below it (--min-confidence).
	MinConfidence float64 `json:"min_confidence,omitempty"`
	// Timeout bounds the chunking of one document, plugin calls included (--timeout); 0
	// means DefaultTimeout, a negative value none. A document over it is a DeadLetter.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Retries is how many more times a document is chunked when its plugin crashed or its
	// connection failed during the call (sdk.ErrUnavailable): the host restarts the plugin
	// and the document goes again. 0 means DefaultRetries (1); a negative value means none.
	Retries int `json:"retries,omitempty"`
	// Workers is how many documents of a bundle are chunked at once (pipeline.Options.Workers,
	// sharing the worker process's plugins); 0 means 1. Runners that run many bundles at once
	// in a worker process (Dataflow, Flink with several slots) need no more; a runner that gives
	// a worker one bundle at a time (Prism) uses the cores this way. With more than 1, chunks
	// are emitted as documents finish, the last ones in FinishBundle: in the global window, so
	// use it on batch (globally windowed) input.
	Workers int `json:"workers,omitempty"`
	// PluginDirs are directories (or manifest files) searched for plugins before
	// $CHUNKKIT_PLUGIN_DIR and the worker binary's directory; each must exist on the worker.
	PluginDirs []string `json:"plugin_dirs,omitempty"`
}

// request returns the sdk.Request of every document: tenant, corpus and ACL labels.
func (c Config) request() sdk.Request {
	req := sdk.Request{TenantID: c.Tenant, CorpusID: c.Corpus}
	req.Principal.ACLLabels = c.ACL
	return req
}

func (c Config) timeout() time.Duration { return orDefault(c.Timeout, DefaultTimeout) }

func (c Config) workers() int { return max(c.Workers, 1) }

func (c Config) retries() int { return orDefault(c.Retries, DefaultRetries) }

// orDefault is the convention of Config's numbers: 0 means def, a negative value none (0).
func orDefault[T ~int | ~int64](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}
