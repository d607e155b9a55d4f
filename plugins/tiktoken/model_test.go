package tiktoken_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

func TestParseModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		model        string
		wantEncoding string
		wantBackend  tiktoken.Backend
		wantErr      []string // fragments of an sdk.ErrUnsupported error; nil means success
	}{
		{name: "a bare encoding runs on the backtrack backend", model: "cl100k_base", wantEncoding: "cl100k_base", wantBackend: tiktoken.Backtrack},
		{name: "@backtrack names the backtrack backend", model: "cl100k_base@backtrack", wantEncoding: "cl100k_base", wantBackend: tiktoken.Backtrack},
		{name: "@fast names the fast backend", model: "o200k_base@fast", wantEncoding: "o200k_base", wantBackend: tiktoken.Fast},
		{name: "@reference names the reference backend", model: "p50k_base@reference", wantEncoding: "p50k_base", wantBackend: tiktoken.Reference},
		{name: "a tiktoken: prefix is accepted so names round-trip", model: "tiktoken:r50k_base@reference", wantEncoding: "r50k_base", wantBackend: tiktoken.Reference},
		{name: "an unknown encoding names itself and the available ones", model: "gpt2",
			wantErr: []string{`encoding "gpt2"`, "cl100k_base, o200k_base, p50k_base, r50k_base"}},
		{name: "p50k_edit is not served", model: "p50k_edit", wantErr: []string{`encoding "p50k_edit"`}},
		{name: "encodings are case-sensitive", model: "CL100K_BASE", wantErr: []string{`encoding "CL100K_BASE"`}},
		{name: "an unknown backend names the available ones", model: "cl100k_base@turbo",
			wantErr: []string{`backend "turbo"`, "backtrack, fast, reference"}},
		{name: "an empty backend after @ is refused", model: "cl100k_base@", wantErr: []string{`backend ""`}},
		{name: "an empty model is refused", model: "", wantErr: []string{`encoding ""`}},
		{name: "a backend alone is refused", model: "@reference", wantErr: []string{`encoding ""`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			enc, backend, err := tiktoken.ParseModel(tt.model)
			if tt.wantErr != nil {
				if !errors.Is(err, sdk.ErrUnsupported) {
					t.Fatalf("ParseModel(%q) error = %v, want one matching sdk.ErrUnsupported", tt.model, err)
				}
				for _, frag := range tt.wantErr {
					if !strings.Contains(err.Error(), frag) {
						t.Errorf("ParseModel(%q) error %q does not contain %q", tt.model, err, frag)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseModel(%q): %v", tt.model, err)
			}
			if enc != tt.wantEncoding || backend != tt.wantBackend {
				t.Errorf("ParseModel(%q) = %q, %q; want %q, %q", tt.model, enc, backend, tt.wantEncoding, tt.wantBackend)
			}
		})
	}
}

func TestModelsListsEveryEncodingOnEachBackend(t *testing.T) {
	t.Parallel()
	want := []string{
		"cl100k_base", "cl100k_base@backtrack", "cl100k_base@fast", "cl100k_base@reference",
		"o200k_base", "o200k_base@backtrack", "o200k_base@fast", "o200k_base@reference",
		"p50k_base", "p50k_base@backtrack", "p50k_base@fast", "p50k_base@reference",
		"r50k_base", "r50k_base@backtrack", "r50k_base@fast", "r50k_base@reference",
	}
	if diff := cmp.Diff(want, tiktoken.Models()); diff != "" {
		t.Errorf("Models() (-want +got):\n%s", diff)
	}
	for _, m := range tiktoken.Models() {
		if _, _, err := tiktoken.ParseModel(m); err != nil {
			t.Errorf("ParseModel(%q) of a listed model: %v", m, err)
		}
	}
	models := tiktoken.Models()
	models[0] = "changed"
	if tiktoken.Models()[0] != "cl100k_base" {
		t.Error("changing the slice Models returned changed the next answer")
	}
}

func TestNewRefusesWhatItDoesNotServe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		encoding string
		backend  tiktoken.Backend
		want     string
	}{
		{name: "an unknown encoding", encoding: "gpt-4", backend: tiktoken.Fast, want: `encoding "gpt-4" (available: cl100k_base, o200k_base, p50k_base, r50k_base)`},
		{name: "a model string instead of an encoding", encoding: "cl100k_base@reference", backend: "", want: `encoding "cl100k_base@reference"`},
		{name: "an unknown backend", encoding: "cl100k_base", backend: "wasm", want: `backend "wasm" (available: backtrack, fast, reference)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := tiktoken.New(tt.encoding, tt.backend)
			if !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New(%q, %q) = %v, %v; want an sdk.ErrUnsupported error containing %q", tt.encoding, tt.backend, c, err, tt.want)
			}
		})
	}
}

func TestNameSaysEncodingAndBackend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		encoding string
		backend  tiktoken.Backend
		want     string
	}{
		{name: "the backtrack backend is not named", encoding: "cl100k_base", backend: tiktoken.Backtrack, want: "tiktoken:cl100k_base"},
		{name: "the zero backend is the backtrack one", encoding: "o200k_base", backend: "", want: "tiktoken:o200k_base"},
		{name: "the fast backend is named", encoding: "cl100k_base", backend: tiktoken.Fast, want: "tiktoken:cl100k_base@fast"},
		{name: "the reference backend is named", encoding: "cl100k_base", backend: tiktoken.Reference, want: "tiktoken:cl100k_base@reference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			backend := tt.backend
			if backend == "" {
				backend = tiktoken.Backtrack
			}
			c := counter(t, tt.encoding, backend)
			if got := c.Name(); got != tt.want {
				t.Errorf("Name() = %q, want %q", got, tt.want)
			}
			enc, b, err := tiktoken.ParseModel(c.Name())
			if err != nil || enc != c.Encoding() || b != c.Backend() {
				t.Errorf("ParseModel(Name()) = %q, %q, %v; want %q, %q", enc, b, err, c.Encoding(), c.Backend())
			}
		})
	}
}
