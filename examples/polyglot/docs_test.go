package polyglot

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "copy the shipped sources into the language guides' code blocks")

func TestTheLanguageGuidesShowTheShippedSourcesVerbatim(t *testing.T) {
	for _, tc := range []struct{ guide, lang, source string }{
		{"../../docs/plugins-node.md", "js", "../node-gpt/main.mjs"},
		{"../../docs/plugins-node.md", "json", "../node-gpt/package.json"},
		{"../../docs/plugins-python.md", "python", "../py-sentencepiece/main.py"},
	} {
		src, err := os.ReadFile(tc.source)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(tc.guide)
		if err != nil {
			t.Fatal(err)
		}
		guide, block := string(data), "```"+tc.lang+"\n"+string(src)+"```\n"
		if strings.Contains(guide, block) {
			continue
		}
		if !*update {
			t.Errorf("%s does not show %s verbatim in a %s code block; run go test ./examples/polyglot -run Guides -update", tc.guide, tc.source, tc.lang)
			continue
		}
		// The block to replace starts with the source's first line.
		first, _, _ := strings.Cut(string(src), "\n")
		start := strings.Index(guide, "```"+tc.lang+"\n"+first+"\n")
		end := strings.Index(guide[max(start, 0):], "\n```\n")
		if start < 0 || end < 0 {
			t.Fatalf("%s has no %s code block starting %q to update", tc.guide, tc.lang, first)
		}
		guide = guide[:start] + block + guide[start+end+len("\n```\n"):]
		if err := os.WriteFile(tc.guide, []byte(guide), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
