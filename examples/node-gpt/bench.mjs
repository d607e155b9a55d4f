// bench.mjs counts tokens with node-gpt's tokenizer (gpt-tokenizer) called in-process, on the
// text examples/polyglot's BenchmarkCount sends through the plugin, and prints Go benchmark
// format so that benchstat reads it beside the Go results:
//
//   node bench.mjs CORPUS [-count N] [-enc cl100k_base]
//
// CORPUS is a directory built by ../shared/tools/build-corpus.sh: its English files
// (MANIFEST.tsv paths starting "en-"), in manifest order, until about 4,000,000 bytes. Each
// sample counts every text once, with special-token text as text, as the plugin does:
//
//   BenchmarkCount/backend=node-gpt-inprocess/enc=ENC-P  1  NS ns/op  MBS MB/s  TOKENS tokens/op
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
let dir = null, count = 6, enc = 'cl100k_base';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-count') count = Number(args[++i]);
  else if (args[i] === '-enc') enc = args[++i];
  else if (dir === null) dir = args[i];
  else { console.error(`unexpected argument ${args[i]}`); process.exit(2); }
}
if (dir === null || !Number.isInteger(count) || count < 1) {
  console.error('usage: node bench.mjs CORPUS [-count N] [-enc cl100k_base]');
  process.exit(2);
}

const texts = [];
let bytes = 0;
for (const line of readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1)) {
  const rel = line.split('\t')[0];
  if (!rel.startsWith('en-')) continue;
  const b = readFileSync(join(dir, rel));
  texts.push(b.toString('utf8'));
  if ((bytes += b.length) >= 4_000_000) break;
}

const { default: encoding } = await import(`gpt-tokenizer/encoding/${enc}`);
const ordinary = { disallowedSpecial: new Set() };
const countAll = () => texts.reduce((n, t) => n + encoding.countTokens(t, ordinary), 0);
countAll(); // warm-up, as the Go benchmark's
const procs = availableParallelism();
console.log(`# gpt-tokenizer in-process on ${texts.length} texts, ${bytes} bytes from ${dir}`);
for (let i = 0; i < count; i++) {
  const started = process.hrtime.bigint();
  const tokens = countAll();
  const ns = Number(process.hrtime.bigint() - started);
  console.log(`BenchmarkCount/backend=node-gpt-inprocess/enc=${enc}-${procs} \t1\t${ns} ns/op\t${(bytes / 1e6 / (ns / 1e9)).toFixed(2)} MB/s\t${tokens} tokens/op`);
}
