package host

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

var specCases = []struct {
	name, in string
	want     Spec
	str      string // String(), when it differs from in
}{
	{"words is built in", "words", Spec{Builtin: "words"}, ""},
	{"runes is built in", "runes", Spec{Builtin: "runes"}, ""},
	{"rules is the built-in sentence splitter", "rules", Spec{Builtin: "rules"}, ""},
	{"surrounding space is ignored", "  words\n", Spec{Builtin: "words"}, "words"},
	{"tiktoken is sugar for the tiktoken plugin", "tiktoken:cl100k_base", Spec{Plugin: "tiktoken", Arg: "cl100k_base"}, ""},
	{"hf is sugar for the hftokenizer plugin", "hf:/models/tokenizer.json", Spec{Plugin: "hftokenizer", Arg: "/models/tokenizer.json"}, ""},
	{"an hf path may hold colons", "hf:C:/models/a:b.json", Spec{Plugin: "hftokenizer", Arg: "C:/models/a:b.json"}, ""},
	{"plugin without ARG asks for the default", "plugin:sentence", Spec{Plugin: "sentence"}, ""},
	{"plugin ARG keeps its colons", "plugin:sentence:punkt:en", Spec{Plugin: "sentence", Arg: "punkt:en"}, ""},
	{"plugin names of the sugar come back sugared", "plugin:tiktoken:o200k_base", Spec{Plugin: "tiktoken", Arg: "o200k_base"}, "tiktoken:o200k_base"},
	{"plugin names may hold dots, dashes and underscores", "plugin:acme-tok_2.1:m", Spec{Plugin: "acme-tok_2.1", Arg: "m"}, ""},
}

func TestParseSpec(t *testing.T) {
	t.Parallel()
	for _, tt := range specCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSpec(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSpec(%q) (-want +got):\n%s", tt.in, diff)
			}
			str := tt.str
			if str == "" {
				str = tt.in
			}
			if got.String() != str {
				t.Errorf("String() = %q, want %q", got.String(), str)
			}
		})
	}
}

func TestParseSpecRejects(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, in, problem string }{
		{"the empty spec", "", "empty"},
		{"an unknown bare word", "cl100k_base", "unknown; want"},
		{"an unknown scheme", "openai:cl100k_base", `unknown scheme "openai"`},
		{"tiktoken without an encoding", "tiktoken:", "missing encoding"},
		{"hf without a path", "hf:", "missing path"},
		{"plugin without a name", "plugin:", "plugin name"},
		{"plugin with a bad name", "plugin:a b:x", `plugin name "a b"`},
		{"plugin with an empty ARG", "plugin:tiktoken:", "empty ARG"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSpec(tt.in)
			wantErr(t, err, []error{sdk.ErrInvalidConfig}, tt.problem)
		})
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, tt := range specCases {
		f.Add(tt.in)
	}
	f.Add("plugin::")
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s)
		if err != nil {
			return
		}
		again, err := ParseSpec(sp.String())
		if err != nil {
			t.Fatalf("ParseSpec(%q) = %+v, whose String %q does not parse: %v", s, sp, sp.String(), err)
		}
		if again != sp {
			t.Fatalf("ParseSpec(%q) = %+v, but its String %q parses as %+v", s, sp, sp.String(), again)
		}
	})
}
