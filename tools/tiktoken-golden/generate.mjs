// generate.mjs writes plugins/tiktoken/testdata/golden.json: for every case of strings.json and
// every encoding, what OpenAI's tiktoken (npm tiktoken, its Rust core compiled to WASM) says.
//
//   cd tools/tiktoken-golden && npm ci && node generate.mjs [STRINGS] [OUT]
//
// Semantics, which the Go package plugins/tiktoken follows exactly:
//   - Tokens come from encode_ordinary: special-token text such as <|endoftext|> is text.
//   - count is the number of tokens.
//   - ends are token end byte offsets: the cumulative byte length of each token
//     (decode_single_token_bytes), moved up to the next cut point of the input bytes — the end
//     of the input or a byte that is not a UTF-8 continuation byte (10xxxxxx). On valid UTF-8
//     these are the rune boundaries, so a character split over several tokens repeats its end
//     offset.
//   - Input that is not valid UTF-8 (a base64 case) is decoded with TextDecoder, which replaces
//     each maximal invalid subsequence with one U+FFFD (as Python's errors="replace" does); the
//     repaired text is encoded, and a token ending inside or at the end of a U+FFFD ends after
//     the invalid bytes that U+FFFD stands for.
//
// Output format: {"comment", "tiktoken" (version), "full_ends_max", "cases": [{"name", "bytes",
// "sha256" (of the input bytes), "results": {ENCODING: RESULT}}]}. RESULT is {"count", "ends"}
// when count <= full_ends_max; for longer inputs, to keep the file small, it is {"count",
// "ends_sha256", "ends_tail"}: the SHA-256 (hex) of all ends written in decimal and joined by
// "," and the last five ends.

import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { get_encoding } from "tiktoken";

const here = dirname(fileURLToPath(import.meta.url));
const stringsPath = process.argv[2] ?? resolve(here, "../../plugins/tiktoken/testdata/strings.json");
const outPath = process.argv[3] ?? resolve(here, "../../plugins/tiktoken/testdata/golden.json");

const ENCODINGS = ["cl100k_base", "o200k_base", "p50k_base", "r50k_base"];
const FULL_ENDS_MAX = 256;
const TAIL = 5;
const PINNED = "1.0.22";

// The package's exports hide package.json, so read it from node_modules directly.
const version = JSON.parse(readFileSync(resolve(here, "node_modules/tiktoken/package.json"), "utf8")).version;
if (version !== PINNED) throw new Error(`npm tiktoken is ${version}, want ${PINNED}: run npm ci`);

// inputBytes returns a case's input as bytes.
function inputBytes(c) {
  if (c.text !== undefined) return Buffer.from(c.text, "utf8");
  if (c.repeat !== undefined) return Buffer.from(c.repeat.unit.repeat(c.repeat.times), "utf8");
  if (c.base64 !== undefined) return Buffer.from(c.base64, "base64");
  throw new Error(`case ${c.name}: no text, repeat or base64`);
}

// maximalSubpart returns the length of the maximal invalid subsequence at b[i] (Unicode
// Table 3-7), where b[i..] does not start with a well-formed sequence.
function maximalSubpart(b, i) {
  const c = b[i];
  let need = 0, lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c === 0xe0) { need = 2; lo = 0xa0; }
  else if (c === 0xed) { need = 2; hi = 0x9f; }
  else if (c >= 0xe1 && c <= 0xef) need = 2;
  else if (c === 0xf0) { need = 3; lo = 0x90; }
  else if (c >= 0xf1 && c <= 0xf3) need = 3;
  else if (c === 0xf4) { need = 3; hi = 0x8f; }
  else return 1;
  let k = 1;
  for (; k <= need && i + k < b.length; k++) {
    const d = b[i + k];
    if ((k === 1 && (d < lo || d > hi)) || (k > 1 && (d < 0x80 || d > 0xbf))) break;
  }
  return k;
}

// wellFormedLength returns the length of the well-formed sequence at b[i], or 0.
function wellFormedLength(b, i) {
  const n = maximalSubpart(b, i);
  const c = b[i];
  const want = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (want === 1) return 1;
  return want !== 0 && n === want ? want : 0;
}

// repair returns the text TextDecoder makes of bytes and the segments mapping its UTF-8
// offsets back to the input: {from, origFrom, origTo, replaced}.
function repair(b) {
  const segs = [];
  const parts = [];
  let from = 0, copyFrom = 0, i = 0;
  const flush = (to) => {
    if (to > copyFrom) {
      segs.push({ from, origFrom: copyFrom, origTo: to, replaced: false });
      parts.push(b.subarray(copyFrom, to));
      from += to - copyFrom;
    }
  };
  while (i < b.length) {
    const n = wellFormedLength(b, i);
    if (n > 0) { i += n; continue; }
    flush(i);
    const m = maximalSubpart(b, i);
    segs.push({ from, origFrom: i, origTo: i + m, replaced: true });
    parts.push(Buffer.from("\ufffd", "utf8"));
    from += 3;
    i += m;
    copyFrom = i;
  }
  flush(b.length);
  const repaired = Buffer.concat(parts);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(b);
  // The segment walk must agree with the platform's decoder, or the goldens would lie.
  if (!Buffer.from(text, "utf8").equals(repaired)) throw new Error("maximal-subpart walk disagrees with TextDecoder");
  return { text, segs };
}

const isCutPoint = (b, i) => i >= b.length || (b[i] & 0xc0) !== 0x80;

// ends turns token byte lengths on the text the encoder saw into boundaries on the input.
function ends(input, segs, lens) {
  const out = new Array(lens.length);
  let end = 0, seg = 0;
  for (let t = 0; t < lens.length; t++) {
    end += lens[t];
    let b = end;
    if (segs !== null) {
      while (seg + 1 < segs.length && segs[seg + 1].from < end) seg++;
      const s = segs[seg];
      b = s.replaced ? s.origTo : s.origFrom + end - s.from;
    }
    while (!isCutPoint(input, b)) b++;
    out[t] = b;
  }
  return out;
}

const cases = JSON.parse(readFileSync(stringsPath, "utf8")).cases;
const encoders = Object.fromEntries(ENCODINGS.map((e) => [e, get_encoding(e)]));
const outCases = [];
for (const c of cases) {
  const input = inputBytes(c);
  let text = input.toString("utf8");
  let segs = null;
  if (!Buffer.from(text, "utf8").equals(input)) ({ text, segs } = repair(input));
  const results = {};
  for (const name of ENCODINGS) {
    const enc = encoders[name];
    const started = performance.now();
    const tokens = enc.encode_ordinary(text);
    const elapsed = performance.now() - started;
    if (elapsed > 1000) console.error(`${name} ${c.name}: ${input.length} bytes in ${(elapsed / 1000).toFixed(1)} s`);
    const lens = Array.from(tokens, (t) => enc.decode_single_token_bytes(t).length);
    const e = ends(input, segs, lens);
    if (e.length > 0 && e[e.length - 1] !== input.length) throw new Error(`${name} ${c.name}: last end ${e[e.length - 1]} != ${input.length}`);
    results[name] =
      e.length <= FULL_ENDS_MAX
        ? { count: e.length, ends: e }
        : { count: e.length, ends_sha256: createHash("sha256").update(e.join(",")).digest("hex"), ends_tail: e.slice(-TAIL) };
  }
  outCases.push({ name: c.name, bytes: input.length, sha256: createHash("sha256").update(input).digest("hex"), results });
}
for (const enc of Object.values(encoders)) enc.free();

const caseLines = outCases.map((c) => {
  const head = `  {"name": ${JSON.stringify(c.name)}, "bytes": ${c.bytes}, "sha256": "${c.sha256}", "results": {\n`;
  const rs = ENCODINGS.map((e) => `   ${JSON.stringify(e)}: ${JSON.stringify(c.results[e])}`).join(",\n");
  return head + rs + "}}";
});
const file =
  "{\n" +
  ` "comment": "OpenAI tiktoken's token counts and end offsets (encode_ordinary) for every case of strings.json. Generated by tools/tiktoken-golden/generate.mjs; do not edit. Regenerate: cd tools/tiktoken-golden && npm ci && node generate.mjs",\n` +
  ` "tiktoken": "${version}",\n` +
  ` "full_ends_max": ${FULL_ENDS_MAX},\n` +
  ' "cases": [\n' +
  caseLines.join(",\n") +
  "\n ]\n}\n";
writeFileSync(outPath, file);
console.error(`wrote ${outCases.length} cases × ${ENCODINGS.length} encodings to ${outPath}`);
