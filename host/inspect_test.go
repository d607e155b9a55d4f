package host

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

func TestInspectAsksAnyExecutableWhatItIs(t *testing.T) {
	tests := []struct {
		name string
		bin  func(t *testing.T) string
		args []string
		want plugin.Info
	}{
		{
			name: "a tokenizer built on sdk/serve names itself and its one kind",
			bin:  func(t *testing.T) string { _, bin := setupServed(t, plugin.KindTokenizer); return bin },
			want: plugin.Info{Name: "served", Version: "1.2.3", Models: []string{"runes", "words"}, ProtocolVersion: "1.2",
				Kinds: []plugin.Kind{plugin.KindTokenizer}},
		},
		{
			name: "a plugin serving both kinds, named by its arguments, lists both",
			bin:  func(t *testing.T) string { _, bin := setup(t); return bin },
			args: []string{"-name", "acme"},
			want: plugin.Info{Name: "acme", Version: "0.0.1-test", Models: []string{"alpha", "beta"}, ProtocolVersion: "1.2",
				Kinds: []plugin.Kind{plugin.KindTokenizer, plugin.KindSentence}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := tt.bin(t)
			checkLeaks(t, bin)
			got, err := Inspect(context.Background(), bin, tt.args, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Inspect (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInspectExplainsWhatIsNotAPlugin(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"one that writes to stdout before the handshake", []string{"-garbage"}, []string{"wrote to stdout before the handshake", "hello from faulty"}},
		{"one that reports a name no spec can use", []string{"-name", "no spaces"}, []string{`reports the name "no spaces"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, bin := setup(t)
			checkLeaks(t, bin)
			_, err := Inspect(context.Background(), bin, tt.args, Options{})
			wantErr(t, err, nil, append([]string{filepath.Base(bin)}, tt.want...)...)
		})
	}
	_, err := Inspect(context.Background(), filepath.Join(t.TempDir(), "missing"), nil, Options{})
	wantErr(t, err, nil, "missing", "no such file")
}

func TestRegisterWritesTheManifestFromInfo(t *testing.T) {
	dir, bin := setupServed(t, plugin.KindSentence) // a wrong kind, which Register corrects
	checkLeaks(t, bin)
	entries, err := Register(context.Background(), dir, []string{bin}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := FileSHA256(bin)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "served", Binary: filepath.Base(bin), SHA256: sum, Kinds: []plugin.Kind{plugin.KindTokenizer}}}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("Register (-want +got):\n%s", diff)
	}
	h := newHost(t, dir, Options{})
	tc, err := h.TokenCounter(context.Background(), "plugin:served:words")
	if err != nil {
		t.Fatal(err)
	}
	if counts, err := tc.Count(context.Background(), []string{"two words"}); err != nil || counts[0] != 2 {
		t.Errorf("Count through the registered plugin = %v, %v", counts, err)
	}
	if _, err := Register(context.Background(), t.TempDir(), []string{bin}, Options{}); !errors.Is(err, sdk.ErrInvalidConfig) {
		t.Errorf("Register of a binary outside the directory = %v, want sdk.ErrInvalidConfig", err)
	}
}

func TestRegisterWithArgsStartsThePluginWithThemAndKeepsThem(t *testing.T) {
	dir, bin := setup(t)
	checkLeaks(t, bin)
	entries, err := RegisterWithArgs(context.Background(), dir, bin, []string{"-name", "acme"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// setup's manifest listed the binary as "faulty": the entry for the binary is replaced.
	if len(entries) != 1 || entries[0].Name != "acme" || !slices.Equal(entries[0].Args, []string{"-name", "acme"}) {
		t.Fatalf("entries = %+v, want one named acme with its args", entries)
	}
	// Registering again without args keeps them.
	entries, err = Register(context.Background(), dir, []string{bin}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name != "acme" || !slices.Equal(entries[0].Args, []string{"-name", "acme"}) {
		t.Errorf("entries after Register = %+v, want the args kept", entries)
	}
}
