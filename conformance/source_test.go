package conformance_test

import (
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
)

func TestCheckSource(t *testing.T) {
	t.Parallel()
	src := []byte("# Title\r\n\r\n  first line\r\n  second line\r\n")
	good := sdk.Chunk{ID: "d#1", Content: "first line\nsecond line", SourceStart: 13, SourceEnd: 38, LineStart: 3, LineEnd: 4}
	tests := []struct {
		name    string
		chunk   func(c sdk.Chunk) sdk.Chunk
		wantErr string
	}{
		{"a right position passes", func(c sdk.Chunk) sdk.Chunk { return c }, ""},
		{"a chunk without a position fails", func(c sdk.Chunk) sdk.Chunk { c.LineStart = 0; return c }, "no position"},
		{"a range past the end fails", func(c sdk.Chunk) sdk.Chunk { c.SourceEnd = 99; return c }, "not a non-empty range"},
		{"wrong lines fail", func(c sdk.Chunk) sdk.Chunk { c.LineEnd = 5; return c }, "on lines 3–4"},
		{"a range one byte short fails", func(c sdk.Chunk) sdk.Chunk { c.SourceEnd--; return c }, "does not end with"},
		{"a range that starts in the indentation fails", func(c sdk.Chunk) sdk.Chunk { c.SourceStart--; return c }, "does not start with"},
		{"a one-line chunk must be its range exactly", func(c sdk.Chunk) sdk.Chunk {
			return sdk.Chunk{ID: "d#0", Content: "Title", SourceStart: 2, SourceEnd: 8, LineStart: 1, LineEnd: 1}
		}, "not the chunk's text"},
		{"a rendered prefix is not looked for", func(c sdk.Chunk) sdk.Chunk {
			c.Content = "| h |\n" + c.Content
			c.Metadata = map[string]any{sdk.MetaPrefix: "| h |\n"}
			return c
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := conformance.CheckSource(src, []sdk.Chunk{tc.chunk(good)})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("CheckSource: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("CheckSource = %v, want an error saying %q", err, tc.wantErr)
			}
		})
	}
}
