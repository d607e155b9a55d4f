// Chunks every corpus of an evaluation set in Chroma's format with LangChain.js
// MarkdownTextSplitter, its length measured in cl100k_base tokens by js-tiktoken, and writes
// one JSON line per chunk: {"corpus", "start", "end", "text"}, offsets in code points of the
// corpus file (line endings normalized as Python's text mode does), so that
// `chunkkit bench --peer langchain=FILE` scores the chunks with the same retriever and metrics
// as its own.
//
//   node split.mjs --eval DIR [--max-tokens 256] [--overlap-tokens 0] > chunks.jsonl
import { readdirSync, readFileSync } from "node:fs";
import { join, extname, basename } from "node:path";
import { MarkdownTextSplitter } from "@langchain/textsplitters";
import { getEncoding } from "js-tiktoken";

function args() {
  const out = { eval: "", maxTokens: 256, overlap: 0 };
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const v = a[i + 1];
    switch (a[i]) {
      case "--eval": out.eval = v; i++; break;
      case "--max-tokens": out.maxTokens = Number(v); i++; break;
      case "--overlap-tokens": out.overlap = Number(v); i++; break;
      default: throw new Error(`unknown argument ${a[i]}`);
    }
  }
  if (!out.eval) throw new Error("usage: node split.mjs --eval DIR [--max-tokens N] [--overlap-tokens N]");
  return out;
}

const opts = args();
const enc = getEncoding("cl100k_base");
// Special-token text such as <|endoftext|> is ordinary text here, as in chunkkit's counters.
const length = (t) => enc.encode(t, [], []).length;
const splitter = new MarkdownTextSplitter({ chunkSize: opts.maxTokens, chunkOverlap: opts.overlap, lengthFunction: length });

const dir = join(opts.eval, "corpora");
let missing = 0;
for (const name of readdirSync(dir).sort()) {
  if (![".md", ".txt"].includes(extname(name))) continue;
  const corpus = basename(name, extname(name));
  const text = readFileSync(join(dir, name), "utf8").replace(/\r\n?/g, "\n");
  const chunks = await splitter.splitText(text);
  // Chunks are substrings of the text in order; find each after the start of the previous
  // one, counting code points (not UTF-16 units) as the evaluation set does.
  let cursor = 0, u16 = 0, cp = 0;
  const cpAt = (i) => {
    for (; u16 < i; u16++, cp++) {
      const c = text.charCodeAt(u16);
      if (c >= 0xd800 && c < 0xdc00) u16++;
    }
    return cp;
  };
  for (const chunk of chunks) {
    const at = text.indexOf(chunk, cursor);
    if (at < 0) { missing++; continue; }
    const start = cpAt(at);
    const end = start + [...chunk].length;
    process.stdout.write(JSON.stringify({ corpus, start, end, text: chunk }) + "\n");
    cursor = at + 1;
  }
}
if (missing > 0) {
  process.stderr.write(`langchain-eval: ${missing} chunks were not found in their corpus and are left out\n`);
  process.exit(1);
}
