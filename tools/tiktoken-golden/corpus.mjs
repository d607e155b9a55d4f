// corpus.mjs writes plugins/tiktoken/testdata/corpus.json: for every file of a corpus built by
// ../shared/tools/build-corpus.sh (all of its MANIFEST.tsv, every language), the number of
// tokens OpenAI's tiktoken (npm tiktoken, encode_ordinary) counts in each encoding.
//
//   cd tools/tiktoken-golden && npm ci && node corpus.mjs CORPUS_DIR [OUT]
//
// Format: {"tiktoken" (version), "files": [{"path", "bytes", "sha256", "counts": {ENC: N}}],
// "totals": {ENC: N}}. The files are read as UTF-8 (TextDecoder with replacement, as
// generate.mjs reads invalid input). plugins/tiktoken's TestBuildCorpusCountsEqualTiktoken
// compares against it when CHUNKKIT_CORPUS names the same corpus.

import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { dirname, join, resolve } from "node:path";
import { get_encoding } from "tiktoken";

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.argv[2];
if (!dir) {
  console.error("usage: node corpus.mjs CORPUS_DIR [OUT]");
  process.exit(2);
}
const outPath = process.argv[3] ?? resolve(here, "../../plugins/tiktoken/testdata/corpus.json");
const ENCODINGS = ["cl100k_base", "o200k_base", "p50k_base", "r50k_base"];
const PINNED = "1.0.22";
const version = JSON.parse(readFileSync(resolve(here, "node_modules/tiktoken/package.json"), "utf8")).version;
if (version !== PINNED) throw new Error(`npm tiktoken is ${version}, want ${PINNED}: run npm ci`);

const encoders = Object.fromEntries(ENCODINGS.map((e) => [e, get_encoding(e)]));
const decoder = new TextDecoder("utf-8");
const lines = readFileSync(join(dir, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1);
const files = [];
const totals = Object.fromEntries(ENCODINGS.map((e) => [e, 0]));
for (const line of lines) {
  const path = line.split("\t")[0];
  const bytes = readFileSync(join(dir, path));
  const text = decoder.decode(bytes);
  const counts = {};
  for (const e of ENCODINGS) {
    counts[e] = encoders[e].encode_ordinary(text).length;
    totals[e] += counts[e];
  }
  files.push({ path, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), counts });
}
const out = ["{", `"tiktoken": ${JSON.stringify(version)},`, `"totals": ${JSON.stringify(totals)},`, `"files": [`];
out.push(files.map((f) => "  " + JSON.stringify(f)).join(",\n"));
out.push("]}");
writeFileSync(outPath, out.join("\n") + "\n");
console.error(`${files.length} files, totals ${JSON.stringify(totals)} -> ${outPath}`);
