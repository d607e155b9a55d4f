package doc2mark

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the few Python str semantics that doc2mark's chunk_content relies on, so
// that lengths, slices, strip and the footnote patterns agree with CPython code point for code
// point.

// pyLen is Python's len of a str: the number of code points. A byte that is not part of valid
// UTF-8 counts as one, as utf8.RuneCountInString counts it.
func pyLen(s string) int { return utf8.RuneCountInString(s) }

// pyPrefix is s[:n] in code points.
func pyPrefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// pyTailStart returns the byte offset where the last n code points of s start, and whether s
// has more than n code points (when it has not, the offset is 0 and s[-n:] is all of s).
func pyTailStart(s string, n int) (start int, longer bool) {
	end := len(s)
	for ; n > 0 && end > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:end])
		end -= size
	}
	return end, end > 0
}

// pyIsSpace is Python's str.isspace for one code point: Unicode White_Space (Go's
// unicode.IsSpace) plus the information separators U+001C–U+001F, which Python counts as
// white space because their bidirectional class is B or S.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyStrip is Python's str.strip() with no argument.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pyIsWord is what \w matches in a Python 3 str pattern: str.isalnum() (letters and
// characters with a numeric value, which Unicode puts in the L and N categories) or "_".
func pyIsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// wordEnd returns the end of the run of \w code points that starts at s[i:].
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !pyIsWord(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		i += size
	}
	return i
}

// footnoteDefinition matches doc2mark's `re.match(r'^\[\^(\w+)\]:\s*(.+)', content)` and
// returns group 1. After the "]:", `\s*(.+)` needs one code point that is not "\n" once the
// white space before it is skipped; since "\n" is itself white space, that holds exactly when
// the rest holds any code point other than "\n".
func footnoteDefinition(s string) (label string, ok bool) {
	if !strings.HasPrefix(s, "[^") {
		return "", false
	}
	end := wordEnd(s, 2)
	if end == 2 || !strings.HasPrefix(s[end:], "]:") {
		return "", false
	}
	if strings.Trim(s[end+2:], "\n") == "" {
		return "", false
	}
	return s[2:end], true
}

// footnoteReferences returns the labels of `re.findall(r'\[\^(\w+)\](?!:)', s)`: every
// "[^label]" not followed by ":", left to right, without overlaps. Go's regexp has no
// look-ahead, so the scan is by hand; backtracking cannot help a failed match, because a
// shorter \w+ would leave a word character where "]" must be.
func footnoteReferences(s string) []string {
	var refs []string
	for i := 0; ; {
		j := strings.Index(s[i:], "[^")
		if j < 0 {
			return refs
		}
		j += i
		end := wordEnd(s, j+2)
		if end > j+2 && end < len(s) && s[end] == ']' && !strings.HasPrefix(s[end+1:], ":") {
			refs = append(refs, s[j+2:end])
			i = end + 1
			continue
		}
		i = j + 1
	}
}
