package sentence_test

// hardCase is a hand-checked text with the sentences each engine returns. all holds the
// answer when the three engines agree; otherwise rules, punkt and uax29 hold each engine's own
// answer (nil means "same as all") and why explains the disagreement.
type hardCase struct {
	name  string
	text  string
	all   []string
	rules []string // sdk/sentence, the in-process default
	punkt []string // punkt:en
	uax29 []string // uax29
	why   string
}

// want returns the sentences engine should return for tc.
func (tc hardCase) want(engine string) []string {
	var own []string
	switch engine {
	case "rules":
		own = tc.rules
	case "punkt:en":
		own = tc.punkt
	case "uax29":
		own = tc.uax29
	}
	if own != nil {
		return own
	}
	return tc.all
}

// hardCases is the table of hard cases: abbreviations, initials, decimals, quotes, brackets,
// lists, CJK, URLs, e-mail, ellipses, newlines. Every answer was checked by hand; where an
// engine is wrong by ordinary English usage the why note says so.
var hardCases = []hardCase{
	// Abbreviations and titles.
	{
		name:  "a title before a name",
		text:  "Mr. Smith went to Washington. He arrived at noon.",
		all:   []string{"Mr. Smith went to Washington. ", "He arrived at noon."},
		uax29: []string{"Mr. ", "Smith went to Washington. ", "He arrived at noon."},
		why:   "UAX #29 has no abbreviation list: a period, a space and an uppercase letter always break (rule SB11); wrong here.",
	},
	{
		name:  "two titles in one sentence",
		text:  "Dr. Jones and Prof. Lee met. They talked.",
		all:   []string{"Dr. Jones and Prof. Lee met. ", "They talked."},
		uax29: []string{"Dr. ", "Jones and Prof. ", "Lee met. ", "They talked."},
		why:   "UAX #29 breaks after every title followed by a capital; wrong.",
	},
	{
		name:  "initials",
		text:  "J. R. R. Tolkien wrote books. He died in 1973.",
		all:   []string{"J. R. R. Tolkien wrote books. ", "He died in 1973."},
		uax29: []string{"J. ", "R. ", "R. ", "Tolkien wrote books. ", "He died in 1973."},
		why:   "UAX #29 breaks after each initial; wrong.",
	},
	{
		name: "a dotted abbreviation inside a sentence",
		text: "The U.S. economy grew. It was good.",
		all:  []string{"The U.S. economy grew. ", "It was good."},
	},
	{
		name: "a dotted abbreviation ending a sentence",
		text: "He lives in the U.S. The weather is fine.",
		all:  []string{"He lives in the U.S. ", "The weather is fine."},
	},
	{
		name:  "a dotted abbreviation before a capitalized noun",
		text:  "The U.S. Army is big.",
		all:   []string{"The U.S. Army is big."},
		uax29: []string{"The U.S. ", "Army is big."},
		why:   "UAX #29 cannot tell U.S. from a sentence end before a capital; wrong. Punkt and the rules know 'Army' is no sentence starter.",
	},
	{
		name:  "No. before a number and as a word",
		text:  "No. 5 is the answer. No. That is wrong.",
		all:   []string{"No. 5 is the answer. ", "No. ", "That is wrong."},
		punkt: []string{"No. 5 is the answer. ", "No. That is wrong."},
		why:   "The English Punkt model adds 'no' to its abbreviations, so 'No.' never ends a sentence; wrong for the second 'No.'.",
	},
	{
		name: "etc. ending a sentence",
		text: "We bought apples, pears, etc. The fruit was fresh.",
		all:  []string{"We bought apples, pears, etc. ", "The fruit was fresh."},
	},
	{
		name:  "Inc. inside a sentence then a year ending one",
		text:  "Acme Inc. was founded in 1990. It grew fast.",
		all:   []string{"Acme Inc. was founded in 1990. ", "It grew fast."},
		punkt: []string{"Acme Inc. was founded in 1990. It grew fast."},
		why:   "Punkt (neurosnap v1.1.2) does not break after a number followed by a period: it types the token as ##number## and treats it like an abbreviation; wrong.",
	},
	{
		name: "a.m./p.m. inside a sentence",
		text: "It happened at 5 p.m. on Monday. Nobody saw it.",
		all:  []string{"It happened at 5 p.m. on Monday. ", "Nobody saw it."},
	},
	{
		name:  "p.m. ending a sentence before a capital",
		text:  "Call me at 5 p.m. Tomorrow is fine.",
		all:   []string{"Call me at 5 p.m. ", "Tomorrow is fine."},
		rules: []string{"Call me at 5 p.m. Tomorrow is fine."},
		why:   "The rules end a sentence after a dotted abbreviation only before a common sentence starter, and 'Tomorrow' is not one; Punkt's orthographic evidence and UAX #29 break; breaking is right.",
	},
	{
		name:  "e.g. and i.e. at sentence starts",
		text:  "e.g. this is one. i.e. that is another.",
		all:   []string{"e.g. this is one. i.e. that is another."},
		punkt: []string{"e.g. this is one. ", "i.e. that is another."},
		why:   "A lowercase next word never starts a sentence for the rules or UAX #29; Punkt breaks after an ordinary word's period whatever follows. Lowercase-initial text is ambiguous; Punkt's answer is the better one here.",
	},
	{
		name: "a degree abbreviation",
		text: "He has a Ph.D. in physics. She does too.",
		all:  []string{"He has a Ph.D. in physics. ", "She does too."},
	},
	{
		name:  "et al. before a lowercase word",
		text:  "Smith et al. showed this. Others disagreed.",
		all:   []string{"Smith et al. showed this. ", "Others disagreed."},
		punkt: []string{"Smith et al. ", "showed this. ", "Others disagreed."},
		why:   "The English Punkt model does not know 'al' as an abbreviation, and Punkt breaks after a non-abbreviation's period even before a lowercase word; wrong.",
	},
	{
		name:  "a month abbreviation before a day",
		text:  "The meeting is on Jan. 5. Be there.",
		all:   []string{"The meeting is on Jan. 5. ", "Be there."},
		punkt: []string{"The meeting is on Jan. 5. Be there."},
		uax29: []string{"The meeting is on Jan. ", "5. ", "Be there."},
		why:   "Punkt does not break after '5.' (a ##number## token); UAX #29 breaks after 'Jan.' because a digit follows (SB11 only holds before lowercase). Both wrong.",
	},
	// Decimals and numbers.
	{
		name:  "a decimal number ending a sentence",
		text:  "Pi is 3.14159. That is well known.",
		all:   []string{"Pi is 3.14159. ", "That is well known."},
		punkt: []string{"Pi is 3.14159. That is well known."},
		why:   "Punkt does not break after a number followed by a period; wrong.",
	},
	{
		name:  "money, percent and a year",
		text:  "It costs $4.50 today. Prices rose 2.5% in 2020. It was good.",
		all:   []string{"It costs $4.50 today. ", "Prices rose 2.5% in 2020. ", "It was good."},
		punkt: []string{"It costs $4.50 today. ", "Prices rose 2.5% in 2020. It was good."},
		why:   "Punkt does not break after '2020.' (a ##number## token); wrong.",
	},
	{
		name: "a version number",
		text: "Version 1.2.3 was released. Upgrade now.",
		all:  []string{"Version 1.2.3 was released. ", "Upgrade now."},
	},
	{
		name: "a score with a slash",
		text: "He scored 9.5/10. Great job.",
		all:  []string{"He scored 9.5/10. ", "Great job."},
	},
	{
		name: "a number alone",
		text: "The answer is 42.",
		all:  []string{"The answer is 42."},
	},
	// Quotes and brackets.
	{
		name: "a quoted sentence then a new one",
		text: "He said \"Stop.\" Then he left.",
		all:  []string{"He said \"Stop.\" ", "Then he left."},
	},
	{
		name:  "a quoted exclamation before a lowercase attribution",
		text:  "\"Stop!\" he said. She ran.",
		all:   []string{"\"Stop!\" he said. ", "She ran."},
		uax29: []string{"\"Stop!\" ", "he said. ", "She ran."},
		why:   "UAX #29 always breaks after ! or ? (rule SB11 has no lowercase exception for them); wrong.",
	},
	{
		name: "a quoted question",
		text: "She asked, \"Why?\" Nobody answered.",
		all:  []string{"She asked, \"Why?\" ", "Nobody answered."},
	},
	{
		name: "single quotes",
		text: "He said 'yes.' Then 'no.'",
		all:  []string{"He said 'yes.' ", "Then 'no.'"},
	},
	{
		name: "a sentence in brackets",
		text: "(This is in brackets.) This is not.",
		all:  []string{"(This is in brackets.) ", "This is not."},
	},
	{
		name:  "an abbreviation in brackets",
		text:  "See the figure (Fig. 3) for details. Then continue.",
		all:   []string{"See the figure (Fig. 3) for details. ", "Then continue."},
		punkt: []string{"See the figure (Fig. ", "3) for details. ", "Then continue."},
		why:   "The English Punkt model does not know 'fig' as an abbreviation; wrong.",
	},
	// Lists.
	{
		name:  "numbered items in running text",
		text:  "1. First item. 2. Second item.",
		rules: []string{"1. First item. ", "2. ", "Second item."},
		punkt: []string{"1. First item. ", "2. Second item."},
		uax29: []string{"1. ", "First item. ", "2. ", "Second item."},
		why:   "Punkt recognizes list numbers and is right; the rules treat only a leading '1.' as a list marker; UAX #29 breaks after every number-period before a capital.",
	},
	{
		name:  "a list on lines",
		text:  "Items:\n1. Apples\n2. Pears\n",
		all:   []string{"Items:\n1. Apples\n2. Pears\n"},
		uax29: []string{"Items:\n", "1. ", "Apples\n", "2. ", "Pears\n"},
		why:   "UAX #29 breaks after every line break (ParaSep, rule SB4) and after '1. ' before a capital; the rules and Punkt ignore single line breaks. Markdown lists reach the chunkers as separate blocks, so this matters for plain text only.",
	},
	{
		name:  "a dashed list on lines",
		text:  "- one\n- two\n- three",
		all:   []string{"- one\n- two\n- three"},
		uax29: []string{"- one\n", "- two\n", "- three"},
		why:   "UAX #29 breaks after every line break (rule SB4).",
	},
	// CJK and other scripts.
	{
		name:  "Chinese full stops and fullwidth marks",
		text:  "中文句子。第二句！第三句？",
		all:   []string{"中文句子。", "第二句！", "第三句？"},
		punkt: []string{"中文句子。", "第二句！第三句？"},
		why:   "Punkt lists '！' as sentence punctuation but misses this break: its tokens end at white space and none follows the '！'; wrong.",
	},
	{
		name: "Japanese full stops",
		text: "日本語の文です。次の文です。",
		all:  []string{"日本語の文です。", "次の文です。"},
	},
	{
		name: "Cyrillic",
		text: "Это первое предложение. Это второе.",
		all:  []string{"Это первое предложение. ", "Это второе."},
	},
	{
		name: "Spanish inverted marks",
		text: "¿Dónde está? ¡Aquí!",
		all:  []string{"¿Dónde está? ", "¡Aquí!"},
	},
	{
		name: "emoji before terminators",
		text: "Emoji end 🎉. Next sentence 🚀!",
		all:  []string{"Emoji end 🎉. ", "Next sentence 🚀!"},
	},
	// URLs and e-mail.
	{
		name:  "a URL with a query string",
		text:  "Visit https://example.com/a.b?c=d. Then log in.",
		all:   []string{"Visit https://example.com/a.b?c=d. ", "Then log in."},
		uax29: []string{"Visit https://example.com/a.b?", "c=d. ", "Then log in."},
		why:   "UAX #29 breaks after '?' even inside a URL (rule SB11 does not look at what follows); wrong.",
	},
	{
		name: "an e-mail address",
		text: "Mail jo.doe@example.com for help. Thanks.",
		all:  []string{"Mail jo.doe@example.com for help. ", "Thanks."},
	},
	{
		name: "a period between words without a space",
		text: "Hello.World is one token.",
		all:  []string{"Hello.World is one token."},
	},
	// Ellipses and runs of terminators.
	{
		name:  "three periods before a capital",
		text:  "Wait... What happened?",
		all:   []string{"Wait... ", "What happened?"},
		punkt: []string{"Wait... What happened?"},
		why:   "Punkt treats '...' as possibly inside a sentence and needs orthographic evidence that 'What' starts one; debatable.",
	},
	{
		name: "an ellipsis character before a lowercase word",
		text: "Wait… what happened?",
		all:  []string{"Wait… what happened?"},
	},
	{
		name: "an ellipsis ending a sentence",
		text: "And so on... The end.",
		all:  []string{"And so on... ", "The end."},
	},
	{
		name: "mixed terminators",
		text: "Really?! Yes!! Okay.",
		all:  []string{"Really?! ", "Yes!! ", "Okay."},
	},
	{
		name: "an interrobang run",
		text: "What?!? No way.",
		all:  []string{"What?!? ", "No way."},
	},
	// Newlines and white space.
	{
		name:  "lines without terminators then a blank line",
		text:  "First line\nSecond line\n\nNew paragraph.",
		rules: []string{"First line\nSecond line\n\n", "New paragraph."},
		punkt: []string{"First line\nSecond line\n\nNew paragraph."},
		uax29: []string{"First line\n", "Second line\n\n", "New paragraph."},
		why:   "The rules break at a blank line, UAX #29 at every line break, Punkt only at punctuation. The rules' answer is the one a reader expects.",
	},
	{
		name:  "a title line then a paragraph",
		text:  "Title\n\nBody text here. More text.",
		all:   []string{"Title\n\n", "Body text here. ", "More text."},
		punkt: []string{"Title\n\nBody text here. ", "More text."},
		why:   "Punkt breaks only at punctuation, so a heading without a period joins the next sentence.",
	},
	{
		name: "a tab between sentences",
		text: "Sentence one.\tSentence two.",
		all:  []string{"Sentence one.\t", "Sentence two."},
	},
	{
		name: "a no-break space between sentences",
		text: "A sentence.\u00a0Another one.",
		all:  []string{"A sentence.\u00a0", "Another one."},
	},
	{
		name:  "leading and trailing spaces with a lowercase second sentence",
		text:  "  leading spaces. trailing spaces.   ",
		all:   []string{"  leading spaces. trailing spaces.   "},
		punkt: []string{"  leading spaces. ", "trailing spaces.   "},
		why:   "Punkt breaks after an ordinary word's period before a lowercase word; the rules and UAX #29 do not.",
	},
	{
		name: "no terminator at all",
		text: "no terminator at all",
		all:  []string{"no terminator at all"},
	},
	{
		name: "white space only",
		text: " \n\t ",
		all:  nil,
	},
}
