package host

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/sdk"
)

// FuzzManifest checks that every manifest parseManifest accepts is valid (WriteManifest
// accepts its entries again), names binaries inside its folder, and comes back the same from
// WriteManifest and LoadManifest; and that every refusal is a *ManifestError.
func FuzzManifest(f *testing.F) {
	for _, seed := range []string{
		`{"plugins": []}`,
		`{"version": 1, "plugins": [{"name": "t", "binary": "bin/t", "sha256": "` + sum64 + `", "args": ["-v"], "kinds": ["tokenizer"], "env": ["HF_HOME"]}]}`,
		`{"plugins": [{"name": "a", "binary": "./a", "sha256": "` + strings.ToUpper(sum64) + `", "kinds": ["sentence", "tokenizer"]}, {"name": "b", "binary": "b", "sha256": "` + sum64 + `", "kinds": ["sentence"]}]}`,
		`{"plugins": [{"name": "p", "binary": "../p", "sha256": "` + sum64 + `", "kinds": ["tokenizer"]}]}`,
		`{"plugins": [{"name": "p", "binary": "a/../../p", "sha256": "` + sum64 + `", "kinds": ["tokenizer"]}]}`,
		`{"plugins": [{"name": "p", "binary": "p", "sha256": "` + sum64 + `", "kinds": ["tokenizer"], "env": ["PLUGIN_X", "A", "A"]}]}`,
		`{"plugins": [{"name": "p", "binary": "p\u0000", "sha256": "` + sum64 + `", "kinds": ["tokenizer"]}]}`,
		`{"plugins": [{"name": "p", "binary": "/bin/sh", "sha256": "` + sum64 + `", "kinds": ["tokenizer"]}]}`,
		`{"version": 2, "plugins": []}`,
		`{"plugins": null}`,
		`[]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		file := filepath.Join(dir, ManifestName)
		m, err := parseManifest(file, data)
		if err != nil {
			var me *ManifestError
			if !errors.As(err, &me) || !errors.Is(err, sdk.ErrInvalidConfig) || me.File != file {
				t.Fatalf("refusal is not a *ManifestError about %s: %#v", file, err)
			}
			return
		}
		for _, p := range m.Plugins() {
			rel, err := filepath.Rel(dir, p.Path)
			if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				t.Fatalf("accepted binary %q resolves to %s, outside %s", p.Name, p.Path, dir)
			}
		}
		if err := WriteManifest(dir, m.Entries); err != nil {
			t.Fatalf("WriteManifest refuses what LoadManifest accepted: %v", err)
		}
		back, err := LoadManifest(file)
		if err != nil {
			t.Fatalf("LoadManifest refuses what WriteManifest wrote: %v", err)
		}
		if diff := cmp.Diff(m.Entries, back.Entries, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip (-parsed +reloaded):\n%s", diff)
		}
	})
}
