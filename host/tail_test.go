package host

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTailKeepsTheLastLines(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		writes []string
		want   []string
	}{
		{"nothing written gives no lines", nil, nil},
		{"lines split across writes are joined", []string{"hel", "lo\nwor", "ld\n"}, []string{"hello", "world"}},
		{"an unterminated last line is kept", []string{"a\nb"}, []string{"a", "b"}},
		{"empty lines and carriage returns are dropped", []string{"a\r\n\n\nb\n"}, []string{"a", "b"}},
		{"only the last three lines are kept", []string{"1\n2\n3\n4\n5\n"}, []string{"3", "4", "5"}},
		{"a panic that scrolled out comes first", []string{"log\npanic: boom\n\ngoroutine 1:\nmain.f()\nmain.go:3\n"},
			[]string{"panic: boom", "...", "goroutine 1:", "main.f()", "main.go:3"}},
		{"a panic still in view is not repeated", []string{"fatal error: oom\nstack\n"}, []string{"fatal error: oom", "stack"}},
		{"a long line is cut", []string{strings.Repeat("x", 2*maxTailLine) + "\n"}, []string{strings.Repeat("x", maxTailLine)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tl := newTail(3)
			for _, w := range tt.writes {
				if n, err := tl.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if diff := cmp.Diff(tt.want, tl.lines()); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStderrNoteQuotesEachLine(t *testing.T) {
	t.Parallel()
	got := stderrNote([]string{"a", `say "hi"`})
	want := fmt.Sprintf("; its last stderr lines: %q, %q", "a", `say "hi"`)
	if got != want || stderrNote(nil) != "" {
		t.Errorf("stderrNote = %q, want %q (and \"\" for no lines)", got, want)
	}
}

func TestTailNotesAPanicInOneLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, stderr, want string
	}{
		{"a panic gives its message and first frame", "log line\npanic: boom\n\ngoroutine 7 [running]:\nmain.count(0xc000010000)\n\t/src/main.go:42 +0x1d\ncreated by main.serve\n",
			"; it panicked: panic: boom (in main.count at /src/main.go:42)"},
		{"a runtime error with elided arguments", "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.(*t).f(...)\n\t/src/t.go:9\n",
			"; it panicked: panic: runtime error: index out of range [3] with length 3 (in main.(*t).f at /src/t.go:9)"},
		{"a panic without a trace gives its message", "fatal error: out of memory\n", "; it panicked: fatal error: out of memory"},
		{"no panic gives the last four lines", "1\n2\n3\n4\n5\n", `; its last stderr lines: "2", "3", "4", "5"`},
		{"nothing written gives nothing", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tl := newTail(8)
			tl.Write([]byte(tt.stderr))
			if got := tl.note(); got != tt.want {
				t.Errorf("note() = %q, want %q", got, tt.want)
			}
		})
	}
}
