package conformance

import "strings"

// sample is one text of a built-in corpus, named so a failure says which text broke a law.
type sample struct {
	name string
	text string
}

// counterCorpus returns the texts every TokenCounter law runs over. It is built on each call
// so no caller can change what another sees.
func counterCorpus() []sample {
	return []sample{
		{"ASCII prose", "The quick brown fox jumps over the lazy dog. It was not amused, and said so twice!"},
		{"Go code", "func main() {\n\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(i*i, \"squared\") // print\n\t}\n}\n"},
		{"white space runs", "a \t\t b   c\n\n\n   d \u00a0\u3000 e\t"},
		{"fifty spaces", strings.Repeat(" ", 50)},
		{"a single space", " "},
		{"a single letter", "a"},
		{"a single two-byte rune", "é"},
		{"Chinese", "自然语言处理是人工智能的一个分支。它研究如何让计算机理解人类语言。"},
		{"Japanese", "日本語の文章を正しく分割できるか確認します。句点で終わる文が続きます。カタカナもテストする。"},
		{"emoji with ZWJ sequences and skin tones", "family 👩\u200d👩\u200d👧\u200d👦, thumbs 👍🏽👍🏿, flag 🏳\ufe0f\u200d🌈, heart ❤\ufe0f"},
		{"combining marks", "e\u0301le\u0300ve, nai\u0308ve, Z\u0351\u0352\u0357a\u0310\u0346l\u0350g\u0344o\u0351, \u0915\u094d\u0937\u093f"},
		{"Arabic", "مرحبا بالعالم، هذا نص عربي يكتب من اليمين إلى اليسار."},
		{"Hebrew", "שלום עולם, זהו טקסט בעברית שנכתב מימין לשמאל."},
		{"mixed right-to-left and left-to-right", "The word سلام means peace; שלום too (123)."},
		{"the end-of-text special token as text", "<|endoftext|>"},
		{"the fill-in-the-middle prefix token as text", "<|fim_prefix|>"},
		{"special-token text inside prose", "Before <|endoftext|> after <|fim_prefix|>def f():<|fim_suffix|> return 1<|fim_middle|>"},
		{"mixed newlines", "one\r\ntwo\rthree\nfour\r\n\r\nfive\n\r\n"},
		{"a 100 kB run of one letter", strings.Repeat("a", 100_000)},
	}
}

// splitterCorpus returns the texts every SentenceSplitter law runs over.
func splitterCorpus() []sample {
	var long strings.Builder
	for i := range 2_000 {
		long.WriteString("This is sentence number ")
		long.WriteString(strings.Repeat("x", i%7+1))
		long.WriteString(" in a long text. ")
	}
	return []sample{
		{"three ASCII sentences", "The first sentence is short. The second asks a question? The third exclaims!"},
		{"abbreviations and numbers", "Dr. Smith paid $3.50 at 10 a.m. on Jan. 5. He left at noon."},
		{"a text without final punctuation", "no punctuation at all here"},
		{"trailing white space", "One sentence.   Another one.  \n\n"},
		{"leading white space", "\n\n  Starts after blank lines. Ends here."},
		{"lines without punctuation", "first line\nsecond line\n\nthird paragraph"},
		{"fifty spaces", strings.Repeat(" ", 50)},
		{"a single letter", "a"},
		{"Chinese", "自然语言处理是人工智能的一个分支。它研究如何让计算机理解人类语言！真的吗？"},
		{"Japanese", "日本語の文章です。句点で終わる文が続きます。最後の文"},
		{"emoji", "I love it 😍! Family: 👩\u200d👩\u200d👧\u200d👦. Thumbs 👍🏽."},
		{"Arabic", "مرحبا بالعالم. كيف حالك؟ أنا بخير."},
		{"Hebrew", "שלום עולם. מה שלומך? אני בסדר."},
		{"combining marks", "E\u0301le\u0300ve na\u0131\u0308ve. Cafe\u0301 ferme\u0301."},
		{"special-token text", "Ends with <|endoftext|>. Then <|fim_prefix|> more text."},
		{"Go code", "if err != nil {\n\treturn fmt.Errorf(\"x: %w\", err)\n}\n"},
		{"mixed newlines", "One.\r\nTwo.\rThree.\nFour."},
		{"a long text of many sentences", long.String()},
	}
}

func texts(samples []sample) []string {
	out := make([]string, len(samples))
	for i, s := range samples {
		out[i] = s.text
	}
	return out
}
