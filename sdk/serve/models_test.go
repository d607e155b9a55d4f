package serve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestCounterMap(t *testing.T) {
	t.Parallel()
	words, runes := sdk.Words{}, sdk.Runes{}
	tests := []struct {
		name    string
		m       CounterMap
		model   string
		want    sdk.TokenCounter
		wantErr string // "" means no error; otherwise a fragment of an ErrUnsupported error
	}{
		{name: "a named model is served", m: CounterMap{"words": words, "runes": runes}, model: "runes", want: runes},
		{name: "the only model is the default", m: CounterMap{"words": words}, model: "", want: words},
		{name: "an explicit default wins", m: CounterMap{"words": words, "runes": runes, "": runes}, model: "", want: runes},
		{name: "several models and no default need a name", m: CounterMap{"words": words, "runes": runes}, model: "", wantErr: "no model named and no default; this plugin serves runes, words"},
		{name: "an unknown model lists the models served", m: CounterMap{"words": words}, model: "cl100k_base", wantErr: `model "cl100k_base"; this plugin serves words`},
		{name: "an empty map serves nothing", m: CounterMap{}, model: "", wantErr: "no model named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.m.Counter(context.Background(), tt.model)
			if tt.wantErr != "" {
				if !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Counter(%q) error = %v, want one matching sdk.ErrUnsupported containing %q", tt.model, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Counter(%q): %v", tt.model, err)
			}
			if got != tt.want {
				t.Errorf("Counter(%q) = %T, want %T", tt.model, got, tt.want)
			}
		})
	}
}

func TestMapModelsAreSortedWithoutTheDefaultKey(t *testing.T) {
	t.Parallel()
	c := CounterMap{"o200k_base": sdk.Words{}, "cl100k_base": sdk.Words{}, "": sdk.Words{}}
	if diff := cmp.Diff([]string{"cl100k_base", "o200k_base"}, c.Models()); diff != "" {
		t.Errorf("CounterMap.Models (-want +got):\n%s", diff)
	}
	s := SplitterMap{"uax29": nil, "punkt": nil}
	if diff := cmp.Diff([]string{"punkt", "uax29"}, s.Models()); diff != "" {
		t.Errorf("SplitterMap.Models (-want +got):\n%s", diff)
	}
	if _, err := s.Splitter(context.Background(), "spacy"); !errors.Is(err, sdk.ErrUnsupported) {
		t.Errorf("SplitterMap.Splitter of an unknown model = %v, want an error matching sdk.ErrUnsupported", err)
	}
}
