package markdown

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/sdk"
)

// checkUTF8 returns an *sdk.InputError naming the first invalid byte of src by offset, line
// and column. Columns count bytes from 1, as go/scanner does, because an editor's column for a
// broken sequence is not well defined.
func checkUTF8(src []byte, docID string) error {
	if utf8.Valid(src) {
		return nil
	}
	off := sdk.InvalidUTF8At(string(src))
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return &sdk.InputError{
		Document: docID,
		Block:    -1,
		Offset:   off,
		Problem:  fmt.Sprintf("invalid UTF-8 (0x%02x) at line %d, column %d", src[off], line, col),
	}
}

// normalize drops a leading byte order mark and turns CRLF and lone CR line endings into LF,
// so that every block text uses "\n". Line numbers are unchanged by it: each ending stays one
// ending. The result shares src's memory when there is nothing to change. dropped lists, for
// every byte of src that the result leaves out, the offset in the result of the byte that
// followed it (see origin).
func normalize(src []byte) (out []byte, dropped []int) {
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		src = src[len("\uFEFF"):]
		dropped = []int{0, 0, 0}
	}
	if bytes.IndexByte(src, '\r') < 0 {
		return src, dropped
	}
	out = make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\r' {
			if i+1 < len(src) && src[i+1] == '\n' {
				dropped = append(dropped, len(out))
				continue
			}
			c = '\n'
		}
		out = append(out, c)
	}
	return out, dropped
}

// origin returns the offset in the input of byte off of the normalized text, given the
// dropped list of normalize.
func origin(dropped []int, off int) int {
	return off + sort.SearchInts(dropped, off+1)
}

// lineIndex maps byte offsets of a text to 0-based line numbers.
type lineIndex struct {
	text   string
	starts []int // starts[i] is the offset of line i; len(starts) ≥ 1
}

func newLineIndex(text string) lineIndex {
	starts := make([]int, 1, strings.Count(text, "\n")+1)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return lineIndex{text: text, starts: starts}
}

// count is the number of lines; a trailing newline does not open a further line.
func (x lineIndex) count() int {
	n := len(x.starts)
	if n > 1 && x.starts[n-1] == len(x.text) {
		n--
	}
	return n
}

// lineOf returns the line holding byte offset off.
func (x lineIndex) lineOf(off int) int {
	return sort.SearchInts(x.starts, off+1) - 1
}

// span returns lines [from, to) as text, the last line's newline included; it is empty when
// from ≥ to.
func (x lineIndex) span(from, to int) string {
	if from >= to || from >= len(x.starts) {
		return ""
	}
	end := len(x.text)
	if to < len(x.starts) {
		end = x.starts[to]
	}
	return x.text[x.starts[from]:end]
}

// frontMatter splits a leading YAML front matter block ("---" line, content, then a "---" or
// "..." line) from src. It returns the content between the delimiter lines, the number of lines
// the block occupies and the rest of src. The line after the opening "---" must not be blank,
// so that a document opening with a thematic break followed by a blank line is not mistaken for
// front matter. ok is false when src has no such block; a leading "---" is then left to the
// Markdown parser.
func frontMatter(src string) (content string, lines int, rest string, ok bool) {
	first, after, found := strings.Cut(src, "\n")
	if !found || strings.TrimRight(first, " \t") != "---" {
		return "", 0, src, false
	}
	if second, _, _ := strings.Cut(after, "\n"); strings.TrimSpace(second) == "" {
		return "", 0, src, false
	}
	pos := len(first) + 1
	lines = 1
	for pos <= len(src) && after != "" {
		line, next, hasNL := strings.Cut(after, "\n")
		lines++
		if t := strings.TrimRight(line, " \t"); t == "---" || t == "..." {
			end := pos + len(line)
			if hasNL {
				end++
			}
			return src[len(first)+1 : pos], lines, src[end:], true
		}
		pos += len(line) + 1
		after = next
	}
	return "", 0, src, false
}

// dedent removes from every line of s the indentation of its first line, or as much of it as
// the line has, and trims trailing white space. Dedenting by the first line is what CommonMark
// does with a block's continuation lines, so nested structure keeps its relative indentation.
// starts holds, for every line of the result, the offset in s where what is left of it starts.
func dedent(s string) (out string, starts []int) {
	s = strings.TrimRight(s, " \t\n")
	k := leadingBlank(s)
	if !strings.Contains(s, "\n") {
		return s[k:], []int{k}
	}
	// The text is copied only from the first line that loses indentation: a block none of
	// whose lines do (all prose at the margin, as most are) is s itself.
	var sb strings.Builder
	copied := false
	starts = make([]int, 0, strings.Count(s, "\n")+1)
	for off := 0; off < len(s); {
		end := len(s)
		if nl := strings.IndexByte(s[off:], '\n'); nl >= 0 {
			end = off + nl + 1
		}
		line := s[off:end]
		cut := k
		if off > 0 {
			cut = min(k, leadingBlank(line))
		}
		starts = append(starts, off+cut)
		if cut > 0 && !copied {
			sb.Grow(len(s))
			sb.WriteString(s[:off])
			copied = true
		}
		if copied {
			sb.WriteString(line[cut:])
		}
		off = end
	}
	if !copied {
		return s, starts
	}
	return sb.String(), starts
}

// leadingBlank counts the spaces and tabs that open s.
func leadingBlank(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}
