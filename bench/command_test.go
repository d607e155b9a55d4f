package bench

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

func TestCommand(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"--quick", "--out", out, "--strategy", "heading", "--tokenizer", "words", "--max-tokens", "64,128", "--overlap", "0", "--count", "1", "corpus"}
	if err := Command(context.Background(), args, &stdout, &stderr, nil); err != nil {
		t.Fatalf("Command: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"heading", "words", "64", "128", filepath.Join(out, BenchFile)} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestCommandErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want error
		says string // in the error, when set
	}{
		{"a budget that is not a number is a configuration error", []string{"--max-tokens", "big", "corpus"}, sdk.ErrInvalidConfig, ""},
		{"an overlap that is not a number is a configuration error", []string{"--overlap", "x", "corpus"}, sdk.ErrInvalidConfig, ""},
		{"no corpus is a configuration error", nil, sdk.ErrInvalidConfig, ""},
		{"an unknown flag is a configuration error", []string{"--fast", "corpus"}, sdk.ErrInvalidConfig, ""},
		{"-h asks for help", []string{"-h"}, flag.ErrHelp, ""},
		{"a peer without a file is a configuration error", []string{"--peer", "langchain", "corpus"}, sdk.ErrInvalidConfig, ""},
		{"an unknown context mode is a configuration error", []string{"--context", "chapter", "--quick", "--strategy", "heading", "--tokenizer", "words", "corpus"}, sdk.ErrInvalidConfig, ""},
		{"--count 0 is an error, not the default", []string{"--count", "0", "no-such-corpus"}, sdk.ErrInvalidConfig, "--count 0: want 1 or more"},
		{"-k 0 is an error, not the default", []string{"-k", "0", "no-such-corpus"}, sdk.ErrInvalidConfig, "--k 0: want 1 or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stderr bytes.Buffer
			err := Command(context.Background(), tt.args, &bytes.Buffer{}, &stderr, nil)
			if !errors.Is(err, tt.want) || !strings.Contains(fmt.Sprint(err), tt.says) {
				t.Errorf("Command(%q) = %v, want %v saying %q", tt.args, err, tt.want, tt.says)
			}
		})
	}
}
