package main

import (
	"os"
	"strings"
	"testing"
)

func TestTheGuideShowsThisPluginVerbatim(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	guide, err := os.ReadFile("../../docs/plugins.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), "```go\n"+string(src)+"```\n") {
		t.Errorf("docs/plugins.md does not show examples/plugin/main.go verbatim in a go code block; copy it again:\n%s", src)
	}
}
