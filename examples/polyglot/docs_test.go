package polyglot

import (
	"os"
	"strings"
	"testing"
)

func TestTheLanguageGuidesShowTheShippedSourcesVerbatim(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ guide, lang, source string }{
		{"../../docs/plugins-node.md", "js", "../node-gpt/main.mjs"},
		{"../../docs/plugins-node.md", "json", "../node-gpt/package.json"},
		{"../../docs/plugins-python.md", "python", "../py-sentencepiece/main.py"},
	} {
		src, err := os.ReadFile(tc.source)
		if err != nil {
			t.Fatal(err)
		}
		guide, err := os.ReadFile(tc.guide)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(guide), "```"+tc.lang+"\n"+string(src)+"```\n") {
			t.Errorf("%s does not show %s verbatim in a %s code block; copy it again", tc.guide, tc.source, tc.lang)
		}
	}
}
