package sdk

import "strings"

// FootnoteDefinition returns the label of the footnote definition that text starts with,
// "[^label]:" after any white space ("1" for "[^1]: A note."), or "" when it starts with none.
// The Markdown adapter makes such a paragraph a KindFootnote block, and chunkers.Sections
// reads the label of a footnote block without one in its attributes from its text.
func FootnoteDefinition(text string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "[^")
	if !ok {
		return ""
	}
	label, after, ok := strings.Cut(rest, "]")
	if !ok || !strings.HasPrefix(after, ":") || !IsFootnoteLabel(label) {
		return ""
	}
	return label
}

// IsFootnoteLabel reports whether label can be a footnote label, the x of "[^x]": not empty,
// without white space or brackets.
func IsFootnoteLabel(label string) bool {
	return label != "" && !strings.ContainsAny(label, " \t\r\n[]^")
}
