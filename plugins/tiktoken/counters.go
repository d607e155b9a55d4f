package tiktoken

import (
	"context"
	"sync"

	"github.com/chunkkit/chunkkit/sdk"
)

// DefaultModel is the model Counters serves when asked for "": cl100k_base on the Backtrack backend.
const DefaultModel = "cl100k_base"

// Counters hands out a shared Counter per model string, building each on first use; it is what
// the tiktoken plugin serves (it satisfies sdk/serve's Counters interface). The zero value is
// ready to use and safe for concurrent use. A Counters keeps every Counter it built for its own
// lifetime: at most one per encoding and backend ("cl100k_base" and "cl100k_base@backtrack"
// share one).
type Counters struct {
	mu      sync.Mutex
	entries map[model]*entry
}

// model is a parsed model string, so "cl100k_base" and "cl100k_base@backtrack" share a Counter.
type model struct {
	encoding string
	backend  Backend
}

// entry builds one Counter once; callers that ask while it is being built wait for it.
type entry struct {
	once    sync.Once
	counter *Counter
	err     error
}

// Models returns the model strings Counters serves, as the package-level Models does.
func (s *Counters) Models() []string { return Models() }

// Counter returns the shared Counter for model (see ParseModel); "" means DefaultModel. An
// unknown model is an error matching sdk.ErrUnsupported. Building a Counter is not
// interruptible: ctx is checked before, not during.
func (s *Counters) Counter(ctx context.Context, model string) (sdk.TokenCounter, error) {
	return s.get(ctx, model)
}

func (s *Counters) get(ctx context.Context, spec string) (*Counter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if spec == "" {
		spec = DefaultModel
	}
	enc, backend, err := ParseModel(spec)
	if err != nil {
		return nil, err
	}
	key := model{enc, backend}
	s.mu.Lock()
	if s.entries == nil {
		s.entries = make(map[model]*entry)
	}
	e, ok := s.entries[key]
	if !ok {
		e = new(entry)
		s.entries[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.counter, e.err = New(enc, backend) })
	return e.counter, e.err
}
