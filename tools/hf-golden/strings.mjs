// strings.mjs writes plugins/hftokenizer/testdata/strings.json: the inputs that generate.mjs
// runs through HuggingFace tokenizers (npm @anush008/tokenizers) with every reference
// tokenizer.json, and that the Go tests of plugins/hftokenizer run through the Go tokenizer.
// Every string is written out by hand below, grouped by what it tests; the only computed ones
// are repetitions (" ".repeat(50)), so running the script again gives the same file byte for
// byte.
//
//   node strings.mjs [OUT]   (default ../../plugins/hftokenizer/testdata/strings.json)
//
// The file is a JSON array of strings, one a line, in the order below. JavaScript strings
// cannot hold invalid UTF-8, and the script refuses lone surrogates, so every string is valid
// UTF-8 once written. Duplicates are refused too.

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? resolve(here, "../../plugins/hftokenizer/testdata/strings.json");

const strings = [];
const seen = new Set();
// add appends each string of group, refusing duplicates and lone surrogates.
function add(group, ...xs) {
  for (const s of xs) {
    if (typeof s !== "string") throw new Error(`${group}: not a string: ${s}`);
    if (!s.isWellFormed()) throw new Error(`${group}: lone surrogate in ${JSON.stringify(s)}`);
    if (seen.has(s)) throw new Error(`${group}: duplicate ${JSON.stringify(s)}`);
    seen.add(s);
    strings.push(s);
  }
}

// --- edges ----------------------------------------------------------------------------------
add("edge",
  "",
  "a",
  "A",
  " ",
  "\n",
  "\t",
  "7",
  ".",
  "Hello world",
  "hello world",
  " Hello world",
  "Hello world ",
);

// --- English prose ----------------------------------------------------------------------------
add("prose",
  "The quick brown fox jumps over the lazy dog.",
  "It was the best of times, it was the worst of times.",
  "Why? Because! How? Like this.",
  "Dr. Smith met Mr. J. R. R. Tolkien at 5 p.m. on Jan. 3, e.g. at the pub, i.e. the Eagle and Child.",
  "state-of-the-art, well-known, up-to-date, mother-in-law",
  "\"Where are you going?\" she asked. \"Out,\" he said, and shut the door.",
  "It’s what we’d do, isn’t it? ‘Single’ and “double” curly quotes.",
  "Well… I suppose — no, I know – it’s fine.",
  "Chunking splits a long document into pieces that each fit a model's context window. " +
    "A good chunker keeps sentences and paragraphs whole where it can, reports where each " +
    "chunk starts and ends in the original text, and counts tokens with the same tokenizer " +
    "the model uses, so that a chunk said to hold 512 tokens really does. When the text has " +
    "headings, lists or code blocks, the chunker should prefer to cut between them rather " +
    "than in the middle of one.",
  "First paragraph, line one.\nLine two.\n\nSecond paragraph.\n\n\nThird paragraph, after two blank lines.",
  "# Installation\n\n## Requirements\n\n- Go 1.26\n- Node.js 20\n\nRun `make test` to check.\n",
  "| name | value |\n|------|------:|\n| a    |     1 |\n| b    |    22 |\n",
  "Some *emphasis*, **strong**, `code`, and [a link](https://example.com/docs).",
  "1. First\n2. Second\n3. Third\n10. Tenth\n",
  "> To be, or not to be, that is the question:\n> Whether 'tis nobler in the mind to suffer\n",
  "Notwithstanding the foregoing, the Licensee shall not, without prior written consent, sublicense the Software.",
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.",
  "Wait... what?!?! No -- really; yes: (maybe) [perhaps] {never}.",
  "The half-life of carbon-14 is approximately 5,730 years (±40 years).",
  "supercalifragilisticexpialidocious and pneumonoultramicroscopicsilicovolcanoconiosis",
  "AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor",
  "get_user_account_preferences_from_remote_configuration_service",
);

// --- contractions -----------------------------------------------------------------------------
add("contractions",
  "I'm sure you'll see they've said it's what we'd do, and I don't mind.",
  "It's John's car; they're here; we've gone; I'd go; you'll see; don't.",
  "IT'S JOHN'S; THEY'RE; WE'VE; I'D; YOU'LL; DON'T",
  "it'S we'Re they'VE you'Ll I'M she'D",
  "'s 're 've 'm 'll 'd 't",
  "'S 'RE 'VE 'M 'LL 'D 'T",
  "James's book, the dogs' bowls, Chris' car.",
  "rock 'n' roll, 'tis, 'twas, o'clock, y'all",
);

// --- upper case and repeated characters ---------------------------------------------------------
add("upper",
  "IEEE",
  "NASA",
  "HTTP",
  "IEEE 754, NASA JPL and HTTP/2 over TLS",
  "WARNING: DO NOT OPERATE HEAVY MACHINERY AFTER READING THIS.",
  "The IEEE standard and the HTTPS protocol, per NASA.",
  "XMLHttpRequest JSONDecoder HTMLElement URLSession",
);
add("repeated",
  "00000000",
  "0000000000000000",
  "aaaaaaaaaaaa",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "!!!!!!!",
  "====",
  "----",
  "================================================================",
  "----------------------------------------",
  "________________",
  "********",
  "........",
  "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
  "abababababababababababab",
  "lolololololol hahahahaha",
  "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
  "a".repeat(100),
  "a".repeat(101),
  "a".repeat(1000),
  "x".repeat(100) + " short " + "y".repeat(101),
);

// --- numbers --------------------------------------------------------------------------------
add("numbers",
  "0",
  "42",
  "1234567890",
  "1 12 123 1234 12345 123456 1234567",
  "3.14159265358979323846",
  "-42 +7 6.022e23 1.6E-19",
  "1,000,000 and 1.000.000 and 1 000 000",
  "$1,234.56 €99,99 £5 ¥1000 ₹250",
  "2024-02-29T23:59:59.999Z and 12/31/1999 11:59 PM",
  "v1.2.3-rc.1+build.456 go1.26.0",
  "0xDEADBEEF 0b101010 0o777 #FF00AA",
  "+1 (555) 123-4567",
  "x² + y³ = ½ ¼ ¾ ⅓ Ⅻ",
  "１２３４５ and ٠١٢٣٤٥٦٧٨٩ and ०१२३",
  "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679",
  "Version 2.0.1 was released on 2023-10-05 with 99.9% uptime.",
);

// --- code -----------------------------------------------------------------------------------
add("code",
  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(i)\n\t}\n}\n",
  "type Chunk struct {\n\tID      string `json:\"id\"`\n\tContent string `json:\"content\"`\n}\n",
  "if err != nil {\n\treturn fmt.Errorf(\"reading %s: %w\", path, err)\n}",
  "func (c *Counter) Count(ctx context.Context, texts []string) ([]int, error) {\n\tout := make([]int, len(texts))\n\treturn out, nil\n}\n",
  "class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n        self.items.append(x)\n",
  "@dataclass(frozen=True)\nclass P:\n    x: int = 0\n\nprint(f\"{p.x!r:>10}\")\n",
  "def f(xs):\n\treturn [x ** 2 for x in xs if x % 2 == 0]  # squares of evens\n",
  "import numpy as np\nimport torch\n\nx = torch.randn(3, 4).cuda()\n",
  "{\"name\": \"chunkkit\", \"version\": \"1.0.0\", \"tags\": [\"a\", \"b\"], \"nested\": {\"x\": null, \"y\": true}}",
  "{\n  \"model\": \"gpt2\",\n  \"max_tokens\": 512,\n  \"stop\": [\"\\n\\n\", \"<|endoftext|>\"]\n}\n",
  "[1,2,3,{\"a\":[],\"b\":{}},null,false,-0.5e10]",
  "#!/usr/bin/env bash\nset -euo pipefail\nfind . -name '*.go' | xargs grep -l 'TODO' | sort -u > /tmp/todo.txt 2>&1\n",
  "for f in *.md; do\n  wc -w \"$f\"\ndone\n",
  "build:\n\tgo build ./...\n\ntest: build\n\tgo test -race ./...\n",
  "const add = (a, b) => a + b;\nexport default async function main() { await fetch(`/api/${id}`); }\n",
  "#include <stdio.h>\nint main(int argc, char **argv) {\n    printf(\"%s\\n\", argv[0]);\n    return 0;\n}\n",
  "SELECT u.id, COUNT(*) AS n\nFROM users u\nLEFT JOIN orders o ON o.user_id = u.id\nWHERE u.created_at >= '2024-01-01'\nGROUP BY u.id;\n",
  "<!DOCTYPE html>\n<html lang=\"en\">\n<body><p class=\"x\">Hi &amp; bye</p></body>\n</html>\n",
  "impl<'a> Iterator for Tokens<'a> {\n    type Item = &'a str;\n    fn next(&mut self) -> Option<Self::Item> { None }\n}\n",
  "^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+)@example\\.com$",
  "--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,3 @@\n-old line\n+new line\n context\n",
  "\\begin{equation}\n  E = mc^2 \\quad \\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}\n\\end{equation}\n",
  "if (x) {\r\n    y();\r\n}\r\n",
  "\t\t\treturn nil\n\t\t}\n\t}\n}",
);

// --- white space ----------------------------------------------------------------------------
add("whitespace",
  "  ",
  "   ",
  "    ",
  " ".repeat(8),
  " ".repeat(15),
  " ".repeat(16),
  " ".repeat(17),
  " ".repeat(31),
  " ".repeat(32),
  " ".repeat(50),
  " ".repeat(60),
  " ".repeat(50) + "word",
  "word" + " ".repeat(50),
  "a" + " ".repeat(50) + "b",
  "a b  c   d    e     f      g       h",
  "  two leading spaces",
  "two trailing spaces  ",
  " both ",
  "\t\t",
  "a\tb\t\tc\t\t\td",
  "\t\t\tindented with tabs",
  "\n\n\n",
  "\n\n\nafter three newlines",
  "line one\nline two\n",
  "line one\r\nline two\r\nline three\r\n",
  "\r\n",
  "\r\n\r\n",
  "\r",
  "unix\nwindows\r\nold mac\rmixed\n\r\n",
  "text   \n   more",
  " \n \n \n",
  "\t\n\t\r\n \t \n",
  " \t \r\n \u00a0 \u3000 ",
  "a\u000bb\u000cc",
  "    four spaces\n        eight spaces\n    back\n",
  "func f() {\n\tx := 1\n\t\n\t\n\treturn x\n}\n",
  "end.\n\n\n\n\n\nStart.",
  "a\u2028b\u2029c",
);

// --- control and invisible characters -----------------------------------------------------------
add("control",
  "\u0000",
  "a\u0000b",
  "bell\u0007ring",
  "\u0007",
  "zero\u200bwidth",
  "\u200b",
  "\ufeff",
  "\ufeffHello, BOM",
  "100\u00a0km",
  "\u00a0",
  "non\u00a0breaking\u00a0spaces\u00a0here",
  "x\u007f\u0085\u009fy",
  "zero\u200bwidth\u200cnon\u200djoiner\u2060word",
  "soft\u00adhyphen",
  "\u001b[31mred\u001b[0m",
  "tab\u0009and\u0001soh\u001fus",
  "a\ufffdb",
  "private use \ue000\uf8ff",
);

// --- accents and Unicode normalization forms ------------------------------------------------------
add("accents",
  "Café",
  "café",
  "CAFÉ",
  "naïve",
  "déjà vu",
  "Ångström",
  "e\u0301",
  "cafe\u0301",
  "Cafe\u0301 na\u0131\u0308ve",
  "\u00e9 e\u0301 \u00c5 A\u030a \u212b",
  "re\u0301sume\u0301 vs r\u00e9sum\u00e9",
  "A\u030angstro\u0308m",
  "\u0301leading combining mark",
  "a" + "\u0301\u0300\u0302\u0303\u0308".repeat(6),
  "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319A\u036b\u0357\u0334\u0362\u0335\u031cL\u0368\u0367G\u0311\u0357\u030eO\u0342\u030c\u0328",
  "Vie\u0323\u0302t Nam and Vi\u1ec7t Nam",
  "ﬁnance ﬂow ﬀ ﬃ",
  "ＡＢＣ１２３ｘｙｚ！？",
  "ℌ𝔢𝔩𝔩𝔬 𝐁𝐨𝐥𝐝 𝒮𝒸𝓇𝒾𝓅𝓉",
  "İstanbul ılık; DİYARBAKIR ıI iİ",
  "Straße STRASSE ß ẞ",
  "Œuvre, œuf, Æsir, æther",
);

// --- other languages ---------------------------------------------------------------------------
add("languages",
  "Größere Straßen führen über die Brücke; übermäßig schöne Äpfel.",
  "Der Donaudampfschifffahrtskapitän fährt morgen früh nach Wien.",
  "Où est la bibliothèque ? Ça va très bien, merci. L'été à Noël.",
  "Les élèves n'ont pas compris l'énoncé : « Qu'est-ce que c'est ? »",
  "¿Dónde está el niño? ¡Mañana será otro día!",
  "Съешь же ещё этих мягких французских булок, да выпей чаю.",
  "Привет, мир! Это проверка токенизатора.",
  "مرحبا بالعالم، هذا اختبار للنص العربي.",
  "بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ",
  "नमस्ते दुनिया, यह एक परीक्षण है।",
  "हिन्दी भारत की राजभाषा है।",
  "สวัสดีครับ ภาษาไทยไม่มีช่องว่างระหว่างคำ",
  "שלום עולם, זהו מבחן של טקסט בעברית.",
  "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
  "Tiếng Việt có dấu: Người ta thường nói rằng.",
  "தமிழ் மொழி அழகானது",
  "The word שלום means peace; كلمة سلام too.",
  "Zażółć gęślą jaźń.",
  "Příliš žluťoučký kůň úpěl ďábelské ódy.",
);

// --- CJK -------------------------------------------------------------------------------------
add("cjk",
  "中",
  "中文",
  "我们今天去公园散步，天气非常好。",
  "這是一個測試句子，包含繁體中文字。",
  "使用Go语言编写的chunkkit工具，版本1.2.3。",
  "人工智能是计算机科学的一个分支，它企图了解智能的实质，并生产出一种新的能以人类智能相似的方式做出反应的智能机器。\n该领域的研究包括机器人、语言识别、图像识别、自然语言处理和专家系统等。",
  "ひらがな",
  "カタカナ",
  "東京は日本の首都です。ひらがなとカタカナとKanjiを混ぜます。",
  "コンピュータ・プログラミング・ランゲージ",
  "ｺﾝﾋﾟｭｰﾀ ﾃｽﾄ",
  "2024年3月15日（金）午後3時45分に会議があります。",
  "안녕하세요",
  "안녕하세요. 오늘 날씨가 정말 좋네요! 한국어 테스트입니다.",
  "\u1100\u1161\u11a8 \u1112\u1161\u11ab",
  "「引用」『二重』【括弧】〈山〉《書名》、。・…",
  "全角\u3000スペース\u3000です",
  "𠀀𠀁𠀂𪚥𩸽",
  "中华人民共和国万岁世界人民大团结万岁中华人民共和国万岁世界人民大团结万岁",
  " 中文 café",
);

// --- emoji ------------------------------------------------------------------------------------
add("emoji",
  "😀",
  "🦀",
  "é😀a",
  "I love 🍕 and 🎉!",
  "🔥🔥🔥💯💯🚀🚀🚀",
  "👍",
  "👍🏻👍🏼👍🏽👍🏾👍🏿",
  "👋🏽 hello",
  "👨‍👩‍👧‍👦",
  "👩🏽‍💻 🧑‍🚀 👨🏿‍🍳",
  "🏳️‍🌈",
  "🇺🇸",
  "🇺🇸🇯🇵🇩🇪🇫🇷🇧🇷",
  "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
  "1️⃣ 2️⃣ #️⃣",
  "☺︎ ☺️ ❤ ❤️ ✔︎",
  "Deploy done ✅ — tests green 🟢, coverage 📈 up.",
  "🫶🏼🫰🏻🤌🏾",
);

// --- URLs, e-mail addresses and identifiers --------------------------------------------------------
add("urls",
  "https://www.example.com/path/to/page?query=1&lang=en#section-2",
  "See https://github.com/huggingface/tokenizers/blob/main/README.md for details.",
  "http://localhost:8080/api/v1/users/42",
  "jane.doe+filter@sub.example.co.uk",
  "Contact support@example.com or admin@example.org today.",
  "/usr/local/bin/go C:\\Program Files\\App\\app.exe ./relative/../path",
  "550e8400-e29b-41d4-a716-446655440000",
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "[2001:db8::1]:8080 192.168.0.1:443",
  "@user #hashtag $TICKER ~tilde ^caret",
);

// --- special-token text ---------------------------------------------------------------------
// Which of these are added tokens depends on the file: <|endoftext|> in gpt2, gpt35turbo, gpt4o
// and qwen3; <s> </s> <unk> in llama2; [CLS] [SEP] [MASK] in bert-base-uncased; <|im_start|>
// <|im_end|> <think> </think> in qwen3; <|begin_of_text|> <|end_of_text|> in llama3;
// <|endofprompt|> in gpt35turbo and gpt4o. HF matches added tokens in the input even with
// addSpecialTokens false, so the goldens show how each file splits around them.
add("special",
  "<|endoftext|>",
  "<|endoftext|>Document starts here.",
  "Document one ends here.<|endoftext|>Document two starts here.",
  "The end.<|endoftext|>",
  "<|endoftext|><|endoftext|>",
  "<|endoftext|> <|endoftext|>",
  "before <|endoftext|> after",
  " <|endoftext|> ",
  "\n<|endoftext|>\n",
  "abc<|endoftext|>def",
  "<|endoftext|",
  "< |endoftext|>",
  "<|endoftext |>",
  "<|ENDOFTEXT|>",
  "|endoftext|>",
  "<|endoftext|>>",
  "<<|endoftext|>",
  "<s>",
  "</s>",
  "<unk>",
  "<s>Hello</s>",
  "<s> Hello world </s>",
  "Hello world</s>there",
  "an <unk> word",
  "[CLS]",
  "[SEP]",
  "[MASK]",
  "[PAD]",
  "[UNK]",
  "[CLS] The capital of France is [MASK]. [SEP]",
  "[cls] lower-case [sep]",
  "<|im_start|>",
  "<|im_end|>",
  "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n",
  "<|begin_of_text|>",
  "<|end_of_text|>",
  "<|begin_of_text|>Hello<|end_of_text|>",
  "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>",
  "<|endofprompt|>",
  "question<|endofprompt|>answer",
  "<|fim_prefix|>def f():<|fim_suffix|>    return 1<|fim_middle|>",
  "<think>",
  "</think>",
  "<think>\nLet me reason step by step.\n</think>\n\nThe answer is 4.",
  "<think></think>",
  "tokenizer.encode(\"<|endoftext|>\", allowed_special=\"all\")",
  "<|endoftext|><s></s>[CLS]<|im_start|><think><|begin_of_text|>",
);

const body = strings.map((s) => "  " + JSON.stringify(s)).join(",\n");
writeFileSync(out, "[\n" + body + "\n]\n");
console.error(`wrote ${strings.length} strings to ${out}`);
