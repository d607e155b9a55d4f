// strings.mjs writes plugins/tiktoken/testdata/strings.json: the inputs the golden tests run
// through OpenAI's tiktoken and through both Go backends. It is deterministic (the "generated"
// cases come from a seeded PRNG), so running it again gives the same file byte for byte.
//
//   node strings.mjs [OUT]   (default ../../plugins/tiktoken/testdata/strings.json)
//
// Each case is {name, why, and exactly one of: text | repeat:{unit,times} | base64}.
//   text    the input itself.
//   repeat  unit repeated times times (keeps 100 kB inputs out of the file).
//   base64  raw bytes, for input that is not valid UTF-8 (JSON strings cannot hold it).

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? resolve(here, "../../plugins/tiktoken/testdata/strings.json");

const cases = [];
const names = new Set();
function add(name, why, input) {
  if (names.has(name)) throw new Error(`duplicate case name ${name}`);
  names.add(name);
  cases.push({ name, why, ...input });
}
const text = (name, why, t) => add(name, why, { text: t });
const repeat = (name, why, unit, times) => add(name, why, { repeat: { unit, times } });
const bytes = (name, why, arr) => add(name, why, { base64: Buffer.from(arr).toString("base64") });

// --- edge cases -------------------------------------------------------------------------
text("edge/empty", "the count of the empty string is 0 and it has no boundaries", "");
text("edge/one letter", "a single one-byte token", "a");
text("edge/one space", "a lone space is its own piece", " ");
text("edge/one newline", "a lone newline", "\n");
text("edge/one digit", "a single digit", "7");
text("edge/one punctuation", "a single symbol", "?");
text("edge/one emoji", "one four-byte character split over byte tokens", "🦀");
text("edge/one CJK character", "one three-byte character", "語");
text("edge/NUL byte", "a control character is text too", "a\u0000b");
text("edge/DEL and C1 controls", "controls outside ASCII printable", "x\u007f\u0085\u009fy");
text("edge/BOM at start", "a byte order mark is an ordinary character", "\ufeffHello");
text("edge/DEL alone", "U+007F must not be dropped (tiktoken-go/tokenizer's generated matcher drops it)", "\u007f");
text("edge/case folding in contractions", "(?i) in the pattern: does 'ſ (long s) or 'K (Kelvin sign) count as a contraction?", "it'ſ, it'S, it'K, it'k and 'ﬅ");
text("edge/replacement character", "U+FFFD in valid input counts like any character", "a\ufffdb");

// --- ASCII prose --------------------------------------------------------------------------
const prose = [
  ["simple sentence", "The quick brown fox jumps over the lazy dog."],
  ["two sentences", "It was the best of times. It was the worst of times."],
  ["contractions", "I'm sure you'll see they've said it's what we'd do, and I don't mind."],
  ["upper-case contractions", "I'M SURE YOU'LL SEE THEY'VE SAID IT'S WHAT WE'D DO."],
  ["mixed-case contractions", "It'S, we'Ll, they'Ve, you'Re, I'M, she'D"],
  ["curly apostrophes", "It’s what we’d do, isn’t it? ‘Quoted’ and “double quoted”."],
  ["possessives", "James's book, the dogs' bowls, Chris' car."],
  ["dialogue", "\"Where are you going?\" she asked.\n\"Out,\" he said."],
  ["paragraphs", "First paragraph line one.\nLine two.\n\nSecond paragraph.\n\n\nThird, after two blank lines."],
  ["punctuation runs", "Wait... what?!?! No -- really; yes: (maybe) [perhaps] {never}."],
  ["ellipsis and dashes", "Well… I suppose — no, I know – it’s fine."],
  ["all caps", "WARNING: DO NOT OPERATE HEAVY MACHINERY AFTER READING THIS."],
  ["title case", "The Lord Of The Rings: The Fellowship Of The Ring"],
  ["markdown heading", "# Installation\n\n## Requirements\n\n- Go 1.26\n- Node.js 20\n"],
  ["markdown table", "| name | value |\n|------|------:|\n| a    |     1 |\n| b    |    22 |\n"],
  ["markdown emphasis", "Some *emphasis*, **strong**, `code`, and [a link](https://example.com)."],
  ["list with numbers", "1. First\n2. Second\n3. Third\n10. Tenth\n"],
  ["legal prose", "Notwithstanding the foregoing, the Licensee shall not, without prior written consent, sublicense the Software."],
  ["scientific prose", "The half-life of carbon-14 is approximately 5,730 years (±40 years)."],
  ["lorem ipsum", "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua."],
  ["hyphenated words", "state-of-the-art, well-known, up-to-date, mother-in-law"],
  ["abbreviations", "Dr. Smith met Mr. J. R. R. Tolkien at 5 p.m. on Jan. 3, e.g. i.e. etc."],
  ["quoted speech with newline", "He wrote:\n> To be, or not to be, that is the question.\n"],
  ["question and exclamation", "Why? Because! How? Like this!"],
  ["trailing space", "ends with a space "],
  ["leading space", " starts with a space"],
];
for (const [n, t] of prose) text(`prose/${n}`, "English prose: the common case the counts are tuned for", t);
text("prose/french accents", "Latin letters with precomposed accents", "Où est la bibliothèque ? Ça va très bien, merci. L'été à Noël.");
text("prose/german", "German with umlauts and ß", "Größere Straßen führen über die Brücke; Übermäßig schöne Äpfel.");
text("prose/spanish", "inverted punctuation and ñ", "¿Dónde está el niño? ¡Mañana será otro día!");
text("prose/russian", "Cyrillic letters are two bytes each", "Съешь же ещё этих мягких французских булок, да выпей чаю.");
text("prose/greek", "Greek letters", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.");
text("prose/vietnamese", "stacked Vietnamese diacritics, precomposed", "Tiếng Việt có dấu: Người ta thường nói rằng.");
text("prose/turkish dotless i", "case mapping traps do not matter to counting", "İstanbul'da ılık bir gün; DİYARBAKIR ıI iİ");

// --- code ---------------------------------------------------------------------------------
const code = [
  ["go function", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(i)\n\t}\n}\n"],
  ["go struct with tags", "type Chunk struct {\n\tID      string `json:\"id\"`\n\tContent string `json:\"content\"`\n}\n"],
  ["python class", "class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n        self.items.append(x)\n"],
  ["python f-string and decorator", "@dataclass(frozen=True)\nclass P:\n    x: int = 0\n\nprint(f\"{p.x!r:>10}\")\n"],
  ["javascript arrow functions", "const add = (a, b) => a + b;\nexport default async function main() { await fetch(`/api/${id}`); }\n"],
  ["typescript generics", "function first<T extends object>(xs: readonly T[]): T | undefined {\n  return xs[0];\n}\n"],
  ["rust impl", "impl<'a> Iterator for Tokens<'a> {\n    type Item = &'a str;\n    fn next(&mut self) -> Option<Self::Item> { None }\n}\n"],
  ["c with pointers", "#include <stdio.h>\nint main(int argc, char **argv) {\n    printf(\"%s\\n\", argv[0]);\n    return 0;\n}\n"],
  ["c++ templates", "template <typename T>\nstd::vector<T> f(const std::map<std::string, T>& m) { return {}; }\n"],
  ["java", "public final class Main {\n    public static void main(String[] args) throws Exception {\n        System.out.println(\"Hi\");\n    }\n}\n"],
  ["sql", "SELECT u.id, COUNT(*) AS n\nFROM users u\nLEFT JOIN orders o ON o.user_id = u.id\nWHERE u.created_at >= '2024-01-01'\nGROUP BY u.id\nHAVING n > 3;\n"],
  ["html", "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>T</title></head>\n<body><p class=\"x\">Hi &amp; bye</p></body>\n</html>\n"],
  ["json", "{\"name\": \"chunkkit\", \"version\": \"1.0.0\", \"tags\": [\"a\", \"b\"], \"nested\": {\"x\": null, \"y\": true}}"],
  ["yaml", "services:\n  web:\n    image: \"nginx:1.25\"\n    ports:\n      - \"8080:80\"\n    environment:\n      - KEY=value\n"],
  ["shell pipeline", "#!/usr/bin/env bash\nset -euo pipefail\nfind . -name '*.go' | xargs grep -l 'TODO' | sort -u > /tmp/todo.txt 2>&1\n"],
  ["makefile with tabs", "build:\n\tgo build ./...\n\ntest: build\n\tgo test -race ./...\n"],
  ["regex", "^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@example\\.com$"],
  ["css", ".btn:hover > span::after {\n  content: \"→\";\n  margin: 0 0.5rem;\n  color: #ff00aa;\n}\n"],
  ["lisp", "(defun fact (n) (if (<= n 1) 1 (* n (fact (- n 1)))))"],
  ["haskell", "main :: IO ()\nmain = mapM_ print $ take 10 $ filter even [1..]\n"],
  ["diff", "--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,3 @@\n-old line\n+new line\n context\n"],
  ["minified js", "!function(e,t){\"object\"==typeof exports?module.exports=t():e.x=t()}(this,function(){return{a:1}});"],
  ["assembly", "_start:\n    mov rax, 60\n    xor rdi, rdi\n    syscall\n"],
  ["latex", "\\begin{equation}\n  E = mc^2 \\quad \\text{and} \\quad \\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}\n\\end{equation}\n"],
  ["code with CRLF", "if (x) {\r\n    y();\r\n}\r\n"],
];
for (const [n, t] of code) text(`code/${n}`, "source code: indentation, operators and identifiers split differently from prose", t);

// --- whitespace ---------------------------------------------------------------------------
const ws = [
  ["tabs", "a\tb\t\tc\t\t\td"],
  ["leading tabs", "\t\t\tindented"],
  ["50 spaces", " ".repeat(50)],
  ["50 spaces then word", " ".repeat(50) + "word"],
  ["word then 50 spaces", "word" + " ".repeat(50)],
  ["spaces between words", "a  b   c    d     e"],
  ["CRLF lines", "line one\r\nline two\r\nline three\r\n"],
  ["mixed line endings", "unix\nwindows\r\nold mac\rmixed\n\r\n"],
  ["blank lines", "\n\n\n\n"],
  ["spaces before newline", "text   \n   more"],
  ["space newline space", " \n \n \n"],
  ["tab newline mix", "\t\n\t\r\n \t \n"],
  ["vertical tab and form feed", "a\u000bb\u000cc"],
  ["no-break spaces", "100\u00a0km and\u202fthin\u2009spaces"],
  ["ideographic space", "全角\u3000スペース\u3000です"],
  ["zero-width characters", "zero\u200bwidth\u200cnon\u200djoiner\u2060word"],
  ["line and paragraph separators", "a\u2028b\u2029c"],
  ["only whitespace mixed", " \t \r\n \u00a0 \u3000 "],
  ["many newlines then text", "\n".repeat(30) + "end"],
  ["indented code block", "    four spaces\n        eight spaces\n    back\n"],
  ["indented blank lines", "func f() {\n\tx := 1\n\t\n\t\n\treturn x\n}\n"],
];
for (const [n, t] of ws) text(`whitespace/${n}`, "white space runs: the regex's \\s+(?!\\S) and newline rules decide the pieces", t);

// --- CJK ----------------------------------------------------------------------------------
const cjk = [
  ["chinese simplified", "我们今天去公园散步，天气非常好。"],
  ["chinese traditional", "這是一個測試句子，包含繁體中文字。"],
  ["chinese with ascii", "使用Go语言编写的chunkkit工具，版本1.2.3。"],
  ["japanese mixed scripts", "東京は日本の首都です。ひらがなとカタカナとKanjiを混ぜます。"],
  ["japanese katakana", "コンピュータ・プログラミング・ランゲージ"],
  ["japanese halfwidth katakana", "ｺﾝﾋﾟｭｰﾀ ﾃｽﾄ"],
  ["korean", "안녕하세요. 오늘 날씨가 정말 좋네요! 한국어 테스트입니다."],
  ["korean jamo", "\u1100\u1161\u11a8 \u1112\u1161\u11ab"],
  ["fullwidth latin and digits", "ＡＢＣ１２３ｘｙｚ！？"],
  ["cjk punctuation", "「引用」『二重』【括弧】〈山〉《書名》、。・…"],
  ["cjk extension B", "𠀀𠀁𠀂𪚥𩸽"],
  ["chinese paragraph", "人工智能是计算机科学的一个分支，它企图了解智能的实质，并生产出一种新的能以人类智能相似的方式做出反应的智能机器。\n该领域的研究包括机器人、语言识别、图像识别、自然语言处理和专家系统等。"],
  ["japanese with numbers", "2024年3月15日（金）午後3時45分に会議があります。"],
];
for (const [n, t] of cjk) text(`cjk/${n}`, "CJK text: three- and four-byte characters, often split across tokens", t);

// --- emoji --------------------------------------------------------------------------------
const emoji = [
  ["simple", "I love 🍕 and 🎉!"],
  ["skin tones", "👍🏻👍🏼👍🏽👍🏾👍🏿"],
  ["zwj family", "👨‍👩‍👧‍👦"],
  ["zwj professions", "👩🏽‍💻 🧑‍🚀 👨🏿‍🍳"],
  ["rainbow flag", "🏳️‍🌈"],
  ["flags", "🇺🇸🇯🇵🇩🇪🇫🇷🇧🇷"],
  ["subdivision flag", "🏴󠁧󠁢󠁥󠁮󠁧󠁿 🏴󠁧󠁢󠁳󠁣󠁴󠁿"],
  ["keycaps", "1️⃣ 2️⃣ #️⃣ *️⃣"],
  ["variation selectors", "☺︎ ☺️ ❤ ❤️ ✔︎"],
  ["emoji without spaces", "🔥🔥🔥💯💯🚀🚀🚀"],
  ["emoji in sentence", "Deploy done ✅ — tests green 🟢, coverage 📈 up."],
  ["regional indicator alone", "🇦 🇿"],
  ["hearts and hands", "🫶🏼🫰🏻🤌🏾"],
];
for (const [n, t] of emoji) text(`emoji/${n}`, "emoji: modifiers and joiners make multi-code-point graphemes cut inside by tokens", t);

// --- combining marks ----------------------------------------------------------------------
const marks = [
  ["e acute decomposed", "cafe\u0301 re\u0301sume\u0301"],
  ["precomposed vs decomposed", "\u00e9 e\u0301 \u00c5 A\u030a"],
  ["zalgo", "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034dA\u036b\u0357\u0334\u0362\u0335\u031c\u0330\u0354L\u0368\u0367\u0369\u0358\u0320G\u0311\u0357\u030e\u0305\u035b\u0341\u0334\u033b\u0348\u034d\u0354\u0339O\u0342\u030c\u030c\u0358\u0328\u0335\u0339\u033b\u031d\u0333"],
  ["many marks on one letter", "a" + "\u0301\u0300\u0302\u0303\u0308".repeat(10)],
  ["devanagari", "नमस्ते दुनिया, यह एक परीक्षण है।"],
  ["thai", "สวัสดีครับ ภาษาไทยไม่มีช่องว่างระหว่างคำ"],
  ["hangul with combining", "한\u0301국"],
  ["combining mark at start", "\u0301leading mark"],
  ["vietnamese decomposed", "Vie\u0323\u0302t Nam"],
  ["tamil", "தமிழ் மொழி அழகானது"],
];
for (const [n, t] of marks) text(`marks/${n}`, "combining marks: \\p{M} is its own class in the o200k regex and a letter's tail in cl100k", t);

// --- right-to-left ------------------------------------------------------------------------
const rtl = [
  ["arabic", "مرحبا بالعالم، هذا اختبار للنص العربي."],
  ["arabic with diacritics", "بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ"],
  ["hebrew", "שלום עולם, זהו מבחן של טקסט בעברית."],
  ["hebrew with niqqud", "בְּרֵאשִׁית בָּרָא אֱלֹהִים"],
  ["arabic with numbers", "السعر ١٢٣٫٤٥ دولار و 678 ريال"],
  ["mixed direction", "The word שלום means peace; كلمة سلام too."],
  ["bidi controls", "abc\u202edcba\u202c \u200fRLM\u200e LRM \u2067isolate\u2069"],
  ["persian", "زبان فارسی زیباست. می‌خواهم"],
];
for (const [n, t] of rtl) text(`rtl/${n}`, "right-to-left scripts: byte order is logical order, direction does not matter to counting", t);

// --- special-token text -------------------------------------------------------------------
const specials = [
  ["endoftext alone", "<|endoftext|>"],
  ["endoftext in text", "Document one ends here.<|endoftext|>Document two starts here."],
  ["endoftext with spaces", "before <|endoftext|> after"],
  ["endoftext twice", "<|endoftext|><|endoftext|>"],
  ["fim tokens", "<|fim_prefix|>def f():<|fim_suffix|>    return 1<|fim_middle|>"],
  ["endofprompt", "question<|endofprompt|>answer"],
  ["partial special", "<|endoftext| and <|endoftext and endoftext|>"],
  ["special in word", "abc<|endoftext|>def"],
  ["unknown special-looking", "<|im_start|>user\nhi<|im_end|>"],
  ["special upper case", "<|ENDOFTEXT|>"],
  ["special in code", "tokenizer.encode(\"<|endoftext|>\", allowed_special=\"all\")"],
  ["every special", "<|endoftext|><|fim_prefix|><|fim_middle|><|fim_suffix|><|endofprompt|>"],
];
for (const [n, t] of specials) text(`special/${n}`, "special-token text is ordinary text (encode_ordinary), never a control token", t);

// --- numbers ------------------------------------------------------------------------------
const numbers = [
  ["integer", "1234567890"],
  ["digit groups", "1 12 123 1234 12345 123456 1234567"],
  ["decimal", "3.14159265358979323846"],
  ["negative and exponent", "-42 +7 6.022e23 1.6E-19"],
  ["thousands separators", "1,000,000 and 1.000.000 and 1 000 000"],
  ["phone number", "+1 (555) 123-4567"],
  ["dates and times", "2024-02-29T23:59:59.999Z and 12/31/1999 11:59 PM"],
  ["version numbers", "v1.2.3-rc.1+build.456 go1.26.0"],
  ["hex and binary", "0xDEADBEEF 0b101010 0o777 #FF00AA"],
  ["money", "$1,234.56 €99,99 £5 ¥1000 ₹250"],
  ["fullwidth digits", "１２３４５"],
  ["superscripts and fractions", "x² + y³ = ½ ¼ ¾ ⅓ Ⅻ"],
  ["long digit run", "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"],
];
for (const [n, t] of numbers) text(`number/${n}`, "numbers: cl100k and o200k split digits in groups of up to three, p50k/r50k do not", t);

// --- URLs and identifiers -----------------------------------------------------------------
const urls = [
  ["https url", "https://www.example.com/path/to/page?query=1&lang=en#section-2"],
  ["url in sentence", "See https://github.com/openai/tiktoken/blob/main/README.md for details."],
  ["email", "Contact jane.doe+filter@sub.example.co.uk today."],
  ["file paths", "/usr/local/bin/go C:\\Program Files\\App\\app.exe ./relative/../path"],
  ["uuid", "550e8400-e29b-41d4-a716-446655440000"],
  ["sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ["base64 blob", "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="],
  ["ipv6 and port", "[2001:db8::1]:8080 192.168.0.1:443"],
  ["data uri", "data:text/plain;charset=utf-8,Hello%2C%20World%21"],
];
for (const [n, t] of urls) text(`url/${n}`, "URLs and identifiers: punctuation-heavy strings with few spaces", t);

// --- long words ---------------------------------------------------------------------------
const words = [
  ["supercalifragilistic", "supercalifragilisticexpialidocious"],
  ["pneumono", "pneumonoultramicroscopicsilicovolcanoconiosis"],
  ["german compound", "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft"],
  ["finnish", "lentokonesuihkuturbiinimoottoriapumekaanikkoaliupseerioppilas"],
  ["camelCase identifier", "AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor"],
  ["snake_case identifier", "get_user_account_preferences_from_remote_configuration_service"],
  ["welsh place name", "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"],
  ["no-space chinese run", "中华人民共和国万岁世界人民大团结万岁".repeat(3)],
];
for (const [n, t] of words) text(`word/${n}`, "long words: one regex piece that byte-pair merging must split", t);

// --- long and pathological inputs ----------------------------------------------------------
repeat("long/a×100000", "100 kB of one letter: one regex piece; superlinear merging shows here", "a", 100000);
repeat("long/a×8000", "a shorter single-letter run, cheap enough for the reference backend under -race", "a", 8000);
repeat("long/space×10000", "a long white-space run", " ", 10000);
repeat("long/newline×2000", "a long newline run", "\n", 2000);
repeat("long/digits×3000", "a long digit run: cl100k groups digits by three", "1234567890", 300);
repeat("long/ab×5000", "two letters alternating in one long piece", "ab", 5000);
repeat("long/endoftext×2000 in 100 kB", "2,000 special-token texts between filler, all ordinary text", "<|endoftext|> filler text between markers, and more.", 2000);
repeat("long/emoji×2000", "2,000 four-byte characters without spaces", "🦀", 2000);
repeat("long/CJK×5000", "5,000 three-byte characters without spaces", "中文字", 1667);
repeat("long/punctuation×5000", "a long run of one symbol", "=", 5000);
repeat("long/prose paragraph×50", "realistic longer text", "The committee met on Tuesday to review the quarterly results, which showed a modest increase in revenue. ", 50);
repeat("long/zalgo×200", "a long run of combining marks", "e\u0301\u0302\u0303\u0304", 200);

// --- invalid UTF-8 --------------------------------------------------------------------------
bytes("invalid/lone continuation byte", "a stray 0x80 becomes one U+FFFD", [0x80]);
bytes("invalid/two continuation bytes", "each stray continuation byte is its own maximal subpart", [0x61, 0x80, 0x80, 0x62]);
bytes("invalid/0xFF", "a byte that never occurs in UTF-8", [0x68, 0x69, 0xff, 0x21]);
bytes("invalid/truncated three-byte sequence", "E4 B8 is one maximal subpart (one U+FFFD)", [0x41, 0xe4, 0xb8, 0x42]);
bytes("invalid/truncated at end", "a sequence cut off by the end of the text", [0x6f, 0x6b, 0xf0, 0x9f, 0x98]);
bytes("invalid/surrogate encoded", "ED A0 80 (a UTF-16 surrogate) is three subparts", [0x78, 0xed, 0xa0, 0x80, 0x79]);
bytes("invalid/overlong slash", "C0 AF is two subparts", [0x2f, 0xc0, 0xaf, 0x2f]);
bytes("invalid/above U+10FFFF", "F4 90 80 80 is four subparts", [0xf4, 0x90, 0x80, 0x80]);
bytes("invalid/inside a word", "an invalid byte between letters splits nothing else", [...Buffer.from("hel"), 0xfe, ...Buffer.from("lo world")]);
bytes("invalid/latin-1 text", "ISO-8859-1 bytes read as UTF-8", [...Buffer.from("caf"), 0xe9, 0x20, ...Buffer.from("na"), 0xef, 0x76, 0x65]);
bytes("invalid/valid emoji then stray bytes", "continuation bytes right after a valid four-byte character", [...Buffer.from("🦀"), 0x80, 0xbf, 0x20, 0x61]);

// --- generated: seeded random mixtures ------------------------------------------------------
// mulberry32: a tiny deterministic PRNG, so regenerating gives the same strings.
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(20240601);
const pools = [
  [..."abcdefghijklmnopqrstuvwxyz"],
  [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"],
  [..."0123456789"],
  [..." \t\n\r"],
  [..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"],
  [..."éüñßøçàÅÆŒ"],
  [..."中文日本語한국어"],
  ["🦀", "👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️", "🏳️‍🌈"],
  ["\u0301", "\u0308", "\u0323", "\u200d", "\ufe0f"],
  [..."مرحباשלום"],
  ["<|endoftext|>", "<|fim_prefix|>", "'s", "'LL", " the", "\r\n"],
];
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
for (let i = 0; i < 48; i++) {
  const length = 1 + Math.floor(rand() * 120);
  // Each string draws from two to four pools, so runs of one class alternate with others.
  const mine = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(pools));
  let s = "";
  while ([...s].length < length) {
    const pool = pick(mine);
    const run = 1 + Math.floor(rand() * 6);
    for (let j = 0; j < run; j++) s += pick(pool);
  }
  text(`generated/mix ${String(i).padStart(2, "0")}`, "seeded random mixture of character classes, to reach regex paths the hand-written cases miss", s);
}

const lines = cases.map((c) => "  " + JSON.stringify(c));
const file =
  "{\n" +
  ' "comment": "Inputs for the tiktoken golden tests. Written by tools/tiktoken-golden/strings.mjs; do not edit by hand. Each case has text, repeat {unit, times} or base64 (raw bytes, for invalid UTF-8).",\n' +
  ' "cases": [\n' +
  lines.join(",\n") +
  "\n ]\n}\n";
writeFileSync(out, file);
console.error(`wrote ${cases.length} cases to ${out}`);
