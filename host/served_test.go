package host

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// setupServed puts a link to the sdk/serve plugin into a new directory with a manifest that
// lists it as "served", offering kinds.
func setupServed(t *testing.T, kinds ...plugin.Kind) (dir, bin string) {
	t.Helper()
	dir = t.TempDir()
	bin = filepath.Join(dir, "sv"+time.Now().Format("150405.000000"))
	copyFile(t, servedBin, bin)
	if err := BuildManifest(dir, []Entry{{Name: "served", Binary: filepath.Base(bin), Kinds: kinds}}); err != nil {
		t.Fatal(err)
	}
	return dir, bin
}

func TestAPluginBuiltOnTheServeSDKWorksThroughTheHost(t *testing.T) {
	dir, bin := setupServed(t, plugin.KindTokenizer)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	ctx := context.Background()
	texts := []string{"héllo wörld", ""}
	for _, tt := range []struct {
		spec string
		want []int
	}{
		{"plugin:served:words", []int{2, 0}},
		{"plugin:served:runes", []int{11, 0}},
	} {
		tc, err := h.TokenCounter(ctx, tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tc.Count(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Count (-want +got):\n%s", tt.spec, diff)
		}
	}
	info, err := h.Info(ctx, "served", plugin.KindTokenizer)
	if err != nil {
		t.Fatal(err)
	}
	want := plugin.Info{Name: "served", Version: "1.2.3", Models: []string{"runes", "words"}, ProtocolVersion: "1.2", Kinds: []plugin.Kind{plugin.KindTokenizer}}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
	_, err = h.TokenCounter(ctx, "plugin:served:bytes")
	wantErr(t, err, []error{sdk.ErrUnsupported}, `plugin "served"`, `model "bytes"`, "it serves runes, words")
}

func TestAServiceTheManifestPromisesButThePluginLacksIsUnsupported(t *testing.T) {
	dir, bin := setupServed(t, plugin.KindTokenizer, plugin.KindSentence)
	checkLeaks(t, bin)
	h := newHost(t, dir, Options{})
	_, err := h.SentenceSplitter(context.Background(), "plugin:served")
	wantErr(t, err, []error{sdk.ErrUnsupported}, `plugin "served"`, "does not serve sentence", "manifest")
}
