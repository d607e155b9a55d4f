package pipeline

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// jsonLiterals are string literals with every kind of escape json has, pairs and lone halves
// of surrogates, runes of every length, and bytes that are not UTF-8.
var jsonLiterals = []string{
	`""`, `"plain"`, `"# A\n\nbody"`, `"\"\\\/\b\f\n\r\t"`, `"\u0000\u001f\u007F\u0080\u07ff\u0800\uFFFF"`,
	`"\ud83d\ude00 a pair"`, `"\uD83D\uDE00\uD83D\uDE00"`, `"lone \ud800 high"`, `"lone \udc00 low"`,
	`"\ud800\u0041 high then A"`, `"\ud800\ud800\udc00 high, then a pair"`, `"\ud800"`, `"\udbff\udfff"`,
	`"héllo wörld — 日本語 😀"`, `"é\n日\t😀\\"`, "\"bad \xff byte\"", "\"\xc3\x28 and \\n\"", "\"\xed\xa0\x80 surrogate in UTF-8\"",
	`"\\\\\\\\"`, `"x\\"`, `"\\x"`, `"\u00e9\u00E9é"`,
}

func TestUnquoteInPlaceDecodesAsJSONDoes(t *testing.T) {
	t.Parallel()
	for _, lit := range jsonLiterals {
		checkUnquote(t, []byte(lit))
	}
}

// FuzzUnquoteInPlace holds unquoteInPlace to json.Unmarshal on every literal json accepts.
func FuzzUnquoteInPlace(f *testing.F) {
	for _, lit := range jsonLiterals {
		f.Add([]byte(lit))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		// What json.Unmarshal hands jsonText: a literal, without the white space around it.
		if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' || !json.Valid(lit) {
			return
		}
		checkUnquote(t, lit)
	})
}

func checkUnquote(t *testing.T, lit []byte) {
	t.Helper()
	var want string
	if err := json.Unmarshal(lit, &want); err != nil {
		t.Fatalf("json.Unmarshal(%q): %v", lit, err)
	}
	buf := append([]byte(nil), lit...)
	got, ok := unquoteInPlace(buf)
	if !ok {
		if string(buf) != string(lit) {
			t.Errorf("unquoteInPlace(%q) gave up but wrote %q", lit, buf)
		}
		if !strings.ContainsRune(want, '\uFFFD') {
			t.Errorf("unquoteInPlace(%q) gave up on a literal of UTF-8", lit)
		}
	} else if string(got) != want {
		t.Errorf("unquoteInPlace(%q) = %q, want %q", lit, got, want)
	}
	text := jsonText{raw: append([]byte(nil), lit...)}
	if got := text.decode(); string(got) != want {
		t.Errorf("decode(%q) = %q, want %q", lit, got, want)
	}
}

func TestReadJSONLDecodesTheTextWhereItLies(t *testing.T) {
	t.Parallel()
	for _, lit := range jsonLiterals {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatal(err)
		}
		line := `{"text": ` + lit + `, "id": "x", "title": "\u00e9"}`
		for in, err := range ReadJSONL(strings.NewReader(line), "stdin") {
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if string(in.Data) != want || in.Data == nil || cap(in.Data) != len(in.Data) || in.Title != "é" || in.ID != "x" {
				t.Errorf("%s: Data %q (nil %v), Title %q, ID %q; want %q", line, in.Data, in.Data == nil, in.Title, in.ID, want)
			}
		}
	}
	// A field after the text is read before the text is decoded over the line.
	for in, err := range ReadJSONL(strings.NewReader(`{"id": "x", "text": "a\nb", "colour": 1}`), "stdin") {
		if err == nil || !strings.Contains(err.Error(), `unknown field "colour"`) {
			t.Errorf("got %q, %v; want the unknown field", in.Data, err)
		}
	}
	for _, v := range []string{`5`, `{}`, `["a"]`, `true`} {
		for _, err := range ReadJSONL(strings.NewReader(`{"id": "x", "text": `+v+`}`), "stdin") {
			if err == nil || !strings.Contains(err.Error(), "cannot unmarshal") {
				t.Errorf(`"text": %s: %v, want json's type error`, v, err)
			}
		}
	}
}

// TestReadJSONLAllocatesALongLineTwice: reading a line costs it twice (bufio's pieces and the
// line), and decoding its text nothing more. Decoded into a string of its own, the text was a
// third copy: 3.0× the line.
func TestReadJSONLAllocatesALongLineTwice(t *testing.T) {
	text := strings.Repeat(`word \"quoted\" and\n`, 200_000) // 4.4 MB, escapes throughout
	line := fmt.Sprintf(`{"id": "long", "text": "%s"}`, text)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 0
	for in, err := range ReadJSONL(strings.NewReader(line), "stdin") {
		if err != nil {
			t.Fatal(err)
		}
		n = len(in.Data)
	}
	runtime.ReadMemStats(&after)
	if want := strings.Count(text, `\`); n != len(text)-want {
		t.Fatalf("decoded %d bytes, want %d", n, len(text)-want)
	}
	got, limit := float64(after.TotalAlloc-before.TotalAlloc)/float64(len(line)), 2.3
	t.Logf("ReadJSONL allocated %.2f× the line", got)
	if got > limit {
		t.Errorf("ReadJSONL allocated %.2f× the line, want at most %.1f×", got, limit)
	}
}
