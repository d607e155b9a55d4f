package chunkers

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// TestEachReferenceSkipsCodeSpans: a footnote reference is "[^label]" not followed by ":",
// outside code spans (a run of backticks to the next run as long); a run without its match
// opens nothing.
func TestEachReferenceSkipsCodeSpans(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"a [^1] b [^x-y]", []string{"2 1", "9 x-y"}},
		{"[^1]: a definition, [^2] a reference", []string{"20 2"}},
		{"`[^1]` [^2]", []string{"7 2"}},
		{"``a ` [^1]`` [^2]", []string{"13 2"}},
		{"` [^1] `` [^2] `", nil},                   // the single backticks match; the double ones are inside
		{"`` [^1] ` [^2]", []string{"3 1", "10 2"}}, // no run matches another: no span
		{"``` [^1] ``` [^2] ``` [^3]", []string{"13 2", "22 3"}},
		{"[^a b] [^] [^^] [^1", nil},
		{"[^[^1]]", []string{"2 1"}},
		{`\[^1] \\[^2]`, []string{"8 2"}},           // an escaped bracket opens nothing; an escaped backslash does not escape it
		{"\\`[^1]\\` [^2]", []string{"2 1", "9 2"}}, // escaped backticks open no span
		{"\\``[^1]` [^2]", []string{"9 2"}},         // the run opens a span one backtick shorter
	} {
		var got []string
		eachReference(tc.text, func(at int, label string) {
			got = append(got, fmt.Sprintf("%d %s", at, label))
			if !strings.HasPrefix(tc.text[at:], "[^"+label+"]") {
				t.Errorf("%q: offset %d of %q is not its reference", tc.text, at, label)
			}
		})
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: references (-want +got):\n%s", tc.text, diff)
		}
	}
}

// TestCodeSpansAreTheNaiveOnes holds codeSpans to the plain reading, on random texts of
// backtick runs and backslashes: from a run (one backtick shorter, from its second, when a
// backslash escapes it), look for the next run as long; when there is one, the span ends
// after it, else the run is text and the next run is looked at.
func TestCodeSpansAreTheNaiveOnes(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	naive := func(s string) [][2]int {
		var spans [][2]int
		runAt := func(i int) int { // the length of the run at i
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			return n
		}
	next:
		for i := 0; i < len(s); i++ {
			if s[i] != '`' {
				continue
			}
			n := runAt(i)
			open, m := i, n
			if escaped(s, i) {
				open, m = i+1, n-1
			}
			for j := i + n; m > 0 && j < len(s); j++ {
				if s[j] == '`' {
					k := runAt(j)
					if k == m {
						spans = append(spans, [2]int{open, j + k})
						i = j + k - 1
						continue next
					}
					j += k - 1
				}
			}
			i += n - 1
		}
		return spans
	}
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(strings.Repeat("\\", r.IntN(3)))
			sb.WriteString(strings.Repeat("`", 1+r.IntN(3)))
			sb.WriteString([]string{"x", " [^1] ", "ab", "\\"}[r.IntN(4)])
		}
		s := sb.String()
		if diff := cmp.Diff(naive(s), codeSpans(s)); diff != "" {
			t.Fatalf("%q: spans (-naive +codeSpans):\n%s", s, diff)
		}
	}
}

// TestEachReferenceIsTheNaiveOne holds eachReference, which reads a label only up to the first
// byte no label holds, to the plain reading: from each "[^", the text up to the next "]" is a
// label when IsFootnoteLabel says so (and not followed by ":", escaped or in a code span).
func TestEachReferenceIsTheNaiveOne(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 9))
	type ref struct {
		at    int
		label string
	}
	naive := func(s string) []ref {
		var refs []ref
		spans := codeSpans(s)
		for at := 0; at+1 < len(s); at++ {
			if s[at] != '[' || s[at+1] != '^' || escaped(s, at) || slices.ContainsFunc(spans, func(sp [2]int) bool { return sp[0] <= at && at < sp[1] }) {
				continue
			}
			rest := s[at+2:]
			k := strings.IndexByte(rest, ']')
			if k >= 0 && sdk.IsFootnoteLabel(rest[:k]) && !strings.HasPrefix(rest[k+1:], ":") {
				refs = append(refs, ref{at, rest[:k]})
			}
		}
		return refs
	}
	pieces := []string{"[", "^", "]", ":", " ", "\n", "\t", "a", "1", "é", "`", "\\", "[^", "[^a]", "[^1]:"}
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(16) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := sb.String()
		var got []ref
		eachReference(s, func(at int, label string) { got = append(got, ref{at, label}) })
		if want := naive(s); !slices.Equal(got, want) {
			t.Fatalf("eachReference(%q) = %v, want %v", s, got, want)
		}
	}
}
