// bench.mjs measures how fast OpenAI's tiktoken (npm tiktoken, its Rust core as WASM) counts
// tokens, on the same text as plugins/tiktoken's BenchmarkCount, and prints Go benchmark
// format so that benchstat reads it beside the Go results:
//
//   node bench.mjs PATH [-count N] [-enc cl100k_base,o200k_base]
//
// PATH is a text file, or a corpus directory built by ../shared/tools/build-corpus.sh: then
// its English files (MANIFEST.tsv paths starting "en-"), in manifest order, until about
// 4,000,000 bytes — the selection BenchmarkCount makes. Each sample encodes every text once
// with encode_ordinary (special-token text is text) and prints
//
//   BenchmarkCount/backend=npm-tiktoken/enc=ENC-P  1  NS ns/op  MBS MB/s  TOKENS tokens/op
//
// where P is the number of CPUs, as Go's GOMAXPROCS suffix, and MB is 10^6 bytes, as in Go.

import { readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { get_encoding } from "tiktoken";

const CORPUS_BYTES = 4_000_000;

function usage(msg) {
  console.error(`${msg}\nusage: node bench.mjs PATH [-count N] [-enc cl100k_base,o200k_base]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let path = null, count = 6, encodings = ["cl100k_base", "o200k_base"];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "-count") count = Number(args[++i]);
  else if (args[i] === "-enc") encodings = String(args[++i]).split(",");
  else if (path === null) path = args[i];
  else usage(`unexpected argument ${args[i]}`);
}
if (path === null) usage("missing PATH");
if (!Number.isInteger(count) || count < 1) usage("-count must be a positive integer");

function loadTexts(p) {
  if (!statSync(p).isDirectory()) return [readFileSync(p, "utf8")];
  const lines = readFileSync(join(p, "MANIFEST.tsv"), "utf8").trim().split("\n");
  const texts = [];
  let total = 0;
  for (const line of lines.slice(1)) {
    const rel = line.split("\t")[0];
    if (!rel.startsWith("en-")) continue;
    const b = readFileSync(join(p, rel));
    texts.push(b.toString("utf8"));
    total += b.length;
    if (total >= CORPUS_BYTES) break;
  }
  return texts;
}

const texts = loadTexts(path);
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t, "utf8"), 0);
const procs = availableParallelism();
console.log(`# npm tiktoken on ${texts.length} texts, ${bytes} bytes from ${path}`);
for (const name of encodings) {
  const enc = get_encoding(name);
  const countAll = () => texts.reduce((n, t) => n + enc.encode_ordinary(t).length, 0);
  countAll(); // warm-up: the first call pays for building the encoder's tables
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    const tokens = countAll();
    const ns = Number(process.hrtime.bigint() - started);
    const mbs = bytes / 1e6 / (ns / 1e9);
    console.log(`BenchmarkCount/backend=npm-tiktoken/enc=${name}-${procs} \t1\t${ns} ns/op\t${mbs.toFixed(2)} MB/s\t${tokens} tokens/op`);
  }
  enc.free();
}
