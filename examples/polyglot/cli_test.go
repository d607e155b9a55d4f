package polyglot

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Tests that run the chunkkit command line installed beside the plugins, as a user of `make
// build` and `make examples` does: it finds both manifests next to its own binary.

// chunkkit runs the installed chunkkit with args and returns its output and exit code.
func chunkkit(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	need(t)
	cmd := exec.Command(filepath.Join(dir, "chunkkit"), args...)
	cmd.Env = withoutPluginDir(os.Environ())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// withoutPluginDir drops $CHUNKKIT_PLUGIN_DIR, so the command looks beside its binary.
func withoutPluginDir(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "CHUNKKIT_PLUGIN_DIR=") {
			out = append(out, kv)
		}
	}
	return out
}

func TestTheCLIRunsTheConformanceKitOverEachPlugin(t *testing.T) {
	for _, spec := range []string{"plugin:node-gpt:cl100k_base", "plugin:py-sentencepiece:docs-unigram", "plugin:py-sentencepiece:docs-bpe"} {
		t.Run(spec, func(t *testing.T) {
			stdout, stderr, code := chunkkit(t, "conformance", "--tokenizer", spec)
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, "conformance of "+spec) || !strings.Contains(stdout, " 0 failed") || strings.Contains(stdout, "FAIL") {
				t.Errorf("stdout:\n%s", stdout)
			}
		})
	}
}

func TestTheCLIVerifiesThePluginsChecksums(t *testing.T) {
	stdout, stderr, code := chunkkit(t, "plugins", "verify")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, name := range []string{nodePlugin, pyPlugin} {
		if !strings.Contains(stdout, "ok    "+name+"  ") {
			t.Errorf("plugins verify does not vouch for %s:\n%s", name, stdout)
		}
	}
}

func TestTheCLIChunksThroughNodeGPTAsThroughTheGoTiktokenPlugin(t *testing.T) {
	args := []string{"chunk", "../../testdata/sample.md", "--format", "jsonl", "--max-tokens", "64", "--overlap-tokens", "8"}
	node, stderr, code := chunkkit(t, append(args, "--tokenizer", "plugin:node-gpt")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	goPlugin, stderr, code := chunkkit(t, append(args, "--tokenizer", "tiktoken:cl100k_base")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(node, "\n"); n < 5 {
		t.Fatalf("%d chunks of the sample, want more:\n%s", n, node)
	}
	// The chunks are the same; only the tokenizer's name differs.
	if got, want := stripTokenizer(t, node), stripTokenizer(t, goPlugin); got != want {
		t.Errorf("chunks through plugin:node-gpt differ from chunks through tiktoken:cl100k_base:\n%s\nvs\n%s", got, want)
	}
}

func TestTheCLIChunksThroughPySentencePiece(t *testing.T) {
	stdout, stderr, code := chunkkit(t, "chunk", "../../testdata/sample.md", "--tokenizer", "plugin:py-sentencepiece",
		"--format", "jsonl", "--max-tokens", "64", "--overlap-tokens", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) < 5 {
		t.Fatalf("%d chunks of the sample, want more:\n%s", len(lines), stdout)
	}
	for i, line := range lines {
		var c struct {
			Kind       string `json:"kind"`
			TokenCount int    `json:"token_count"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("chunk %d: %v: %s", i, err, line)
		}
		if c.TokenCount <= 0 || c.Kind == "body" && c.TokenCount > 64 {
			t.Errorf("chunk %d (%s) has %d tokens, want 1 to 64", i, c.Kind, c.TokenCount)
		}
	}
}

// stripTokenizer removes the fields that name the tokenizer from JSONL chunks.
func stripTokenizer(t *testing.T, jsonl string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var c map[string]any
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if md, ok := c["metadata"].(map[string]any); ok {
			delete(md, "tokenizer")
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(out, '\n'))
	}
	return b.String()
}
