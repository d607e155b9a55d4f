// bench.mjs measures how fast OpenAI's tiktoken (npm tiktoken, its Rust core as WASM) and
// gpt-tokenizer (npm, pure JavaScript, with its merge cache) count tokens, on the same text as
// plugins/tiktoken's BenchmarkCount, and prints Go benchmark format so that benchstat reads it
// beside the Go results:
//
//   node bench.mjs PATH [-count N] [-enc cl100k_base,o200k_base] [-impl npm-tiktoken,gpt-tokenizer]
//
// PATH is a text file, or a corpus directory built by ../shared/tools/build-corpus.sh: then
// its English files (MANIFEST.tsv paths starting "en-"), in manifest order, until about
// 4,000,000 bytes — the selection BenchmarkCount makes. Each sample counts every text once,
// special-token text as text (tiktoken's encode_ordinary; gpt-tokenizer's countTokens with no
// special token allowed or disallowed), and prints
//
//   BenchmarkCount/backend=IMPL/enc=ENC-P  1  NS ns/op  MBS MB/s  CPU proc-cpu-MB/s  TOKENS tokens/op
//
// where P is the number of CPUs, as Go's GOMAXPROCS suffix, MB is 10^6 bytes, as in Go, and
// proc-cpu-MB/s counts per second of the process's CPU time (process.cpuUsage: the JavaScript
// thread's and V8's helper threads'), as plugins/tiktoken's BenchmarkCount reports Go's: on a
// machine whose other work takes cores away, the ratio of the two is the ratio of the work.

import { readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { get_encoding } from "tiktoken";
import * as gptCl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as gptO200k from "gpt-tokenizer/encoding/o200k_base";
import * as gptP50k from "gpt-tokenizer/encoding/p50k_base";
import * as gptR50k from "gpt-tokenizer/encoding/r50k_base";

const gptTokenizer = { cl100k_base: gptCl100k, o200k_base: gptO200k, p50k_base: gptP50k, r50k_base: gptR50k };

const CORPUS_BYTES = 4_000_000;

function usage(msg) {
  console.error(`${msg}\nusage: node bench.mjs PATH [-count N] [-enc cl100k_base,o200k_base]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let path = null, count = 6, encodings = ["cl100k_base", "o200k_base"], impls = ["npm-tiktoken", "gpt-tokenizer"];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "-count") count = Number(args[++i]);
  else if (args[i] === "-enc") encodings = String(args[++i]).split(",");
  else if (args[i] === "-impl") impls = String(args[++i]).split(",");
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
console.log(`# ${impls.join(", ")} on ${texts.length} texts, ${bytes} bytes from ${path}`);
const noSpecial = { allowedSpecial: new Set(), disallowedSpecial: new Set() };

// counter returns a function counting every text with impl and encoding name, and a cleanup.
function counter(impl, name) {
  if (impl === "npm-tiktoken") {
    const enc = get_encoding(name);
    return [() => texts.reduce((n, t) => n + enc.encode_ordinary(t).length, 0), () => enc.free()];
  }
  if (impl === "gpt-tokenizer") {
    const enc = gptTokenizer[name];
    if (!enc) usage(`gpt-tokenizer has no encoding ${name}`);
    return [() => texts.reduce((n, t) => n + enc.countTokens(t, noSpecial), 0), () => {}];
  }
  usage(`unknown -impl ${impl}`);
}

for (const name of encodings) {
  for (const impl of impls) {
    const [countAll, done] = counter(impl, name);
    countAll(); // warm-up: the first call pays for building the encoder's tables
    for (let i = 0; i < count; i++) {
      const started = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      const tokens = countAll();
      const ns = Number(process.hrtime.bigint() - started);
      const used = process.cpuUsage(cpu);
      const mbs = bytes / 1e6 / (ns / 1e9);
      const cpuMBs = bytes / 1e6 / ((used.user + used.system) / 1e6);
      console.log(`BenchmarkCount/backend=${impl}/enc=${name}-${procs} \t1\t${ns} ns/op\t${mbs.toFixed(2)} MB/s\t${cpuMBs.toFixed(2)} proc-cpu-MB/s\t${tokens} tokens/op`);
    }
    done();
  }
}
