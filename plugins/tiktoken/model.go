package tiktoken

import (
	"fmt"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// Backend names the implementation a Counter runs. All backends give the same counts and
// boundaries (the golden tests hold them to OpenAI's tiktoken); they differ in speed.
type Backend string

// The backends.
const (
	// Backtrack splits text with the scanners of internal/pretok and encodes each piece with
	// the backtracking encoder of GitHub's bpe crate, ported in internal/bpe: linear time in
	// the worst case and the fastest backend. It is the default: the zero Backend means
	// Backtrack, and a model string without "@backend" names it.
	Backtrack Backend = "backtrack"
	// Fast counts with the scanners of internal/pretok and a heap merge: O(n log n) in a
	// piece's length. It was the default before Backtrack and stays as a cross-check.
	Fast Backend = "fast"
	// Reference is github.com/pkoukk/tiktoken-go, a line-by-line port of OpenAI's tiktoken.
	// It is superlinear on long runs without a regex split (80,000 × "a" takes seconds), so
	// it is meant for cross-checking, not for serving.
	Reference Backend = "reference"
)

// specPrefix is the tokenizer-spec scheme chunkkit uses for this package ("tiktoken:cl100k_base").
const specPrefix = "tiktoken:"

// backendSep separates an encoding from a backend in a model string ("cl100k_base@reference").
const backendSep = "@"

// encodingNames lists the encodings served, in the order Models reports them.
var encodingNames = [...]string{"cl100k_base", "o200k_base", "p50k_base", "r50k_base"}

// Encodings returns the names of the encodings this package serves: cl100k_base, o200k_base,
// p50k_base and r50k_base. The caller owns the returned slice.
func Encodings() []string {
	return append([]string(nil), encodingNames[:]...)
}

// Models returns every model string this package serves, as ParseModel accepts them: each
// encoding alone and followed by "@backtrack" (both the Backtrack backend), by "@fast" (the
// Fast backend) and by "@reference" (the Reference backend). A host checks a requested model against this list, so every spelling
// ParseModel accepts is in it. The caller owns the returned slice.
func Models() []string {
	models := make([]string, 0, 4*len(encodingNames))
	for _, enc := range encodingNames {
		models = append(models, enc, enc+backendSep+string(Backtrack), enc+backendSep+string(Fast), enc+backendSep+string(Reference))
	}
	return models
}

// ParseModel splits a model string such as "cl100k_base", "cl100k_base@fast" or
// "cl100k_base@reference" into its encoding and backend; without "@backend" the backend is
// Backtrack. A leading "tiktoken:" is accepted, so ParseModel(c.Name()) gives back c's encoding
// and backend. An unknown encoding or backend gives an error matching sdk.ErrUnsupported that
// names what is available.
func ParseModel(model string) (encoding string, backend Backend, err error) {
	spec := strings.TrimPrefix(model, specPrefix)
	encoding, b, found := strings.Cut(spec, backendSep)
	backend = Backtrack
	if found {
		backend = Backend(b)
	}
	if err := checkEncoding(encoding); err != nil {
		return "", "", fmt.Errorf("tiktoken: model %q: %w", model, err)
	}
	if err := checkBackend(backend); err != nil {
		return "", "", fmt.Errorf("tiktoken: model %q: %w", model, err)
	}
	return encoding, backend, nil
}

func checkEncoding(encoding string) error {
	for _, e := range encodingNames {
		if e == encoding {
			return nil
		}
	}
	return fmt.Errorf("%w: encoding %q (available: %s)", sdk.ErrUnsupported, encoding, strings.Join(encodingNames[:], ", "))
}

func checkBackend(backend Backend) error {
	switch backend {
	case Backtrack, Fast, Reference:
		return nil
	}
	return fmt.Errorf("%w: backend %q (available: %s, %s, %s)", sdk.ErrUnsupported, backend, Backtrack, Fast, Reference)
}
