package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// manifestFor writes a manifest named file into dir that lists plugins by name, each with a
// binary of the same name.
func manifestFor(t *testing.T, dir, file string, names ...string) string {
	t.Helper()
	var entries []string
	for _, n := range names {
		entries = append(entries, `{"name": "`+n+`", "binary": "`+n+`", "sha256": "`+sum64+`", "kinds": ["tokenizer"]}`)
	}
	return writeManifest(t, dir, file, `{"plugins": [`+strings.Join(entries, ",")+`]}`)
}

func names(c *Catalog) []string {
	var out []string
	for _, p := range c.Plugins {
		out = append(out, p.Name+"@"+filepath.Base(filepath.Dir(p.Path)))
	}
	return out
}

func TestLoadMergesTheManifestsOfADirectoryInLexicalOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := manifestFor(t, dir, ManifestName, "tiktoken", "sentence")
	a := manifestFor(t, dir, "acme.plugins.json", "acme")
	writeManifest(t, dir, "notes.json", "not a manifest, not read")
	cat, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(dir)
	if diff := cmp.Diff([]string{"acme@" + base, "tiktoken@" + base, "sentence@" + base}, names(cat)); diff != "" {
		t.Errorf("plugins (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{a, b}, cat.Manifests); diff != "" {
		t.Errorf("manifests (-want +got):\n%s", diff)
	}
}

func TestLoadRefusesOneNameInTwoManifestsOfADirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	manifestFor(t, dir, "a.plugins.json", "tiktoken")
	b := manifestFor(t, dir, "b.plugins.json", "tiktoken")
	_, err := Load(dir)
	wantErr(t, err, nil, b, "plugins[0].name", `"tiktoken"`, "a.plugins.json")
}

func TestAnEarlierPathShadowsALaterOne(t *testing.T) {
	t.Parallel()
	first, second := filepath.Join(t.TempDir(), "first"), filepath.Join(t.TempDir(), "second")
	for _, d := range []string{first, second} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	manifestFor(t, first, ManifestName, "tiktoken")
	manifestFor(t, second, ManifestName, "tiktoken", "hftokenizer")
	cat, err := Load(first, second)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"tiktoken@first", "hftokenizer@second"}, names(cat)); diff != "" {
		t.Errorf("plugins (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{first, second}, cat.Searched); diff != "" {
		t.Errorf("searched (-want +got):\n%s", diff)
	}
}

func TestLoadAcceptsAManifestFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := manifestFor(t, dir, "custom.json", "tiktoken")
	cat, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := cat.Lookup("tiktoken"); !ok || p.Path != filepath.Join(dir, "tiktoken") || p.Manifest != path {
		t.Errorf("Lookup(tiktoken) = %+v, %v; want the plugin next to %s", p, ok, path)
	}
}

func TestDiscoverSearchesThePluginDirThenTheExecutablesDirectory(t *testing.T) {
	dir1, dir2 := t.TempDir(), t.TempDir()
	manifestFor(t, dir2, ManifestName, "tiktoken")
	t.Setenv(EnvPluginDir, dir1+string(os.PathListSeparator)+string(os.PathListSeparator)+dir2)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{dir1, dir2, filepath.Dir(exe)}, SearchPath()); diff != "" {
		t.Errorf("SearchPath (-want +got):\n%s", diff)
	}
	cat, err := Discover()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cat.Lookup("tiktoken"); !ok {
		t.Errorf("Discover did not find the plugin in %s: %+v", dir2, cat)
	}
}

func TestDiscoverReportsAPluginDirThatDoesNotExist(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	t.Setenv(EnvPluginDir, missing)
	_, err := Discover()
	wantErr(t, err, []error{os.ErrNotExist}, missing, "$"+EnvPluginDir)
}
