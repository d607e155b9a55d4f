package plugin

import (
	"context"

	"github.com/chunkkit/chunkkit/sdk"
)

// Registry is what a plugin serves for one kind of service: models of type T by name.
//
// Models lists the models for Info; it may be empty for a plugin that loads models on demand
// (from a path, say), and then a host passes any model a user names through. Model returns
// the model called name: the ARG of the spec "plugin:NAME:ARG" a user wrote, "" for the
// plugin's default. It is called for every request with that request's context, so it must be
// cheap after the first call and safe for concurrent use: a Map gives both. An unknown model
// is an error matching sdk.ErrUnsupported that says what is served; a model that exists but
// cannot be loaded is one matching sdk.ErrInvalidConfig.
type Registry[T any] interface {
	Models() []string
	Model(ctx context.Context, name string) (T, error)
}

// Counters is what a tokenizer plugin serves: token counters by model name.
type Counters = Registry[sdk.TokenCounter]

// Splitters is what a sentence plugin serves: sentence splitters by model name.
type Splitters = Registry[sdk.SentenceSplitter]
