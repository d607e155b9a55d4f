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
	n, ok := FootnoteLabelAt(rest)
	if !ok || !strings.HasPrefix(rest[n+1:], ":") {
		return ""
	}
	return rest[:n]
}

// IsFootnoteLabel reports whether label can be a footnote label, the x of "[^x]": not empty,
// without white space or brackets.
func IsFootnoteLabel(label string) bool {
	return label != "" && !strings.ContainsAny(label, notInLabel)
}

// notInLabel holds the bytes a footnote label cannot hold.
const notInLabel = " \t\r\n[]^"

// FootnoteLabelAt reads the label of a "[^label]" whose "[^" comes just before s: when s
// starts with a label (IsFootnoteLabel) and "]", it returns the label's length and true;
// otherwise the length of what s starts with up to the first byte no label holds (no "[^"
// starts before it: a scan goes on from there) and false. It looks at those bytes only, so a
// scan that calls it at each "[^" of a text takes time linear in the text, where looking for
// the next "]" from each would be quadratic ("[^ " a million times, then "]").
func FootnoteLabelAt(s string) (n int, ok bool) {
	n = strings.IndexAny(s, notInLabel)
	if n < 0 {
		return len(s), false
	}
	return n, n > 0 && s[n] == ']'
}

// FootnoteScan is what a scan of a document's input found of its footnotes, before any block
// was made of it (ScanFootnotes): every label a footnote block of the document may have, and
// every label a reference "[^label]" in its blocks may have, each set perhaps with more. A
// chunker that reads the document in parts, as chunkers.Sections does, need then not hold the
// chunks after a reference that no footnote will answer ("[^a-z]" in prose), or after a
// footnote that nothing will reference, until the document ends. A nil set is not known.
type FootnoteScan struct {
	Defined    map[string]bool
	Referenced map[string]bool
}

// maxScannedLabels is the most labels ScanFootnotes records in a set: an input with more
// leaves the set unknown rather than hold millions of them.
const maxScannedLabels = 1 << 16

// ScanFootnotes returns what text says of the footnotes of the blocks an adapter makes of
// it, when their texts are cut from it (as the Markdown adapter's are, with markers and
// prefixes dropped): every "[^label]" followed by ":" may be a definition, every other one a
// reference, wherever it is (in code, escaped, in a link).
func ScanFootnotes(text string) *FootnoteScan {
	s := &FootnoteScan{Defined: map[string]bool{}, Referenced: map[string]bool{}}
	for i := 0; ; {
		j := strings.Index(text[i:], "[^")
		if j < 0 {
			return s
		}
		i += j + len("[^")
		k, ok := FootnoteLabelAt(text[i:])
		if !ok {
			i += k
			continue
		}
		label := text[i : i+k]
		set := &s.Referenced
		if strings.HasPrefix(text[i+k+1:], ":") {
			set = &s.Defined
		}
		if *set != nil && !(*set)[label] {
			if len(*set) == maxScannedLabels {
				*set = nil
			} else {
				(*set)[strings.Clone(label)] = true
			}
		}
		i += k
	}
}
