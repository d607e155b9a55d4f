// Package pretok splits text into the pieces a BPE tokenizer's pre-tokenizer regex cuts it
// into, with hand-written scanners instead of a regex engine. Each scanner finds exactly the
// match a backtracking engine finds at each position: leftmost alternative first, greedy
// quantifiers. It does so in time linear in the input,
// about 7 times faster than regexp2's interpreter (BenchmarkSplit), the only Go engine that
// runs these patterns: Go's regexp has no look-ahead for `\s+(?!\S)`.
//
// The patterns are OpenAI's (R50kPattern, Cl100kPattern, O200kPattern, also used verbatim
// by HuggingFace tokenizer.json files: GPT-2's ByteLevel pre-tokenizer, Llama 3, GPT-4o) and
// Qwen2/Qwen3's (QwenPattern). ForPattern finds the scanner for a pattern's source text;
// plugins/tiktoken and plugins/hftokenizer both split with them.
//
// Every pattern here matches at every position of any text, so the pieces cover the text
// with no gaps: a caller splits by calling a Func from 0 until it reaches the end.
//
//	split := pretok.ForPattern(pretok.Cl100kPattern)
//	for at := 0; at < len(text); {
//		end := split(text, at)
//		piece := text[at:end]
//		at = end
//	}
//
// The tests hold every scanner to regexp2's interpreter running its pattern, on golden inputs
// and under fuzzing; plugins/tiktoken's golden tests hold three of them to OpenAI's tiktoken.
package pretok
