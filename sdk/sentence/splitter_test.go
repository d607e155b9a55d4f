package sentence_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/sentence"
)

// splitCase is one input and the sentences the built-in rules must find in it.
type splitCase struct {
	name string
	text string
	want []string
}

// splitCases is shared by TestEnds, TestSplit and the seeds of FuzzSplit.
var splitCases = []splitCase{
	// Basics: tiling, empty and blank texts.
	{"an empty text has no sentences", "", nil},
	{"a text of white space only has no sentences", " \n\t\n\u00a0 ", nil},
	{"a text without a terminator is one sentence", "Hello world", []string{"Hello world"}},
	{"a terminator at the very end ends the only sentence", "End.", []string{"End."}},
	{"two sentences split after the space that follows the period",
		"Hello there. How are you?", []string{"Hello there. ", "How are you?"}},
	{"leading white space belongs to the first sentence",
		"  Hi. Bye.", []string{"  Hi. ", "Bye."}},
	{"trailing white space belongs to the last sentence",
		"Hi. Bye.  \n", []string{"Hi. ", "Bye.  \n"}},
	{"a question mark ends a sentence",
		"Is it done? Yes it is.", []string{"Is it done? ", "Yes it is."}},
	{"multiple terminators count as one",
		"Really?! Yes!! Good.", []string{"Really?! ", "Yes!! ", "Good."}},
	{"a sentence may start with a digit",
		"It ended. 2024 was hard.", []string{"It ended. ", "2024 was hard."}},
	{"a sentence may end with a number",
		"The answer is 42. The question is lost.", []string{"The answer is 42. ", "The question is lost."}},
	{"a lowercase word after a period continues the sentence",
		"The sign said stop. then we went.", []string{"The sign said stop. then we went."}},

	// Abbreviations.
	{"titles before names do not end a sentence",
		"Mr. Smith met Mrs. Jones and Dr. Brown. They talked.",
		[]string{"Mr. Smith met Mrs. Jones and Dr. Brown. ", "They talked."}},
	{"Prof. and St. before names do not end a sentence",
		"Prof. Adams lives in St. Louis now. He likes it.",
		[]string{"Prof. Adams lives in St. Louis now. ", "He likes it."}},
	{"e.g. and i.e. never end a sentence",
		"Bring fruit, e.g. Apples, i.e. The red ones. Thanks.",
		[]string{"Bring fruit, e.g. Apples, i.e. The red ones. ", "Thanks."}},
	{"etc. in the middle of a sentence does not end it",
		"Apples, pears, etc. are fruit. Eat them.",
		[]string{"Apples, pears, etc. are fruit. ", "Eat them."}},
	{"etc. before a sentence starter ends the sentence",
		"I like apples, pears, etc. The rest I avoid.",
		[]string{"I like apples, pears, etc. ", "The rest I avoid."}},
	{"vs. never ends a sentence",
		"It was the Stones vs. The Beatles in the poll. The Beatles won.",
		[]string{"It was the Stones vs. The Beatles in the poll. ", "The Beatles won."}},
	{"U.S. before a capitalised noun stays in the sentence",
		"The U.S. Army is large. It trains daily.",
		[]string{"The U.S. Army is large. ", "It trains daily."}},
	{"U.S. before a sentence starter ends the sentence",
		"He moved to the U.S. The move was hard.",
		[]string{"He moved to the U.S. ", "The move was hard."}},
	{"U.K. before a lowercase word stays in the sentence",
		"She studied in the U.K. and France. Then she left.",
		[]string{"She studied in the U.K. and France. ", "Then she left."}},
	{"a.m. before a sentence starter ends the sentence",
		"We met at 9 a.m. The bus was late.", []string{"We met at 9 a.m. ", "The bus was late."}},
	{"Fig. before a number does not end a sentence",
		"See Fig. 3 for details. It shows the trend.",
		[]string{"See Fig. 3 for details. ", "It shows the trend."}},
	{"No. before a number does not end a sentence",
		"He lives at No. 5 Baker Street. Visit him.",
		[]string{"He lives at No. 5 Baker Street. ", "Visit him."}},
	{"No. as a word ends a sentence",
		"No. That is wrong.", []string{"No. ", "That is wrong."}},
	{"month abbreviations before a day do not end a sentence",
		"It moved from Jan. 5 to Feb. 12. We agreed.",
		[]string{"It moved from Jan. 5 to Feb. 12. ", "We agreed."}},
	{"Inc. before a name stays in the sentence",
		"Apple Inc. Chief Tim Cook spoke. We listened.",
		[]string{"Apple Inc. Chief Tim Cook spoke. ", "We listened."}},
	{"Jr. before a sentence starter ends the sentence",
		"He met Martin Luther King Jr. He was inspired.",
		[]string{"He met Martin Luther King Jr. ", "He was inspired."}},
	{"initials do not end a sentence",
		"J. R. R. Tolkien wrote it. He was British.",
		[]string{"J. R. R. Tolkien wrote it. ", "He was British."}},
	{"a single capital letter before a sentence starter ends the sentence",
		"He got an A. The teacher smiled.", []string{"He got an A. ", "The teacher smiled."}},
	{"a non-breaking space after a title does not split",
		"Mr.\u00a0Smith is here. Yes.", []string{"Mr.\u00a0Smith is here. ", "Yes."}},

	// Numbers, URLs and addresses.
	{"decimals do not end a sentence",
		"Pi is about 3.14 in value. Good.", []string{"Pi is about 3.14 in value. ", "Good."}},
	{"version numbers do not end a sentence",
		"Upgrade to v1.2.3 today. It is stable.", []string{"Upgrade to v1.2.3 today. ", "It is stable."}},
	{"IP addresses do not end a sentence",
		"Ping 192.168.0.1 first. Then reboot.", []string{"Ping 192.168.0.1 first. ", "Then reboot."}},
	{"URLs are not split",
		"Visit https://example.com/a.b?x=1 for more. Then rest.",
		[]string{"Visit https://example.com/a.b?x=1 for more. ", "Then rest."}},
	{"a domain at the end of a sentence ends it",
		"Go to example.com. Then log in.", []string{"Go to example.com. ", "Then log in."}},
	{"e-mail addresses are not split",
		"Write to jo.doe@example.co.uk today. Thanks.",
		[]string{"Write to jo.doe@example.co.uk today. ", "Thanks."}},

	// Ellipses.
	{"an ellipsis before a lowercase word does not end a sentence",
		"I was thinking... maybe not.", []string{"I was thinking... maybe not."}},
	{"an ellipsis before a capital letter ends the sentence",
		"I waited... Then it came.", []string{"I waited... ", "Then it came."}},
	{"an ellipsis before a digit does not end the sentence",
		"We counted... 3 of them.", []string{"We counted... 3 of them."}},
	{"the ellipsis character follows the same rules",
		"Wait… What happened? Wait… what.",
		[]string{"Wait… ", "What happened? ", "Wait… what."}},
	{"a spaced ellipsis before a capital letter ends the sentence",
		"Well . . . I guess so.", []string{"Well . . . ", "I guess so."}},

	// Quotes and brackets.
	{"a closing quote after the terminator stays with the sentence",
		`He said "Stop." Then he left.`, []string{`He said "Stop." `, "Then he left."}},
	{"a closing parenthesis after the terminator stays with the sentence",
		"(See above.) Next comes the proof.", []string{"(See above.) ", "Next comes the proof."}},
	{"curly quotes after the terminator stay with the sentence",
		"She asked, “Why?” Nobody knew.", []string{"She asked, “Why?” ", "Nobody knew."}},
	{"a quoted exclamation before a lowercase word does not end the sentence",
		`"Stop!" he said. Then he ran.`, []string{`"Stop!" he said. `, "Then he ran."}},
	{"a terminator after a closing quote joins the terminators before it",
		`He asked "Why?". Then silence.`, []string{`He asked "Why?". `, "Then silence."}},
	{"a sentence may start with an opening quote",
		`He left. "Bye," she said.`, []string{"He left. ", `"Bye," she said.`}},
	{"a title in brackets does not end a sentence",
		"Ask the doctor (Dr. Who) today. Fine.", []string{"Ask the doctor (Dr. Who) today. ", "Fine."}},
	{"Markdown emphasis after the terminator stays with the sentence",
		"**Note.** Read this.", []string{"**Note.** ", "Read this."}},

	// CJK and other scripts.
	{"the ideographic full stop ends a sentence without a following space",
		"今日は晴れです。明日は雨です。", []string{"今日は晴れです。", "明日は雨です。"}},
	{"full-width exclamation and question marks end sentences",
		"本当？！すごい。", []string{"本当？！", "すごい。"}},
	{"closing corner brackets stay with the sentence",
		"「はい。」彼は言った。", []string{"「はい。」", "彼は言った。"}},
	{"nested closing brackets all stay with the sentence",
		"『「いいえ。」』（本当！）次。", []string{"『「いいえ。」』", "（本当！）", "次。"}},
	{"a closing bracket before the particle と continues the sentence",
		"「はい。」と彼は言った。次へ。", []string{"「はい。」と彼は言った。", "次へ。"}},
	{"Chinese curly quotes after a full-width terminator stay with the sentence",
		"他说：“你好！”然后走了。", []string{"他说：“你好！”", "然后走了。"}},
	{"ideographic space after a full stop belongs to the sentence",
		"はい。　いいえ。", []string{"はい。　", "いいえ。"}},
	{"a full-width period between digits is a decimal point",
		"円周率は３．１４です。以上。", []string{"円周率は３．１４です。", "以上。"}},
	{"a combining mark after a terminator stays with it",
		"第二句！\u0301次。Wow!\u0301 Next.\u200d", []string{"第二句！\u0301", "次。", "Wow!\u0301 ", "Next.\u200d"}},
	{"a joiner or a variation selector after a terminator stays with it",
		"止まれ。\ufe0fはい！\u200dいいえ。", []string{"止まれ。\ufe0f", "はい！\u200d", "いいえ。"}},
	{"the Arabic question mark ends a sentence",
		"كيف حالك؟ أنا بخير.", []string{"كيف حالك؟ ", "أنا بخير."}},
	{"the Devanagari danda ends a sentence",
		"यह एक वाक्य है। यह दूसरा है।", []string{"यह एक वाक्य है। ", "यह दूसरा है।"}},

	// Lists and line breaks.
	{"a list marker at the start of a line is not a sentence",
		"Steps:\n1. Open the lid.\n2. Pour the tea.",
		[]string{"Steps:\n1. Open the lid.\n", "2. Pour the tea."}},
	{"a list marker at the start of the text is not a sentence",
		"1. Introduction to the topic", []string{"1. Introduction to the topic"}},
	{"a section number at the start of a line is not a sentence",
		"2.3. Methods were used.", []string{"2.3. Methods were used."}},
	{"a Roman numeral at the start of a line is not a sentence",
		"II. Methods\nWe used tools.", []string{"II. Methods\nWe used tools."}},
	{"a number after a word is not a list marker",
		"See chapter 1. The start is slow.", []string{"See chapter 1. ", "The start is slow."}},
	{"a blank line always ends a sentence",
		"Title\n\nBody text here.", []string{"Title\n\n", "Body text here."}},
	{"a blank line ends a sentence even after a title",
		"Dear Mr.\n\nSmith wrote back.", []string{"Dear Mr.\n\n", "Smith wrote back."}},
	{"a line of spaces and tabs counts as a blank line",
		"One\n  \t\nTwo", []string{"One\n  \t\n", "Two"}},
	{"Windows line endings form blank lines too",
		"One\r\n\r\nTwo", []string{"One\r\n\r\n", "Two"}},
	{"several blank lines belong to the sentence before them",
		"A\n\n\n\nB", []string{"A\n\n\n\n", "B"}},
	{"blank lines before the first sentence belong to it",
		"\n\n\nFirst. Second.", []string{"\n\n\nFirst. ", "Second."}},
	{"a single newline does not end a sentence",
		"This line\ncontinues here.", []string{"This line\ncontinues here."}},
	{"a single newline after a terminator is white space like any other",
		"First.\nSecond.", []string{"First.\n", "Second."}},
	{"a form feed ends a sentence",
		"Page one\fPage two", []string{"Page one\f", "Page two"}},

	// Invalid UTF-8.
	{"invalid UTF-8 bytes are ordinary characters",
		"Bad \xff byte. Next \xfe one.", []string{"Bad \xff byte. ", "Next \xfe one."}},
	{"no boundary is placed before a stray continuation byte",
		"One. \x80two. Three.", []string{"One. \x80two. ", "Three."}},
}

// sentences cuts text at ends.
func sentences(text string, ends []int) []string {
	var out []string
	start := 0
	for _, end := range ends {
		out = append(out, text[start:end])
		start = end
	}
	return out
}

// checkInvariants fails t unless ends is a valid answer for text: strictly increasing, on
// rune boundaries, the last equal to len(text), tiling text with sentences that each hold a
// non-space rune, and empty exactly when text holds no non-space rune.
func checkInvariants(t testing.TB, text string, ends []int) {
	t.Helper()
	if err := sdk.CheckBoundaries([]string{text}, [][]int{ends}); err != nil {
		t.Fatalf("Ends(%q) = %v: %v", text, ends, err)
	}
	prev := 0
	for i, e := range ends {
		if e <= prev {
			t.Fatalf("Ends(%q) = %v: offset %d is %d, not after %d", text, ends, i, e, prev)
		}
		if e < len(text) && !utf8.RuneStart(text[e]) {
			t.Fatalf("Ends(%q) = %v: offset %d is inside a rune", text, ends, e)
		}
		prev = e
	}
	blank := strings.IndexFunc(text, func(r rune) bool { return !unicode.IsSpace(r) }) < 0
	switch {
	case blank && len(ends) != 0:
		t.Fatalf("Ends(%q) = %v, want none for a text without a non-space rune", text, ends)
	case !blank && len(ends) == 0:
		t.Fatalf("Ends(%q) = none, want at least one sentence", text)
	case !blank && ends[len(ends)-1] != len(text):
		t.Fatalf("Ends(%q) = %v: last offset is not len(text) = %d", text, ends, len(text))
	}
	if got := strings.Join(sentences(text, ends), ""); len(ends) > 0 && got != text {
		t.Fatalf("Ends(%q): sentences join to %q", text, got)
	}
	for i, s := range sentences(text, ends) {
		if sdk.IsBlank(s) {
			t.Fatalf("Ends(%q) = %v: sentence %d is white space only", text, ends, i)
		}
	}
}

func TestEnds(t *testing.T) {
	t.Parallel()
	if len(splitCases) < 40 {
		t.Fatalf("only %d cases, want at least 40", len(splitCases))
	}
	for _, tc := range splitCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ends := sentence.Ends(tc.text)
			checkInvariants(t, tc.text, ends)
			if diff := cmp.Diff(tc.want, sentences(tc.text, ends)); diff != "" {
				t.Errorf("Ends(%q) sentences (-want +got):\n%s", tc.text, diff)
			}
		})
	}
}

func TestSplitAgreesWithEndsOnEveryCase(t *testing.T) {
	t.Parallel()
	texts := make([]string, len(splitCases))
	want := make([][]int, len(splitCases))
	for i, tc := range splitCases {
		texts[i] = tc.text
		want[i] = sentence.Ends(tc.text)
	}
	for name, s := range map[string]sdk.SentenceSplitter{
		"zero value": sentence.Splitter{},
		"Default()":  sentence.Default(),
	} {
		got, err := s.Split(context.Background(), texts)
		if err != nil {
			t.Fatalf("%s: Split: %v", name, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Split differs from Ends (-want +got):\n%s", name, diff)
		}
		if err := sdk.CheckBoundaries(texts, got); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSplitterAbbreviations(t *testing.T) {
	t.Parallel()
	const text = "Siehe Abb. 3 und z.B. Bilder. Ende."
	tests := []struct {
		name  string
		abbrs []string
		want  []string
	}{
		{"without extra abbreviations a period after an unknown word ends the sentence", nil,
			[]string{"Siehe Abb. ", "3 und z.B. Bilder. ", "Ende."}},
		{"an extra abbreviation never ends a sentence", []string{"Abb"},
			[]string{"Siehe Abb. 3 und z.B. Bilder. ", "Ende."}},
		{"extra abbreviations match ignoring case, a final period and spaces", []string{" ABB. ", "", "z.b."},
			[]string{"Siehe Abb. 3 und z.B. Bilder. ", "Ende."}},
		{"an extra abbreviation does not hold across a blank line", []string{"Ende"},
			[]string{"Siehe Abb. ", "3 und z.B. Bilder. ", "Ende."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := sentence.Splitter{Abbreviations: tc.abbrs}
			got, err := s.Split(context.Background(), []string{text, "Ende.\n\nDanach."})
			if err != nil {
				t.Fatalf("Split: %v", err)
			}
			checkInvariants(t, text, got[0])
			if diff := cmp.Diff(tc.want, sentences(text, got[0])); diff != "" {
				t.Errorf("Split(%q) sentences (-want +got):\n%s", text, diff)
			}
			if diff := cmp.Diff([]string{"Ende.\n\n", "Danach."}, sentences("Ende.\n\nDanach.", got[1])); diff != "" {
				t.Errorf("a blank line after an abbreviation (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitStopsWhenTheContextIsDone(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := sentence.Splitter{}.Split(ctx, []string{"One. Two."})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Split with a cancelled context: err = %v, want context.Canceled", err)
	}
	if got != nil {
		t.Errorf("Split with a cancelled context returned %v, want nil", got)
	}
	if !strings.Contains(err.Error(), "text 0 of 1") {
		t.Errorf("error %q does not say which text it stopped at", err)
	}
}

func TestSplitOfNoTextsIsEmpty(t *testing.T) {
	t.Parallel()
	got, err := sentence.Splitter{}.Split(context.Background(), nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("Split(nil) = %v, %v; want no lists and no error", got, err)
	}
}

func TestNameIsRules(t *testing.T) {
	t.Parallel()
	if got := sentence.Default().Name(); got != "rules" {
		t.Errorf("Name() = %q, want %q", got, "rules")
	}
}

func TestSplitIsSafeForConcurrentUse(t *testing.T) {
	t.Parallel()
	texts := make([]string, len(splitCases))
	for i, tc := range splitCases {
		texts[i] = tc.text
	}
	s := sentence.Splitter{Abbreviations: []string{"Abb"}}
	want, err := s.Split(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			got, err := s.Split(context.Background(), texts)
			if err != nil {
				errs <- err.Error()
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				errs <- diff
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent Split differs from sequential (-want +got) or failed:\n%s", e)
	}
}

// pathological returns 1 MB inputs that would expose work superlinear in the text length.
func pathological() map[string]string {
	const size = 1 << 20
	return map[string]string{
		"no punctuation":        strings.Repeat("word ", size/5),
		"no white space":        strings.Repeat("x", size),
		"100k dots in one run":  strings.Repeat("a", size-100_000) + strings.Repeat(".", 100_000),
		"dots between letters":  strings.Repeat("a.", size/2),
		"spaced dots":           strings.Repeat(". ", size/2),
		"openers after periods": strings.Repeat("a. ((((((((", size/11),
		"one long word":         strings.Repeat("(", size/2) + strings.Repeat("a", size/2) + ". B",
		"initials":              strings.Repeat("J. ", size/3),
		"ideographic stops":     strings.Repeat("。", size/3),
	}
}

// TestEndsOnPathologicalInput splits each 1 MB pathological text and checks the invariants.
// Quadratic work on 1 MB would run into the test timeout; the speed itself is measured by the
// package's benchmarks, not asserted here.
func TestEndsOnPathologicalInput(t *testing.T) {
	t.Parallel()
	for name, text := range pathological() {
		t.Run("a 1 MB text of "+name+" is split", func(t *testing.T) {
			t.Parallel()
			checkInvariants(t, text, sentence.Ends(text))
		})
	}
}
