package host

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/sdk"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

const sum64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func writeManifest(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadManifestReadsEveryField(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeManifest(t, dir, ManifestName, `{
  "version": 1,
  "plugins": [
    {"name": "tiktoken", "binary": "bin/chunkkit-tiktoken", "sha256": "`+strings.ToUpper(sum64)+`",
     "args": ["-v", "x y"], "kinds": ["tokenizer"]},
    {"name": "sentence", "binary": "chunkkit-sentence", "sha256": "`+sum64+`", "kinds": ["sentence", "tokenizer"],
     "env": ["PUNKT_DATA", "_X1"]}
  ]
}`)
	m, err := LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	want := &Manifest{Path: path, Version: 1, Entries: []Entry{
		{Name: "tiktoken", Binary: "bin/chunkkit-tiktoken", SHA256: sum64, Args: []string{"-v", "x y"}, Kinds: []sdkplugin.Kind{"tokenizer"}},
		{Name: "sentence", Binary: "chunkkit-sentence", SHA256: sum64, Kinds: []sdkplugin.Kind{"sentence", "tokenizer"}, Env: []string{"PUNKT_DATA", "_X1"}},
	}}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("LoadManifest (-want +got):\n%s", diff)
	}
	wantPlugins := []Plugin{
		{Name: "tiktoken", Path: filepath.Join(dir, "bin", "chunkkit-tiktoken"), SHA256: sum64, Args: []string{"-v", "x y"},
			Kinds: []sdkplugin.Kind{"tokenizer"}, Manifest: path},
		{Name: "sentence", Path: filepath.Join(dir, "chunkkit-sentence"), SHA256: sum64,
			Kinds: []sdkplugin.Kind{"sentence", "tokenizer"}, Env: []string{"PUNKT_DATA", "_X1"}, Manifest: path},
	}
	if diff := cmp.Diff(wantPlugins, m.Plugins()); diff != "" {
		t.Errorf("Plugins (-want +got):\n%s", diff)
	}
}

func TestLoadManifestNamesTheFileAndTheFieldOfEveryProblem(t *testing.T) {
	t.Parallel()
	entry := func(fields string) string { return `{"plugins": [{` + fields + `}]}` }
	ok := `"name": "p", "binary": "p", "sha256": "` + sum64 + `", "kinds": ["tokenizer"]`
	for _, tt := range []struct {
		name, content, field, problem string
	}{
		{"broken JSON gives the line and column", "{\n  \"plugins\": [\n    {\"name\": }\n  ]\n}", "", "invalid JSON at line 3, column 14"},
		{"a list instead of an object", `[]`, "", "want an object, got a list"},
		{"an unknown top-level field", `{"plugins": [], "plugin": []}`, "plugin", "unknown field"},
		{"a missing plugins list", `{"version": 1}`, "plugins", "missing"},
		{"an unsupported version", `{"version": 2, "plugins": []}`, "version", "unsupported version 2"},
		{"a fractional version", `{"version": 1.5, "plugins": []}`, "version", "want an integer, got the number 1.5"},
		{"plugins that are not a list", `{"plugins": {}}`, "plugins", "want a list, got an object"},
		{"an entry that is not an object", `{"plugins": ["p"]}`, "plugins[0]", "want an object, got a string"},
		{"a misspelt field", entry(ok + `, "sha265": "x"`), "plugins[0].sha265", "unknown field"},
		{"a missing name", entry(`"binary": "p", "sha256": "` + sum64 + `", "kinds": ["tokenizer"]`), "plugins[0].name", "missing"},
		{"a name with a colon", entry(strings.Replace(ok, `"name": "p"`, `"name": "a:b"`, 1)), "plugins[0].name", `"a:b"`},
		{"a name of the wrong type", entry(strings.Replace(ok, `"name": "p"`, `"name": 7`, 1)), "plugins[0].name", "want a string, got the integer 7"},
		{"a missing binary", entry(`"name": "p", "sha256": "` + sum64 + `", "kinds": ["tokenizer"]`), "plugins[0].binary", "missing"},
		{"an absolute binary", entry(strings.Replace(ok, `"binary": "p"`, `"binary": "/usr/bin/p"`, 1)), "plugins[0].binary", "relative to the manifest"},
		{"a missing checksum", entry(`"name": "p", "binary": "p", "kinds": ["tokenizer"]`), "plugins[0].sha256", "missing"},
		{"a short checksum", entry(strings.Replace(ok, sum64, "abc", 1)), "plugins[0].sha256", `"abc": want 64 hex digits`},
		{"args that are not strings", entry(ok + `, "args": [1]`), "plugins[0].args", "want a list of strings"},
		{"missing kinds", entry(`"name": "p", "binary": "p", "sha256": "` + sum64 + `"`), "plugins[0].kinds", "missing"},
		{"an unknown kind", entry(strings.Replace(ok, `["tokenizer"]`, `["tokenizer", "embedder"]`, 1)), "plugins[0].kinds[1]", `unknown kind "embedder"`},
		{"a kind listed twice", entry(strings.Replace(ok, `["tokenizer"]`, `["tokenizer", "tokenizer"]`, 1)), "plugins[0].kinds[1]", "listed twice"},
		{"a duplicate name", `{"plugins": [{` + ok + `}, {` + ok + `}]}`, "plugins[1].name", "also the name of plugins[0]"},
		{"a binary leaving the folder", entry(strings.Replace(ok, `"binary": "p"`, `"binary": "bin/../../p"`, 1)), "plugins[0].binary", "leaves the manifest's folder"},
		{"a binary naming the folder", entry(strings.Replace(ok, `"binary": "p"`, `"binary": "./."`, 1)), "plugins[0].binary", "names the manifest's folder itself"},
		{"a binary naming a subfolder", entry(strings.Replace(ok, `"binary": "p"`, `"binary": "bin/"`, 1)), "plugins[0].binary", "names a folder"},
		{"an argument with a NUL byte", entry(ok + `, "args": ["ok", "a\u0000b"]`), "plugins[0].args[1]", "NUL"},
		{"env that is not a list of strings", entry(ok + `, "env": "HOME"`), "plugins[0].env", "want a list of strings"},
		{"an env name that is no name", entry(ok + `, "env": ["HF_HOME", "A-B"]`), "plugins[0].env[1]", `"A-B": want a letter or '_'`},
		{"an env name the host sets", entry(ok + `, "env": ["PLUGIN_CLIENT_CERT"]`), "plugins[0].env[0]", "set by the host itself"},
		{"the host's TMPDIR", entry(ok + `, "env": ["TMPDIR"]`), "plugins[0].env[0]", "set by the host itself"},
		{"an env name listed twice", entry(ok + `, "env": ["HF_HOME", "HF_HOME"]`), "plugins[0].env[1]", "listed twice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeManifest(t, t.TempDir(), "x.plugins.json", tt.content)
			_, err := LoadManifest(path)
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("got %v, want a *ManifestError", err)
			}
			if me.File != path || me.Field != tt.field || !strings.Contains(me.Problem, tt.problem) {
				t.Errorf("got file %q field %q problem %q; want file %q field %q problem containing %q",
					me.File, me.Field, me.Problem, path, tt.field, tt.problem)
			}
			if !errors.Is(err, sdk.ErrInvalidConfig) {
				t.Errorf("error does not match sdk.ErrInvalidConfig: %v", err)
			}
			for _, s := range []string{path, tt.field} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error text lacks %q: %v", s, err)
				}
			}
		})
	}
}

func TestLoadManifestReportsAMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), ManifestName)
	_, err := LoadManifest(path)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want an error naming %s and matching os.ErrNotExist", err, path)
	}
}

func TestBuildManifestRecordsTheChecksumsOfTheBinaries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	contents := map[string]string{"bin/one": "first binary", "two": "second binary"}
	for name, content := range contents {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	entries := []Entry{
		{Name: "one", Binary: "bin/one", Args: []string{"-x"}, Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}},
		{Name: "two", Binary: "two", SHA256: "ignored", Kinds: []sdkplugin.Kind{sdkplugin.KindSentence}},
	}
	if err := BuildManifest(dir, entries); err != nil {
		t.Fatal(err)
	}
	m, err := LoadManifest(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Name: "one", Binary: "bin/one", SHA256: sum("first binary"), Args: []string{"-x"}, Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}},
		{Name: "two", Binary: "two", SHA256: sum("second binary"), Kinds: []sdkplugin.Kind{sdkplugin.KindSentence}},
	}
	if diff := cmp.Diff(want, m.Entries); diff != "" {
		t.Errorf("entries read back (-want +got):\n%s", diff)
	}
	for _, p := range m.Plugins() {
		if err := p.Verify(); err != nil {
			t.Errorf("Verify(%s): %v", p.Name, err)
		}
	}
	if entries[1].SHA256 != "ignored" {
		t.Errorf("BuildManifest modified its input: %+v", entries[1])
	}
}

func TestBuildManifestNamesAMissingBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	err := BuildManifest(dir, []Entry{{Name: "ghost", Binary: "ghost", Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}})
	var me *ManifestError
	if !errors.As(err, &me) || me.Field != "plugins[0].binary" || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), `"ghost"`) {
		t.Errorf("got %v, want a *ManifestError on plugins[0].binary naming the plugin and matching os.ErrNotExist", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a manifest was written despite the error (stat: %v)", err)
	}
}

func TestWriteManifestRefusesInvalidEntries(t *testing.T) {
	t.Parallel()
	good := Entry{Name: "p", Binary: "p", SHA256: sum64, Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}
	for _, tt := range []struct {
		name    string
		entries []Entry
		field   string
	}{
		{"an entry without a checksum", []Entry{{Name: "p", Binary: "p", Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}}, "plugins[0].sha256"},
		{"an entry without kinds", []Entry{{Name: "p", Binary: "p", SHA256: sum64}}, "plugins[0].kinds"},
		{"two entries with one name", []Entry{good, good}, "plugins[1].name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := WriteManifest(t.TempDir(), tt.entries)
			var me *ManifestError
			if !errors.As(err, &me) || me.Field != tt.field {
				t.Errorf("got %v, want a *ManifestError on %s", err, tt.field)
			}
		})
	}
}

func TestVerifyRefusesAChangedBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "p")
	if err := os.WriteFile(bin, []byte("original"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := BuildManifest(dir, []Entry{{Name: "p", Binary: "p", Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("changed"), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := LoadManifest(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	err = m.Plugins()[0].Verify()
	wantErr(t, err, []error{plugin.ErrChecksumsDoNotMatch}, `plugin "p"`, bin, m.Path)
}
