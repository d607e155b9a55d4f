// generate.mjs writes adapters/doc2mark/testdata/tokens.json: token-mode cases of doc2mark's
// chunk_content with the chunks that chunk_content.mjs returns for them, lengths and overlap
// tails measured by OpenAI's tiktoken (npm tiktoken, its Rust core compiled to WASM).
//
//   cd tools/doc2mark-golden && npm ci && node check.mjs && node generate.mjs [OUT]
//
// check.mjs first: it holds chunk_content.mjs to doc2mark's own outputs. The inputs are
// written out below; nothing is random. Every case is refused when doc2mark's result would
// carry a U+FFFD made by decoding a token tail that starts inside a character (a documented
// difference of the Go twin, tested on its own in the Go package), so the file holds only
// what the Go twin must match exactly.
//
// Output format: {"comment", "tiktoken" (version), "cases": [{"name", "why", "input",
// "config", "output_chunks"}]}, the shape of ../shared/fixtures/doc2mark/chunk_content_cases.json.

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { get_encoding } from "tiktoken";
import { chunkContent } from "./chunk_content.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const outPath = process.argv[2] ?? resolve(here, "../../adapters/doc2mark/testdata/tokens.json");
const PINNED = "1.0.22";
const version = JSON.parse(readFileSync(resolve(here, "node_modules/tiktoken/package.json"), "utf8")).version;
if (version !== PINNED) throw new Error(`npm tiktoken is ${version}, want ${PINNED}: run npm ci`);

const encodings = new Map();
function getEncoding(name) {
  if (!encodings.has(name)) encodings.set(name, get_encoding(name));
  return encodings.get(name);
}

const N = (content, extra = {}) => ({ type: "text:normal", content, ...extra });
const T = (content, extra = {}) => ({ type: "text:title", content, ...extra });
const S = (content, extra = {}) => ({ type: "text:section", content, ...extra });

const prose = [
  "Retrieval pipelines cut documents into chunks before they embed them, and the cut decides what a search can find.",
  "A chunk that ends in the middle of a table row, or that starts with half a sentence, is hard to rank and harder to read.",
  "Tokenizers count differently from people: a long word can be four tokens, and a run of spaces can be one.",
  "Budgets are set in tokens because models are priced and limited in tokens, not in characters or words.",
  "Overlap repeats the end of one chunk at the start of the next, so that a sentence cut at a boundary is still whole somewhere.",
  "Footnotes belong with the text that cites them; a definition far from its reference answers nobody's question.",
  "Page numbers let a reader go back to the source, which matters most when the source is a scanned contract.",
  "Headings give a chunk its context: the same sentence means something else under Methods than under Results.",
];

const cases = [
  {
    name: "tokens: a section that fits in tokens is one chunk even when it is long in characters",
    why: "the section is about 90 tokens and over 400 code points: one chunk at 100 tokens, where 100 code points would split it",
    input: [T("Why chunking matters"), N(prose[0]), N(prose[1]), N(prose[2])],
    config: { size_unit: "tokens", max_chunk_size: 100, overlap: 10 },
  },
  {
    name: "tokens: items are packed by token counts with the separator counted in tokens",
    why: "max 45 tokens: items of about 20 tokens pack two to a chunk at most",
    input: prose.map((p, i) => N(p, { page: i + 1 })),
    config: { size_unit: "tokens", max_chunk_size: 45, overlap: 0 },
  },
  {
    name: "tokens: the overlap is the last tokens of the previous chunk cut after their first space",
    why: "overlap 12 tokens, decoded and cut after the first space",
    input: [S("Overlap"), ...prose.slice(3).map((p) => N(p))],
    config: { size_unit: "tokens", max_chunk_size: 40, overlap: 12 },
  },
  {
    name: "tokens: overlap cascades through chunks of fewer tokens than the overlap",
    why: "each packed chunk is a few tokens, the overlap 30: every chunk repeats all earlier ones until they pass 30 tokens",
    input: ["alpha beta", "gamma delta", "epsilon zeta", "eta theta", "iota kappa", "lambda mu", "nu xi", "omicron pi"].map((p) => N(p)),
    config: { size_unit: "tokens", max_chunk_size: 4, overlap: 30 },
  },
  {
    name: "tokens: a table is kept whole past the token limit",
    why: "the table alone is over 40 tokens; keep_tables_whole appends it to the open chunk",
    input: [
      N("Results are in the table below."),
      { type: "table", content: "| Metric | Value |\n| --- | --- |\n| Accuracy | 95.2% |\n| F1 Score | 0.93 |\n| Recall | 0.91 |\n| Precision | 0.95 |\n\n", page: 3 },
      N("In conclusion, the approach works well.", { page: 3 }),
    ],
    config: { size_unit: "tokens", max_chunk_size: 30, overlap: 5 },
  },
  {
    name: "tokens: sections, footnotes and pages in o200k_base",
    why: "another encoding; a footnote attached where referenced, one left to the last chunk; overlap across sections",
    input: [
      T("Introduction", { page: 1 }),
      N("This is the first paragraph on page one. [^1]", { page: 1 }),
      N("Some more text on the first page with details.", { page: 1 }),
      { type: "text:header", content: "ACME Corp — Confidential" },
      S("Methodology", { page: 2 }),
      N("The methodology section begins on page two.", { page: 2 }),
      N("We use a novel approach combining X and Y. [^en1]", { page: 2 }),
      S("Results", { page: 3 }),
      N(prose[6], { page: 3 }),
      N(prose[7], { page: 3 }),
      { type: "text:footnote", content: "[^en1]: An endnote providing additional context.", page: 3 },
      { type: "text:footnote", content: "[^1]: This is a test footnote about the first paragraph.", page: 3 },
      { type: "text:footnote", content: "1. Source: Internal financial data, Q3 2025.", page: 3 },
    ],
    config: { size_unit: "tokens", encoding_name: "o200k_base", max_chunk_size: 25, overlap: 8 },
  },
  {
    name: "tokens: accented and CJK text with spaces",
    why: "multi-byte characters split over several tokens; the tails hold spaces, so the cut drops any broken first character",
    input: [
      T("Métodos y 方法"),
      N("La méthode décrite ici s'applique à des documents où les phrases sont longues et riches en accents."),
      N("这个 方法 适用于 很多 文档 类型 以及 不同 的 语言 环境 和 场景。"),
      N("Größere Dokumente werden in Abschnitte geteilt, bevor die Übersetzung beginnt."),
      N("日本語 の 文書 も 同じ よう に 処理 され ます。"),
    ],
    config: { size_unit: "tokens", max_chunk_size: 30, overlap: 9 },
  },
  {
    name: "tokens: seams where the tokenizer merges across the separator",
    why: "chunks that end in spaces and start with newlines tokenize differently once joined, so predicted tails must be corrected",
    input: [
      N("first   "), N("\n\nsecond part   "), N("\n third   "), N("  \n\nfourth  "), N("\nfifth piece of text  "), N("sixth"),
    ],
    config: { size_unit: "tokens", max_chunk_size: 3, overlap: 4 },
  },
  {
    name: "tokens: defaults with size_unit tokens",
    why: "max 1500 and overlap 200 tokens: a long document in two chunks, the second starting with a 200-token tail",
    input: Array.from({ length: 60 }, (_, i) => N(`${i + 1}. ${prose[i % prose.length]}`)),
    config: { size_unit: "tokens" },
  },
];

for (const c of cases) {
  c.output_chunks = chunkContent(c.input, c.config, getEncoding);
  for (const ch of c.output_chunks) {
    if (ch.content.includes("\uFFFD")) throw new Error(`case ${c.name}: a chunk holds U+FFFD from a broken token tail`);
  }
}

const out = {
  comment: "Token-mode doc2mark chunk_content cases: outputs from tools/doc2mark-golden/chunk_content.mjs with npm tiktoken (content_types compare as a set). Regenerate: cd tools/doc2mark-golden && npm ci && node check.mjs && node generate.mjs",
  tiktoken: version,
  cases: cases.map(({ name, why, input, config, output_chunks }) => ({ name, why, input, config, output_chunks })),
};
writeFileSync(outPath, JSON.stringify(out, null, 1) + "\n");
console.log(`wrote ${cases.length} cases to ${outPath}`);
for (const c of cases) console.log(`  ${c.output_chunks.length} chunks  ${c.name}`);
