package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// pluginDir holds the tiktoken plugin binary and its manifest, built once by TestMain and
// named by $CHUNKKIT_PLUGIN_DIR for every test of this package.
var pluginDir string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "chunkkit-cli-plugins-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	build := exec.Command("go", "build", "-o", dir+"/",
		"github.com/chunkkit/chunkkit/plugins/tiktoken/cmd/chunkkit-tiktoken",
		"github.com/chunkkit/chunkkit/plugins/hftokenizer/cmd/chunkkit-hftokenizer",
		"github.com/chunkkit/chunkkit/plugins/sentence/cmd/chunkkit-sentence")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the plugins: %v\n%s", err, out)
		return 1
	}
	// The manifest comes from the command make build runs, which asks each binary its Info.
	var out, errOut strings.Builder
	if code := run(context.Background(), []string{"plugins", "manifest", dir}, strings.NewReader(""), &out, &errOut); code != 0 {
		fmt.Fprintf(os.Stderr, "chunkkit plugins manifest %s: exit %d\n%s%s", dir, code, out.String(), errOut.String())
		return 1
	}
	pluginDir = dir
	os.Setenv(host.EnvPluginDir, dir)
	return m.Run()
}

func TestChunkThroughTheTiktokenPluginIsExact(t *testing.T) {
	stdout, stderr, code := runCLI(t, "chunk", "../../testdata/sample.md", "--format", "jsonl", "--max-tokens", "96", "--overlap-tokens", "12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	inproc, err := tiktoken.New("cl100k_base", "")
	if err != nil {
		t.Fatal(err)
	}
	var contents []string
	var counts []int
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var c struct {
			EmbedText  string `json:"embed_text"` // what TokenCount counts
			TokenCount int    `json:"token_count"`
			Kind       string `json:"kind"`
		}
		if err := jsonUnmarshal(line, &c); err != nil {
			t.Fatal(err)
		}
		if c.Kind == "body" && c.TokenCount > 96 {
			t.Errorf("a body chunk of %d tokens exceeds 96: %q", c.TokenCount, c.EmbedText)
		}
		contents = append(contents, c.EmbedText)
		counts = append(counts, c.TokenCount)
	}
	want, err := inproc.Count(context.Background(), contents)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if counts[i] != want[i] {
			t.Errorf("chunk %d: plugin counted %d tokens, in-process tiktoken %d", i, counts[i], want[i])
		}
	}
}

// The expected counts come from OpenAI's tiktoken (npm tiktoken 1.0.22, encode_ordinary):
// cd tools/tiktoken-golden && npm ci && node -e '...get_encoding("cl100k_base").encode_ordinary(s).length'
func TestCount(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"the whole input is one text", []string{"count"}, "hello world, <|endoftext|> is text", "11\n"},
		{"each JSON line is one text", []string{"count", "--jsonl"}, "\"hello world\"\n\"\"\n\"tiktoken is great!\"\n", "2\n0\n6\n"},
		{"o200k counts differently", []string{"count", "--tokenizer", "tiktoken:o200k_base", "--jsonl"}, "\"こんにちは世界\"\n", "2\n"},
		{"the words counter needs no plugin", []string{"count", "--tokenizer", "words"}, "a b  c\n", "3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := run(context.Background(), tc.args, strings.NewReader(tc.stdin), &out, &errOut)
			if code != 0 || out.String() != tc.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out.String(), errOut.String(), tc.want)
			}
		})
	}
	t.Run("a line that is not a JSON string names the line", func(t *testing.T) {
		var out, errOut strings.Builder
		code := run(context.Background(), []string{"count", "--jsonl"}, strings.NewReader("\"ok\"\n{oops}\n"), &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "line 2") {
			t.Errorf("exit %d, stderr %q", code, errOut.String())
		}
	})
}

// TestCountThroughTheHFPlugin counts with GPT-2's tokenizer.json (assembled as HF's own) through
// the hftokenizer plugin. The expected counts are HF tokenizers' (see
// plugins/hftokenizer/testdata/golden/gpt2.json): "Hello world" is [15496, 995].
func TestCountThroughTheHFPlugin(t *testing.T) {
	dir := t.TempDir()
	files, err := reffiles.WriteAssembled(dir)
	if err != nil {
		t.Fatal(err)
	}
	gpt2 := files[0].Path
	for _, tc := range []struct {
		name, spec, stdin, want string
	}{
		{"plain text", "hf:" + gpt2, "\"Hello world\"\n\"\"\n", "2\n0\n"},
		{"special-token text is text", "hf:" + gpt2, "\"<|endoftext|>\"\n", "7\n"},
		{"@special matches it as HF's default encode", "hf:" + gpt2 + "@special", "\"<|endoftext|>\"\n", "1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := run(context.Background(), []string{"count", "--jsonl", "--tokenizer", tc.spec}, strings.NewReader(tc.stdin), &out, &errOut)
			if code != 0 || out.String() != tc.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out.String(), errOut.String(), tc.want)
			}
		})
	}
	t.Run("a file the plugin refuses fails with its reason", func(t *testing.T) {
		bad := filepath.Join(dir, "scripts.json")
		if err := os.WriteFile(bad, []byte(`{"added_tokens":[],"pre_tokenizer":{"type":"UnicodeScripts"},"model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0.0]]}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut strings.Builder
		code := run(context.Background(), []string{"count", "--tokenizer", "hf:" + bad}, strings.NewReader("x"), &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), `pre-tokenizer type "UnicodeScripts"`) || !strings.Contains(errOut.String(), bad) {
			t.Errorf("exit %d, stderr %q", code, errOut.String())
		}
	})
}

func TestPluginsListAndVerify(t *testing.T) {
	stdout, stderr, code := runCLI(t, "plugins", "list")
	if code != 0 || !strings.Contains(stdout, "tiktoken") || !strings.Contains(stdout, "chunkkit-tiktoken") {
		t.Errorf("list: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, stderr, code = runCLI(t, "plugins", "verify")
	if code != 0 || !strings.Contains(stdout, "ok    tiktoken") {
		t.Errorf("verify: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	t.Run("a tampered binary fails verification and is refused", func(t *testing.T) {
		dir := t.TempDir()
		bin, err := os.ReadFile(filepath.Join(pluginDir, "chunkkit-tiktoken"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "chunkkit-tiktoken"), bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := host.BuildManifest(dir, []host.Entry{{Name: "tiktoken", Binary: "chunkkit-tiktoken", Kinds: []plugin.Kind{plugin.KindTokenizer}}}); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(filepath.Join(dir, "chunkkit-tiktoken"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("tampered")
		f.Close()
		t.Setenv(host.EnvPluginDir, dir)
		stdout, _, code := runCLI(t, "plugins", "verify")
		if code != 1 || !strings.Contains(stdout, "FAIL  tiktoken") {
			t.Errorf("verify: exit %d, stdout %q", code, stdout)
		}
		_, stderr, code := runCLI(t, "chunk", "../../testdata/sample.md")
		if code != 1 || !strings.Contains(stderr, "chunkkit-tiktoken") || !strings.Contains(stderr, "checksum") {
			t.Errorf("chunk with a tampered plugin: exit %d, stderr %q", code, stderr)
		}
	})
}

func TestPluginsAddRegistersAnExecutableByItsInfo(t *testing.T) {
	dir := t.TempDir()
	// A vendor's binary, named as the vendor likes: the manifest name comes from its Info.
	copyExecutable(t, filepath.Join(pluginDir, "chunkkit-sentence"), filepath.Join(dir, "acme-splitter"))
	copyExecutable(t, filepath.Join(pluginDir, "chunkkit-tiktoken"), filepath.Join(dir, "acme-bpe"))
	stdout, stderr, code := runCLI(t, "plugins", "add", filepath.Join(dir, "acme-splitter"), filepath.Join(dir, "acme-bpe"))
	if code != 0 {
		t.Fatalf("add: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, want := range []string{"sentence (acme-splitter, sentence)", "tiktoken (acme-bpe, tokenizer)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("add printed %q, want a line with %q", stdout, want)
		}
	}
	m, err := host.LoadManifest(filepath.Join(dir, host.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := host.FileSHA256(filepath.Join(dir, "acme-bpe"))
	if err != nil {
		t.Fatal(err)
	}
	want := []host.Entry{
		{Name: "sentence", Binary: "acme-splitter", Kinds: []plugin.Kind{plugin.KindSentence}},
		{Name: "tiktoken", Binary: "acme-bpe", SHA256: sum, Kinds: []plugin.Kind{plugin.KindTokenizer}},
	}
	if diff := cmp.Diff(want, m.Entries, cmpopts.IgnoreFields(host.Entry{}, "SHA256"), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	if m.Entries[1].SHA256 != sum {
		t.Errorf("acme-bpe's sha256 is %s, want %s", m.Entries[1].SHA256, sum)
	}

	t.Run("adding again replaces the entry and keeps the others", func(t *testing.T) {
		_, stderr, code := runCLI(t, "plugins", "add", "--dir", dir, filepath.Join(dir, "acme-bpe"))
		if code != 0 {
			t.Fatalf("add again: exit %d, stderr %q", code, stderr)
		}
		again, err := host.LoadManifest(filepath.Join(dir, host.ManifestName))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(m.Entries, again.Entries, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("manifest after adding acme-bpe again (-before +after):\n%s", diff)
		}
	})
	t.Run("an executable that is not a plugin is refused with the reason", func(t *testing.T) {
		script := filepath.Join(dir, "hello")
		if err := os.WriteFile(script, []byte("#!/bin/sh\necho hello\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCLI(t, "plugins", "add", script)
		if code != 1 || !strings.Contains(stderr, "hello") || !strings.Contains(stderr, "handshake") {
			t.Errorf("add of a shell script: exit %d, stderr %q", code, stderr)
		}
		_, stderr, code = runCLI(t, "plugins", "manifest", dir)
		if code != 0 || !strings.Contains(stderr, "skipped "+script+": not a chunkkit plugin") {
			t.Errorf("manifest of a folder with a shell script: exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("an executable outside the manifest's directory is refused", func(t *testing.T) {
		_, stderr, code := runCLI(t, "plugins", "add", "--dir", t.TempDir(), filepath.Join(dir, "acme-bpe"))
		if code != 1 || !strings.Contains(stderr, "not inside") {
			t.Errorf("add outside --dir: exit %d, stderr %q", code, stderr)
		}
	})
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestConformanceCommandPassesForTheTiktokenPlugin(t *testing.T) {
	stdout, stderr, code := runCLI(t, "conformance", "--tokenizer", "tiktoken:cl100k_base")
	if code != 0 || !strings.Contains(stdout, "10 laws, 0 failed") || !strings.Contains(stdout, "ok    pieces of retained texts count as the texts they make") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestChunkWithASentencePlugin(t *testing.T) {
	for _, spec := range []string{"plugin:sentence:punkt:en", "plugin:sentence:uax29"} {
		t.Run(spec+" splits the oversized paragraphs", func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "chunk", "../../testdata/sample.md", "--sentences", spec,
				"--max-tokens", "40", "--format", "jsonl")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			n := 0
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				var c struct {
					Kind       string `json:"kind"`
					TokenCount int    `json:"token_count"`
				}
				if err := jsonUnmarshal(line, &c); err != nil {
					t.Fatal(err)
				}
				if c.Kind == "body" && c.TokenCount > 40 {
					t.Errorf("a body chunk of %d tokens exceeds 40", c.TokenCount)
				}
				n++
			}
			if n < 30 {
				t.Errorf("only %d chunks at a 40-token budget", n)
			}
		})
	}
	_, stderr, code := runCLI(t, "chunk", "../../testdata/sample.md", "--sentences", "plugin:absent:x")
	if code != 1 || !strings.Contains(stderr, `no plugin named "absent"`) {
		t.Errorf("an unknown splitter plugin: exit %d, stderr %q", code, stderr)
	}
}
