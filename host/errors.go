package host

import "github.com/chunkkit/chunkkit/sdk"

// Sentinel errors of the host. Each also matches, with errors.Is, the sdk sentinel named in
// its doc comment, so a caller that only knows package sdk can still tell what went wrong.
var (
	// ErrNotFound marks a spec naming a plugin that no loaded manifest lists, or a plugin
	// that does not offer the kind of service asked for. It matches sdk.ErrUnsupported.
	ErrNotFound error = &sentinel{"host: plugin not found", sdk.ErrUnsupported}
	// ErrCrashLoop marks a plugin that failed more often than Options.MaxRestarts allows
	// within Options.RestartWindow; the host does not start it again until the oldest failure
	// leaves the window. It matches sdk.ErrUnavailable.
	ErrCrashLoop error = &sentinel{"host: plugin keeps crashing", sdk.ErrUnavailable}
	// ErrClosed marks a call on a Host, or on a counter or splitter it returned, after Close.
	// It matches sdk.ErrUnavailable.
	ErrClosed error = &sentinel{"host: closed", sdk.ErrUnavailable}
)

// sentinel is an error value that also matches a more general one.
type sentinel struct {
	msg  string
	also error
}

func (s *sentinel) Error() string { return s.msg }
func (s *sentinel) Unwrap() error { return s.also }
