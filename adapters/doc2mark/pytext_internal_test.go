package doc2mark

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFootnoteDefinitionFollowsDoc2marksPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, label string
		ok              bool
	}{
		{"a label and text is a definition", "[^1]: text", "1", true},
		{"no space after the colon is fine", "[^a_b]:x", "a_b", true},
		{"a Unicode word label is a definition", "[^注1]: 注", "注1", true},
		{"text on a later line is enough", "[^n]:\n\n more", "n", true},
		{"a lone space after the colon is text", "[^n]: ", "n", true},
		{"only newlines after the colon are not", "[^n]:\n\n", "", false},
		{"nothing after the colon is not", "[^n]:", "", false},
		{"a hyphen ends the label", "[^a-b]: x", "", false},
		{"an empty label is not", "[^]: x", "", false},
		{"leading space is not", " [^1]: x", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			label, ok := footnoteDefinition(tc.in)
			if label != tc.label || ok != tc.ok {
				t.Errorf("footnoteDefinition(%q) = %q, %v; want %q, %v", tc.in, label, ok, tc.label, tc.ok)
			}
		})
	}
}

func TestFootnoteReferencesFollowDoc2marksPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"references are found left to right", "a [^1] b [^x2] c", []string{"1", "x2"}},
		{"a definition is not a reference", "[^1]: def and [^2]", []string{"2"}},
		{"a reference at the very end counts", "end [^9]", []string{"9"}},
		{"a label must close with a bracket", "[^a-b] [^c", nil},
		{"nested brackets find the inner reference", "[^[^1]]", []string{"1"}},
		{"repeats are all returned", "[^1][^1]", []string{"1", "1"}},
		{"Unicode word labels are references", "见[^注1]。", []string{"注1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, footnoteReferences(tc.in)); diff != "" {
				t.Errorf("footnoteReferences(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestPythonStringHelpers(t *testing.T) {
	t.Parallel()
	if got := pyStrip("\x1c\u3000 a b \u00a0\x1f\n"); got != "a b" {
		t.Errorf("pyStrip = %q, want %q", got, "a b")
	}
	if got := pyStrip("\u200bx\u200b"); got != "\u200bx\u200b" {
		t.Errorf("pyStrip stripped U+200B, which Python keeps: %q", got)
	}
	if got := pyPrefix("héllo wörld", 4); got != "héll" {
		t.Errorf("pyPrefix = %q, want %q", got, "héll")
	}
	if got := pyPrefix("ab", 20); got != "ab" {
		t.Errorf("pyPrefix of a short string = %q, want %q", got, "ab")
	}
	if start, longer := pyTailStart("aé🙂b", 2); start != 3 || !longer {
		t.Errorf("pyTailStart = %d, %v; want 3, true", start, longer)
	}
	if start, longer := pyTailStart("aé", 2); start != 0 || longer {
		t.Errorf("pyTailStart of a string of exactly n = %d, %v; want 0, false", start, longer)
	}
	if got := pyLen("aé🙂"); got != 3 {
		t.Errorf("pyLen = %d, want 3", got)
	}
}
