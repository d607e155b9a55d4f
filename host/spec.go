package host

import (
	"fmt"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// The in-process counters and splitters a spec can name; they start no process.
const (
	// BuiltinWords names sdk.Words, a TokenCounter.
	BuiltinWords = "words"
	// BuiltinRunes names sdk.Runes, a TokenCounter.
	BuiltinRunes = "runes"
	// BuiltinRules names sentence.Default() from sdk/sentence, a SentenceSplitter.
	BuiltinRules = "rules"
)

// Plugin names that spec shorthands stand for.
const (
	// TiktokenPlugin is the plugin "tiktoken:ENCODING" names.
	TiktokenPlugin = "tiktoken"
	// HFPlugin is the plugin "hf:PATH" names.
	HFPlugin = "hftokenizer"
)

// Spec names a token counter or sentence splitter: either a built-in one (Builtin set) or a
// plugin and the argument it is given (Plugin set, Arg possibly empty).
//
// The syntax, as ParseSpec reads it:
//
//	words | runes | rules      built-in, in-process
//	plugin:NAME                plugin NAME's default model
//	plugin:NAME:ARG            plugin NAME, model ARG; ARG is everything after the second
//	                           colon and may itself hold colons ("plugin:sentence:punkt:en")
//	tiktoken:ENCODING          shorthand for plugin:tiktoken:ENCODING
//	hf:PATH                    shorthand for plugin:hftokenizer:PATH
//
// ARG is passed to the plugin as the model of every request; a plugin that lists models in
// Info must list it. Relative paths in ARG are relative to the host's working directory, which
// plugins inherit.
type Spec struct {
	// Builtin is BuiltinWords, BuiltinRunes or BuiltinRules; empty for a plugin.
	Builtin string
	// Plugin is the plugin's name in the manifest; empty for a built-in.
	Plugin string
	// Arg is the model the plugin is asked for; empty for its default.
	Arg string
}

// ParseSpec parses a spec (see Spec for the syntax). Surrounding white space is ignored. An
// empty or malformed spec, an unknown scheme, an invalid plugin name or an empty ARG after a
// colon is an error matching sdk.ErrInvalidConfig that quotes the spec.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	scheme, rest, hasColon := strings.Cut(s, ":")
	if !hasColon {
		switch s {
		case BuiltinWords, BuiltinRunes, BuiltinRules:
			return Spec{Builtin: s}, nil
		case "":
			return Spec{}, specError(s, "empty")
		}
		return Spec{}, specError(s, "unknown; want words, runes, rules, tiktoken:ENCODING, hf:PATH or plugin:NAME[:ARG]")
	}
	switch scheme {
	case "plugin":
		name, arg, hasArg := strings.Cut(rest, ":")
		if !validName(name) {
			return Spec{}, specError(s, fmt.Sprintf("plugin name %q: want a letter or digit followed by letters, digits, '.', '_' or '-'", name))
		}
		if hasArg && arg == "" {
			return Spec{}, specError(s, "empty ARG after the colon; write plugin:"+name+" for the plugin's default")
		}
		return Spec{Plugin: name, Arg: arg}, nil
	case "tiktoken":
		if rest == "" {
			return Spec{}, specError(s, "missing encoding, as in tiktoken:cl100k_base")
		}
		return Spec{Plugin: TiktokenPlugin, Arg: rest}, nil
	case "hf":
		if rest == "" {
			return Spec{}, specError(s, "missing path, as in hf:/models/tokenizer.json")
		}
		return Spec{Plugin: HFPlugin, Arg: rest}, nil
	}
	return Spec{}, specError(s, fmt.Sprintf("unknown scheme %q; want tiktoken:, hf: or plugin:", scheme))
}

func specError(spec, problem string) error {
	return fmt.Errorf("host: spec %q: %s: %w", spec, problem, sdk.ErrInvalidConfig)
}

// String returns the spec in its shortest form, which ParseSpec reads back as s: the built-in's
// name, "tiktoken:ARG", "hf:ARG", "plugin:NAME" or "plugin:NAME:ARG".
func (s Spec) String() string {
	switch {
	case s.Builtin != "":
		return s.Builtin
	case s.Arg == "":
		return "plugin:" + s.Plugin
	case s.Plugin == TiktokenPlugin:
		return "tiktoken:" + s.Arg
	case s.Plugin == HFPlugin:
		return "hf:" + s.Arg
	}
	return "plugin:" + s.Plugin + ":" + s.Arg
}
