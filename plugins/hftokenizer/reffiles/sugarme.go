package reffiles

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// sugarmeModule is the module that carries the GPT-2 merges and the BERT vocabulary, and
// sugarmeVersion the version the fallback path and the pinned sums below belong to.
const (
	sugarmeModule  = "github.com/sugarme/tokenizer"
	sugarmeVersion = "v0.3.0"
)

// Files read from the sugarme module, relative to its folder, with their SHA-256.
const (
	gpt2MergesPath   = "pretrained/model/gpt2-merges.txt"
	gpt2MergesSHA256 = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"
	bertVocabPath    = "pretrained/model/bert-base-uncased-vocab.txt"
	bertVocabSHA256  = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
)

// SugarmeDir returns the folder of the module github.com/sugarme/tokenizer: what
// `go list -m -f {{.Dir}}` reports from the working directory, or else
// $(go env GOMODCACHE)/github.com/sugarme/tokenizer@v0.3.0 if that folder exists. It runs the
// go command but needs no network. The error says how to get the module when neither works.
func SugarmeDir() (string, error) {
	out, listErr := goCommand("list", "-m", "-f", "{{.Dir}}", sugarmeModule)
	if listErr == nil && out != "" {
		return out, nil
	}
	cache, err := goCommand("env", "GOMODCACHE")
	if err == nil && cache != "" {
		dir := filepath.Join(cache, sugarmeModule+"@"+sugarmeVersion)
		if st, statErr := os.Stat(dir); statErr == nil && st.IsDir() {
			return dir, nil
		}
	}
	if listErr == nil {
		listErr = fmt.Errorf("module not downloaded")
	}
	return "", fmt.Errorf("reffiles: cannot find module %s@%s (go list -m: %v); run `go mod download %s`",
		sugarmeModule, sugarmeVersion, listErr, sugarmeModule)
}

// goCommand runs the go tool with args and returns its trimmed standard output.
func goCommand(args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// readSugarme returns the content of the file rel in the sugarme module, after checking it
// against its pinned SHA-256 sum.
func readSugarme(rel, wantSHA256 string) ([]byte, error) {
	dir, err := SugarmeDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, filepath.FromSlash(rel))
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reffiles: %w", err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != wantSHA256 {
		return nil, fmt.Errorf("reffiles: %s has SHA-256 %s, want %s (the module %s@%s changed?)",
			path, got, wantSHA256, sugarmeModule, sugarmeVersion)
	}
	return b, nil
}

// lines splits a text file into its lines, without the final empty one.
func lines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
