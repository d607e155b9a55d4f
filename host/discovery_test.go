package host

import (
	"os"
	"path/filepath"
	"runtime"
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

func TestDiscoverSearchesTheCallersDirsTheEnvTheExecutableTheConfigDirAndTheCommand(t *testing.T) {
	mine, env1, env2, cfg, bin := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv(EnvPluginDir, env1+string(os.PathListSeparator)+string(os.PathListSeparator)+env2)
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", cfg) // os.UserConfigDir on macOS
	t.Setenv("AppData", cfg)
	command := filepath.Join(bin, CommandName)
	if runtime.GOOS == "windows" {
		command += ".exe"
	}
	if err := os.WriteFile(command, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	userDir, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	userDir = filepath.Join(userDir, filepath.FromSlash(ConfigDirName))
	want := []string{mine, env1, env2, filepath.Dir(exe), userDir, bin}
	if diff := cmp.Diff(want, SearchPath(mine)); diff != "" {
		t.Errorf("SearchPath (-want +got):\n%s", diff)
	}

	// The user's plugin directory does not exist yet: Discover skips it.
	cat, err := Discover(mine)
	if err != nil {
		t.Fatalf("Discover with no user plugin directory: %v", err)
	}
	if len(cat.Plugins) != 0 {
		t.Errorf("Discover found %+v in empty directories", cat.Plugins)
	}

	// A plugin installed for the user is found by a library program that sets nothing.
	if err := os.MkdirAll(userDir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifestFor(t, userDir, ManifestName, "tiktoken")
	manifestFor(t, bin, ManifestName, "sentence")
	t.Setenv(EnvPluginDir, "")
	cat, err = Discover()
	if err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{"tiktoken": userDir, "sentence": bin} {
		if p, ok := cat.Lookup(name); !ok || filepath.Dir(p.Manifest) != dir {
			t.Errorf("Lookup(%s) = %+v, %t; want the plugin of %s", name, p, ok, dir)
		}
	}

	// The caller's directory comes first: its tiktoken shadows the user's.
	manifestFor(t, mine, ManifestName, "tiktoken")
	cat, err = Discover(mine)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := cat.Lookup("tiktoken"); filepath.Dir(p.Manifest) != mine {
		t.Errorf("tiktoken came from %s, want the caller's %s", p.Manifest, mine)
	}
}

func TestDiscoverReportsAPluginDirThatDoesNotExist(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	t.Setenv(EnvPluginDir, missing)
	_, err := Discover()
	wantErr(t, err, []error{os.ErrNotExist}, missing, "$"+EnvPluginDir)
	_, err = Discover(missing)
	wantErr(t, err, []error{os.ErrNotExist}, missing, "places given to Discover")
}
