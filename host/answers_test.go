package host

import (
	"context"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

// TestAPluginThatBreaksTheCounterContractIsCaughtWhenTheCounterIsMade runs the faulty plugin
// with each way of lying about counts and boundaries: the host's probe of the model catches
// every one before any chunker sees an answer, with an error that names the plugin and says
// what is wrong. The plugin is not restarted: it answered, badly.
func TestAPluginThatBreaksTheCounterContractIsCaughtWhenTheCounterIsMade(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"too few counts", []string{"-wrong-counts"}, "4 counts for 5 texts"},
		{"Count disagreeing with Boundaries", []string{"-lie=mismatch"}, "Count says 2 tokens for probe text 1 (\"a\") but Boundaries gives 1 offsets [1]"},
		{"a negative count", []string{"-lie=negative"}, "text 0: negative count -1"},
		{"boundaries that stop short of the text's end", []string{"-lie=short-ends"}, "text 1: last boundary 0 is not the text length 1"},
		{"a token in the empty text", []string{"-lie=empty-token"}, "text 0 is empty but counted 1 tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, bin := setup(t, tt.args...)
			checkLeaks(t, bin)
			h := newHost(t, dir, Options{})
			_, err := h.TokenCounter(context.Background(), "plugin:faulty:alpha")
			wantErr(t, err, []error{sdk.ErrBadResponse}, `spec "plugin:faulty:alpha"`, `plugin "faulty"`, "fails the host's checks", tt.want)
			if n := starts(h, "faulty"); n != 1 {
				t.Errorf("a bad answer restarted the plugin: %d starts, want 1", n)
			}
		})
	}
}

// TestALieOnOneTextIsCaughtOnTheCall checks the answers the probe does not see: a plugin that
// lies only on some texts passes the probe, and the call with such a text fails, naming the
// plugin, the model and the text.
func TestALieOnOneTextIsCaughtOnTheCall(t *testing.T) {
	tests := []struct {
		lie, op, want string
	}{
		{"negative", "count", "text 1: negative count -1"},
		{"short-ends", "boundaries", "text 1: last boundary 9 is not the text length 10"},
	}
	for _, tt := range tests {
		t.Run(tt.lie+" on the second text", func(t *testing.T) {
			dir, bin := setup(t, "-lie="+tt.lie, "-lie-on=LIE")
			checkLeaks(t, bin)
			h := newHost(t, dir, Options{})
			ctx := context.Background()
			tc, err := h.TokenCounter(ctx, "plugin:faulty:beta")
			if err != nil {
				t.Fatalf("the probe saw a lie it should not have: %v", err)
			}
			texts := []string{"fine words", "a LIE here", "fine"}
			if tt.op == "count" {
				_, err = tc.Count(ctx, texts)
			} else {
				_, err = tc.Boundaries(ctx, texts)
			}
			wantErr(t, err, []error{sdk.ErrBadResponse}, `plugin "faulty" model "beta"`, tt.op, tt.want)
		})
	}
}
